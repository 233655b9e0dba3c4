import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EventEmitter } from 'node:events';
import { parseCronItems, run, type CronItem, type JobHelpers, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { parseRows, type SqlQuery } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { JOB_QUEUE_SCHEMA, jobQueueLogger } from '../database/job-queue.js';
import type { Prisma } from '../generated/prisma/client.js';
import { DATABASE_URL } from '../prisma/database-url.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { forgetPoolsSql, keepPoolsAliveSql, lockGamesSql, removeJobsSql, setGameJobsSql, type GameJob } from './job-queue.sql.js';

export type { GameJob } from './job-queue.sql.js';

/**
 * Runs a statement on one of the queue's pg pools: a query's rows, checked against its shape; a
 * statement run for its effect, nothing. graphile-worker runs on a pg.Pool of its own, and the
 * relay and the pools' bookkeeping use that pool too (sized for them, see startRunner), so that an
 * instance's job work never waits for Prisma's pool behind requests. The same Prisma.Sql as
 * everywhere else, sent as its text and values.
 */
export async function onQueuePool<Row>(pool: pg.Pool, query: SqlQuery<Row>): Promise<Row[]>;
export async function onQueuePool(pool: pg.Pool, statement: Prisma.Sql): Promise<void>;
export async function onQueuePool<Row>(pool: pg.Pool, query: Prisma.Sql | SqlQuery<Row>): Promise<Row[] | void> {
  const { rows } = await pool.query(query.text, query.values as unknown[]);
  if ('row' in query) return parseRows(query, rows);
}

/** Works one job of a task; a handler that throws is retried with the queue's backoff. */
export type JobHandler = (payload: unknown, helpers: JobHelpers) => Promise<void>;

/** What `keepPerGame` is to do: the keyed jobs to set (replacing any of the same key), the keys to remove. */
export interface GameJobsPlan {
  set: GameJob[];
  remove: string[];
}

type Transaction = Parameters<Parameters<PrismaService['$transaction']>[0]>[0];

/**
 * A worker pool not seen for this long is taken for dead (its instance was killed): the jobs it
 * had locked are unlocked for others. The queue would otherwise wait 4 hours before retrying them.
 */
const POOL_DEAD_AFTER_MS = 15_000;

/**
 * The job queue (graphile-worker), through its public surface only: tasks registered here and run
 * by this instance's runners, jobs added with the queue's SQL functions (`add_jobs`, `remove_job`)
 * in the transaction of their cause, and the `jobs` view and `force_unlock_workers` for the pools
 * of killed instances. No statement touches the queue's private tables, so an upgrade of the
 * package that reshapes them changes nothing here.
 */
@Injectable()
export class JobQueue implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('JobQueue');
  private readonly tasks = new Map<string, JobHandler>();
  /** Tasks run on a schedule (graphile-worker's cron), by the main runner. */
  private readonly cronItems: CronItem[] = [];
  private main: { runner: Runner; pool: pg.Pool } | null = null;
  /** Runners of tasks kept apart from the main one (slow ones, such as webhook sends). */
  private readonly apart: { runner: Runner; pool: pg.Pool }[] = [];
  /** This instance's worker pools, as they mark the jobs they lock. */
  private readonly poolIds = new Set<string>();
  private readonly pollers: ((pool: pg.Pool) => Promise<void>)[] = [];
  private poll: NodeJS.Timeout | null = null;

  constructor(
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly prisma: PrismaService,
  ) {}

  /** Registers the handler of a task; call it from a module's onModuleInit (the runner starts after). */
  task(name: string, handler: JobHandler): void {
    if (this.tasks.has(name)) throw new Error(`The job task ${name} is registered twice`);
    this.tasks.set(name, handler);
  }

  /**
   * Runs the task `name` (registered with `task`) on a schedule, a crontab pattern in UTC
   * (`17 3 * * *`: daily at 03:17). graphile-worker's cron adds one job per tick however many
   * instances run it (its known_crontabs row records the last tick scheduled), and a tick missed
   * while no instance ran is added at start-up within `backfillSeconds`. Call it from a module's
   * onModuleInit.
   */
  cron(name: string, match: string, backfillSeconds = 0): void {
    this.cronItems.push({ task: name, match, identifier: name, options: { backfillPeriod: backfillSeconds * 1000 } });
  }

  /**
   * Calls `poller` when this instance starts working jobs and every JOB_POLL_MS after, with the
   * main runner's pool (the outbox relay's sweep). Never on an instance that works no jobs.
   */
  everyPoll(poller: (pool: pg.Pool) => Promise<void>): void {
    this.pollers.push(poller);
  }

  /** The main runner's pool; null while this instance works no jobs. */
  get pool(): pg.Pool | null {
    return this.main?.pool ?? null;
  }

  /**
   * Keeps one job per game for one purpose (a clock, a bot's turn): takes the games' advisory locks
   * of `lock` in a transaction, asks `plan` (reading the games in that transaction) which keyed jobs
   * to set and which to remove, and does it there. Of two schedulers of one game the later one
   * therefore reads the newer turn and writes last; a job set again replaces the pending one.
   */
  async keepPerGame(lock: string, gameIds: readonly string[], plan: (tx: Transaction, ids: string[]) => Promise<GameJobsPlan>): Promise<void> {
    const ids = [...new Set(gameIds)].sort();
    if (ids.length === 0) return;
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw(lockGamesSql(ids, lock));
      const { set, remove } = await plan(tx, ids);
      if (set.length > 0) await tx.$executeRaw(setGameJobsSql(set));
      if (remove.length > 0) await tx.$executeRaw(removeJobsSql(remove));
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const settings = this.config.get('jobs', { infer: true });
    if (!settings.worker) return; // this instance only writes jobs and outbox rows; others work them
    this.main = await this.startRunner('job queue', settings.concurrency, Object.fromEntries(this.tasks), this.cronItems);
    this.poll = setInterval(() => void this.polled(), settings.pollMs).unref();
    await this.polled();
  }

  /**
   * Works `taskList` in a runner of its own with `concurrency` jobs at once, so that slow jobs
   * (waiting on other servers) never hold up the clocks and the outbox. Its pool is kept alive and
   * stopped like the main one. Nothing when this instance works no jobs.
   */
  async runApart(label: string, concurrency: number, taskList: TaskList): Promise<void> {
    if (!this.config.get('jobs', { infer: true }).worker) return;
    this.apart.push(await this.startRunner(label, concurrency, taskList));
  }

  private async polled(): Promise<void> {
    const pool = this.pool;
    if (!pool) return;
    await Promise.all([this.keepPoolsAlive(pool), ...this.pollers.map((poller) => poller(pool))]);
  }

  private async startRunner(label: string, concurrency: number, taskList: TaskList, cron: CronItem[] = []): Promise<{ runner: Runner; pool: pg.Pool }> {
    const settings = this.config.get('jobs', { infer: true });
    const pool = new pg.Pool({
      connectionString: this.databaseUrl,
      max: concurrency + 3, // the jobs, LISTEN, the relay and the queue's own bookkeeping
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      query_timeout: 30_000,
    });
    // An idle or a checked-out connection that breaks must not bring the process down.
    pool.on('error', (error) => this.log.warn(`${label} connection: ${error.message}`));
    pool.on('connect', (client) => client.on('error', (error) => this.log.warn(`${label} connection: ${error.message}`)));
    const events = new EventEmitter() as WorkerEvents;
    events.on('pool:create', ({ workerPool }) => this.poolIds.add(workerPool.id));
    const runner = await run({
      pgPool: pool,
      schema: JOB_QUEUE_SCHEMA,
      concurrency,
      pollInterval: settings.pollMs,
      noHandleSignals: true,
      events,
      logger: jobQueueLogger((level, message) => {
        if (level === 'error' || level === 'warning') this.log.warn(`${label}: ${message}`);
      }),
      taskList,
      parsedCronItems: parseCronItems(cron),
      // Fetch jobs in batches and mark them done in batches: fewer transactions than jobs.
      preset: {
        worker: { localQueue: settings.batch > 1 ? { size: settings.batch } : undefined, completeJobBatchDelay: settings.batchDelayMs },
      },
    });
    return { runner, pool };
  }

  /**
   * Says that this instance's pools are alive (in our own `job_pools`), and unlocks the jobs of
   * pools that have not said so for POOL_DEAD_AFTER_MS (a killed instance cannot release what it
   * had locked). Reads the queue's public `jobs` view; unlocks with its `force_unlock_workers`.
   */
  private async keepPoolsAlive(pool: pg.Pool): Promise<void> {
    if (this.poolIds.size === 0) return;
    try {
      await onQueuePool(pool, keepPoolsAliveSql([...this.poolIds], POOL_DEAD_AFTER_MS));
    } catch (error) {
      this.log.warn(`checking the job-queue pools: ${String(error)}`);
    }
  }

  /** Stops taking jobs and waits for those under way; the relay's last run has ended before (see Outbox). */
  async onApplicationShutdown(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    const runners = [...(this.main ? [this.main] : []), ...this.apart.splice(0)];
    const main = this.main?.pool ?? null;
    this.main = null;
    await Promise.all(runners.map(({ runner }) => runner.stop().catch((error: unknown) => this.log.warn(`stopping a job runner: ${String(error)}`))));
    if (main && this.poolIds.size > 0) await onQueuePool(main, forgetPoolsSql([...this.poolIds])).catch(() => undefined);
    await Promise.all(runners.map(({ pool }) => pool.end().catch(() => undefined)));
  }
}
