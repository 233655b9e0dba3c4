import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EventEmitter } from 'node:events';
import { run, type JobHelpers, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import type { AppConfig } from '../config/app-config.js';
import { JOB_QUEUE_SCHEMA, jobQueueLogger } from '../database/job-queue.js';
import { DATABASE_URL } from '../prisma/database-url.js';
import { OUTBOX_TASK, type OutboxEntry, type OutboxEntryType, type OutboxJob } from './outbox-entries.js';

/** One entry with the write it came from. */
export interface OutboxItem<T extends OutboxEntryType = OutboxEntryType> {
  entry: Extract<OutboxEntry, { type: T }>;
  gameId: string;
  seq: number;
}

/**
 * A write this instance has just committed: its game, the log entry it ended at and, when the
 * writer has them at hand, the outbox entries it queued (null: see the game).
 */
export interface LocalCommit {
  gameId: string;
  seq: number;
  entries: readonly OutboxEntry[] | null;
}

/**
 * Does what entries of one kind ask, for a batch of them in commit order (so that a consumer can
 * write them in one statement). Must be idempotent: a batch may be delivered again.
 */
export type OutboxConsumer<T extends OutboxEntryType = OutboxEntryType> = (items: OutboxItem<T>[]) => Promise<void>;

/** Outbox rows moved into the job queue by one relay transaction, at most. */
const RELAY_BATCH = 500;
/**
 * A worker pool not seen for this long is taken for dead (its instance was killed): the jobs it
 * had locked are unlocked for others. The queue would otherwise wait 4 hours before retrying them.
 */
const POOL_DEAD_AFTER_MS = 15_000;

/**
 * The consuming side of the transactional outbox. A move writes its follow-ups into the `outbox`
 * table in its own statement. The relay then moves committed rows into the job queue
 * (graphile-worker) in batches: one transaction deletes up to RELAY_BATCH rows and adds them as
 * one job, so each row becomes work exactly once, and the queue's NOTIFY (a lock every commit
 * would wait on) happens once per batch, not once per move. The instance that committed a move
 * relays at once; every instance also sweeps on a timer, which picks up rows left by an instance
 * that crashed between its commit and its relay. The queue hands each job to one worker on any
 * instance and retries it with backoff when a consumer fails. Feature modules register their
 * consumers at start-up.
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Outbox');
  private readonly consumers = new Map<OutboxEntryType, { name: string; consume: OutboxConsumer }[]>();
  private readonly tasks = new Map<string, (payload: unknown, helpers: JobHelpers) => Promise<void>>();
  private runner: Runner | null = null;
  private pool: pg.Pool | null = null;
  /** Runners of tasks kept apart from the main one (slow ones, such as webhook sends). */
  private readonly apart: { runner: Runner; pool: pg.Pool }[] = [];
  private sweep: NodeJS.Timeout | null = null;
  /** The relay in flight, and whether another was asked for meanwhile. */
  private relaying: Promise<void> | null = null;
  private relayAgain = false;
  private relayTimer: NodeJS.Timeout | null = null;
  /** When the last relay began (performance.now()); -Infinity before the first. */
  private lastRelayAt = -Infinity;
  /** This instance's worker pools, as they mark the jobs they lock. */
  private readonly poolIds = new Set<string>();
  private readonly commitListeners: ((commit: LocalCommit) => void)[] = [];

  constructor(
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** Registers `consume` for entries of `type`; call it from a module's onModuleInit. */
  consume<T extends OutboxEntryType>(type: T, name: string, consume: OutboxConsumer<T>): void {
    const list = this.consumers.get(type) ?? [];
    list.push({ name, consume: consume as unknown as OutboxConsumer });
    this.consumers.set(type, list);
  }

  /**
   * Registers the handler of another job-queue task (a move clock, a webhook delivery); call it
   * from a module's onModuleInit. Jobs are added from SQL (`graphile_worker.add_job`), so that they
   * commit with what caused them; a handler that throws is retried with backoff.
   */
  task(name: string, handler: (payload: unknown, helpers: JobHelpers) => Promise<void>): void {
    if (name === OUTBOX_TASK || this.tasks.has(name)) throw new Error(`The job task ${name} is registered twice`);
    this.tasks.set(name, handler);
  }

  /** Runs every consumer on its entries of the jobs; one that throws fails the whole batch, which is retried. */
  async process(jobs: OutboxJob[]): Promise<void> {
    const byType = new Map<OutboxEntryType, OutboxItem[]>();
    for (const { gameId, seq, entries } of jobs) {
      for (const entry of entries) {
        const items = byType.get(entry.type) ?? [];
        items.push({ entry, gameId, seq } as OutboxItem);
        byType.set(entry.type, items);
      }
    }
    for (const [type, items] of byType) {
      for (const { name, consume } of this.consumers.get(type) ?? []) {
        try {
          await consume(items);
        } catch (error) {
          this.log.warn(`consumer ${name} failed on ${items.length} ${type} entries: ${String(error)}`);
          throw error;
        }
      }
    }
  }

  /**
   * Registers `listener` for the writes this instance commits, handed over on the next turn of the
   * event loop: a head start for work that the durable consumers would otherwise begin only after
   * the relay and the queue's pick-up (a bot's move). Never instead of a consumer: a commit whose
   * process dies before the listener runs is still relayed. Only on an instance that works jobs.
   */
  onCommit(listener: (commit: LocalCommit) => void): void {
    this.commitListeners.push(listener);
  }

  /** A write just committed its outbox row: relay it soon, and tell this instance's listeners. */
  committed(commit: LocalCommit): void {
    this.kick();
    if (!this.pool) return;
    for (const listener of this.commitListeners) {
      setImmediate(() => {
        try {
          listener(commit);
        } catch (error) {
          this.log.warn(`a commit listener failed on game ${commit.gameId}: ${String(error)}`);
        }
      });
    }
  }

  /**
   * Something was just committed to the outbox: relay it soon. Cheap to call often. Relays begin
   * at most once per JOB_RELAY_DELAY_MS, so that under load the rows of many moves go in one job
   * (one NOTIFY); when none began that long ago, at once: a quiet server (a person against bots, a
   * correspondence game) does not wait for company. Relays never overlap (a call during one runs
   * another after it).
   */
  kick(): void {
    if (!this.pool) return; // this instance works no jobs; another's sweep relays them
    if (this.relaying || this.relayTimer) {
      this.relayAgain = this.relaying !== null;
      return;
    }
    const delayMs = this.config.get('jobs', { infer: true }).relayDelayMs;
    this.relayTimer = setTimeout(() => {
      this.relayTimer = null;
      this.lastRelayAt = performance.now();
      this.relaying = this.relayAll().finally(() => {
        this.relaying = null;
        if (this.relayAgain) {
          this.relayAgain = false;
          this.kick();
        }
      });
    }, Math.max(0, this.lastRelayAt + delayMs - performance.now()));
  }

  /** Moves committed outbox rows into the job queue until none is left. */
  private async relayAll(): Promise<void> {
    try {
      while (this.pool && (await this.relayBatch(this.pool)) === RELAY_BATCH);
    } catch (error) {
      this.log.warn(`relaying the outbox: ${String(error)}`); // the rows stay; the sweep tries again
    }
  }

  private async relayBatch(pool: pg.Pool): Promise<number> {
    const { rows } = await pool.query<{ relayed: number }>(
      `WITH batch AS (
         DELETE FROM outbox WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id, game_id, seq, entries),
       job AS (
         SELECT ${JOB_QUEUE_SCHEMA}.add_job($1::text,
                  json_agg(json_build_object('gameId', game_id, 'seq', seq, 'entries', entries) ORDER BY id))
           FROM batch HAVING count(*) > 0)
       SELECT (SELECT count(*) FROM batch)::int AS relayed, (SELECT count(*) FROM job)::int AS jobs`,
      [OUTBOX_TASK, RELAY_BATCH],
    );
    return rows[0]?.relayed ?? 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    const settings = this.config.get('jobs', { infer: true });
    if (!settings.worker) return; // this instance only writes the outbox; others relay and work
    const main = await this.startRunner('job queue', settings.concurrency, {
      ...Object.fromEntries(this.tasks),
      [OUTBOX_TASK]: (payload) => this.process(payload as OutboxJob[]),
    });
    this.pool = main.pool;
    this.runner = main.runner;
    this.sweep = setInterval(() => {
      this.kick();
      void this.keepPoolsAlive();
    }, settings.pollMs).unref();
    this.kick(); // what was left while no instance ran
    await this.keepPoolsAlive();
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

  private async startRunner(label: string, concurrency: number, taskList: TaskList): Promise<{ runner: Runner; pool: pg.Pool }> {
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
      // Fetch jobs in batches and mark them done in batches: fewer transactions than jobs.
      preset: {
        worker: { localQueue: settings.batch > 1 ? { size: settings.batch } : undefined, completeJobBatchDelay: settings.batchDelayMs },
      },
    });
    return { runner, pool };
  }

  /**
   * Says that this instance's pools are alive, and unlocks the jobs of pools that have not said so
   * for POOL_DEAD_AFTER_MS (a killed instance cannot release what it had locked).
   */
  private async keepPoolsAlive(): Promise<void> {
    const pool = this.pool;
    if (!pool || this.poolIds.size === 0) return;
    try {
      await pool.query(
        `WITH seen AS (
           INSERT INTO job_pools (pool_id, seen_at) SELECT unnest($1::text[]), now()
           ON CONFLICT (pool_id) DO UPDATE SET seen_at = now()),
         gone AS (DELETE FROM job_pools WHERE seen_at < now() - interval '1 day'),
         dead AS (
           SELECT DISTINCT j.locked_by FROM ${JOB_QUEUE_SCHEMA}._private_jobs j
            WHERE j.locked_by IS NOT NULL AND j.locked_by <> ALL($1::text[])
              AND j.locked_at < now() - make_interval(secs => $2::float8 / 1000)
              AND NOT EXISTS (SELECT 1 FROM job_pools p
                               WHERE p.pool_id = j.locked_by AND p.seen_at > now() - make_interval(secs => $2::float8 / 1000)))
         SELECT ${JOB_QUEUE_SCHEMA}.force_unlock_workers(array_agg(locked_by)) FROM dead HAVING count(*) > 0`,
        [[...this.poolIds], POOL_DEAD_AFTER_MS],
      );
    } catch (error) {
      this.log.warn(`checking the job-queue pools: ${String(error)}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    if (this.relayTimer) clearTimeout(this.relayTimer);
    this.relayTimer = null;
    await this.relaying;
    const runners = [...(this.runner && this.pool ? [{ runner: this.runner, pool: this.pool }] : []), ...this.apart.splice(0)];
    const main = this.pool;
    this.runner = null;
    this.pool = null;
    await Promise.all(runners.map(({ runner }) => runner.stop().catch((error: unknown) => this.log.warn(`stopping a job runner: ${String(error)}`))));
    if (main && this.poolIds.size > 0) await main.query('DELETE FROM job_pools WHERE pool_id = ANY($1::text[])', [[...this.poolIds]]).catch(() => undefined);
    await Promise.all(runners.map(({ pool }) => pool.end().catch(() => undefined)));
  }
}
