import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { run, type Runner } from 'graphile-worker';
import pg from 'pg';
import type { AppConfig } from '../config/app-config.js';
import { DATABASE_URL } from '../prisma/database-url.js';
import { jobQueueLogger } from './job-queue.js';
import { JOB_QUEUE_SCHEMA, OUTBOX_TASK, type OutboxEntry, type OutboxEntryType, type OutboxJob } from './outbox-entries.js';

/** Does what one kind of entry asks; must be idempotent (an entry may be delivered twice). */
export type OutboxConsumer<T extends OutboxEntryType = OutboxEntryType> = (
  entry: Extract<OutboxEntry, { type: T }>,
  job: { gameId: string; seq: number },
) => Promise<void>;

/**
 * The consuming side of the transactional outbox. Moves queue one job per commit (in the same
 * statement); the job queue (graphile-worker) hands each job to one worker on any instance,
 * after the commit, and retries it with backoff when a consumer fails, so a crash between the
 * commit and the work loses nothing. Feature modules register their consumers at start-up.
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Outbox');
  private readonly consumers = new Map<OutboxEntryType, { name: string; consume: OutboxConsumer }[]>();
  private runner: Runner | null = null;
  private pool: pg.Pool | null = null;

  constructor(
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** Registers `consume` for entries of `type`; call it from a module's constructor or onModuleInit. */
  consume<T extends OutboxEntryType>(type: T, name: string, consume: OutboxConsumer<T>): void {
    const list = this.consumers.get(type) ?? [];
    list.push({ name, consume: consume as unknown as OutboxConsumer });
    this.consumers.set(type, list);
  }

  /** Runs every consumer of every entry of the job; one that throws fails the job, which is retried whole. */
  async process(job: OutboxJob): Promise<void> {
    for (const entry of job.entries) {
      for (const { name, consume } of this.consumers.get(entry.type) ?? []) {
        try {
          await consume(entry, { gameId: job.gameId, seq: job.seq });
        } catch (error) {
          this.log.warn(`consumer ${name} failed on ${entry.type} of game ${job.gameId} seq ${job.seq}: ${String(error)}`);
          throw error;
        }
      }
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    const settings = this.config.get('jobs', { infer: true });
    if (!settings.worker) return; // this instance only queues; others work
    this.pool = new pg.Pool({
      connectionString: this.databaseUrl,
      max: settings.concurrency + 2, // the jobs, LISTEN, and the queue's own bookkeeping
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    this.pool.on('error', (error) => this.log.warn(`job queue connection: ${error.message}`));
    this.runner = await run({
      pgPool: this.pool,
      schema: JOB_QUEUE_SCHEMA,
      concurrency: settings.concurrency,
      pollInterval: settings.pollMs,
      noHandleSignals: true,
      logger: jobQueueLogger((level, message) => {
        if (level === 'error' || level === 'warning') this.log.warn(message);
      }),
      taskList: { [OUTBOX_TASK]: (payload) => this.process(payload as OutboxJob) },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const runner = this.runner;
    this.runner = null;
    await runner?.stop().catch((error: unknown) => this.log.warn(`stopping the job queue: ${String(error)}`));
    await this.pool?.end().catch(() => undefined);
    this.pool = null;
  }
}
