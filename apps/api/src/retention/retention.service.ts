import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Counter, Gauge } from 'prom-client';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { registry } from '../metrics/metrics.js';
import { JobQueue } from '../outbox/job-queue.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { PartitionsService } from './partitions.service.js';
import {
  deleteClosedLobbiesSql,
  deleteDeliveriesSql,
  deleteEndedSql,
  deleteFailedJobsSql,
  deleteFeedBatchSql,
  deleteNoticesSql,
  endpointPageSql,
  ENDED_KINDS,
  feedKeptFromSql,
  type EndedKind,
} from './retention.sql.js';

export const RETENTION_TASK = 'retention.daily';

/** What a run deleted, by kind of row. */
export type RetentionCounts = Record<'feedEvents' | 'webhookDeliveries' | 'failedJobs' | 'notices' | 'closedLobbies' | EndedKind, number>;

export const retentionDeleted = new Counter({
  name: 'mizerka_retention_deleted_total',
  help: 'Rows the daily retention job deleted, by kind (feedEvents, webhookDeliveries, failedJobs, notices, closedLobbies, sessions, refreshTokens, accessTokens, ...)',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const retentionLastRun = new Gauge({
  name: 'mizerka_retention_last_run_seconds',
  help: 'When the retention job last finished a run (Unix time, seconds)',
  registers: [registry],
});

/** A run missed while no instance ran (a deploy at that hour) is made up at start-up within this. */
const BACKFILL_SECONDS = 6 * 3600;
const ENDPOINT_PAGE = 500;

/**
 * Deletes what has outlived its use, once a day (RETENTION_HOUR_UTC), on one instance: the job
 * queue's cron adds one job per day however many instances run. Players' feed events after
 * FEED_RETENTION_SECONDS (by whole monthly partitions: PartitionsService), finished webhook deliveries after WEBHOOK_DELIVERY_RETENTION_SECONDS,
 * jobs that failed for good after FAILED_JOB_RETENTION_SECONDS, notices finished with after
 * NOTICE_RETENTION_SECONDS, lobbies closed without a game after CLOSED_LOBBY_RETENTION_SECONDS, and ended sign-ins, tokens,
 * challenges and codes after EXPIRED_RETENTION_SECONDS; finished games are kept forever. Every
 * delete is a batch of RETENTION_BATCH rows in its own transaction, chosen by age alone, so a run
 * stopped anywhere (an instance killed: the job is retried) leaves nothing half done, and a
 * second run removes nothing the first one did not leave. A retention of 0 keeps those rows.
 */
@Injectable()
export class RetentionService implements OnModuleInit {
  private readonly log = new Logger('Retention');
  private readonly settings: AppConfig['retention'];

  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: JobQueue,
    private readonly partitions: PartitionsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('retention', { infer: true });
  }

  onModuleInit(): void {
    this.jobs.task(RETENTION_TASK, async () => {
      await this.run(new Date());
    });
    this.jobs.cron(RETENTION_TASK, `17 ${this.settings.hourUtc} * * *`, BACKFILL_SECONDS);
  }

  /** One run, as of `now`: deletes what is older than each retention, batch by batch. */
  async run(now: Date): Promise<RetentionCounts> {
    const { feedSeconds, webhookDeliverySeconds, failedJobSeconds, expiredSeconds, noticeSeconds, closedLobbySeconds, batch } = this.settings;
    const cutoff = (seconds: number) => new Date(now.getTime() - seconds * 1000);
    const counts: RetentionCounts = {
      feedEvents: feedSeconds > 0 ? await this.feedEvents(cutoff(feedSeconds)) : 0,
      webhookDeliveries: webhookDeliverySeconds > 0 ? await this.deliveries(cutoff(webhookDeliverySeconds)) : 0,
      failedJobs: failedJobSeconds > 0 ? await this.batches(() => deleteFailedJobsSql(cutoff(failedJobSeconds), batch)) : 0,
      notices: noticeSeconds > 0 ? await this.batches(() => deleteNoticesSql(cutoff(noticeSeconds), batch)) : 0,
      closedLobbies: closedLobbySeconds > 0 ? await this.batches(() => deleteClosedLobbiesSql(cutoff(closedLobbySeconds), batch)) : 0,
      ...(Object.fromEntries(ENDED_KINDS.map((kind) => [kind, 0])) as Record<EndedKind, number>),
    };
    if (expiredSeconds > 0) {
      for (const kind of ENDED_KINDS) counts[kind] = await this.batches(() => deleteEndedSql(kind, cutoff(expiredSeconds), this.settings.batch));
    }
    for (const [kind, n] of Object.entries(counts)) if (n > 0) retentionDeleted.inc({ kind }, n);
    retentionLastRun.set(Date.now() / 1000);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    if (total > 0) this.log.log(`deleted ${Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ')}`);
    return counts;
  }

  /** Runs a one-batch delete until a batch comes back short; answers the rows deleted. */
  private async batches(statement: () => ReturnType<typeof deleteFailedJobsSql>): Promise<number> {
    let total = 0;
    for (;;) {
      const [{ n }] = await queryRows(this.prisma, statement());
      total += n;
      if (n < this.settings.batch) return total;
    }
  }

  /**
   * The feed's events made before `cutoff`: whole monthly partitions, dropped; and, while the table
   * of before the partitioning is there, its rows before `cutoff` one batch at a time (a month's
   * rows wait for their month to go: they are kept up to a month longer than the retention).
   */
  private async feedEvents(cutoff: Date): Promise<number> {
    const total = await this.partitions.dropBefore(cutoff);
    const end = await this.partitions.rowByRowBefore();
    if (end === null) return total;
    return total + (await this.feedEventRows(end < cutoff ? end : cutoff));
  }

  private async feedEventRows(cutoff: Date): Promise<number> {
    const [{ id: below }] = await queryRows(this.prisma, feedKeptFromSql(cutoff));
    let after = 0n;
    let total = 0;
    for (;;) {
      const [{ n, last }] = await queryRows(this.prisma, deleteFeedBatchSql(cutoff, after, below, this.settings.batch));
      total += n;
      if (n < this.settings.batch || last === null) return total;
      after = last;
    }
  }

  private async deliveries(cutoff: Date): Promise<number> {
    let total = 0;
    let after: string | null = null;
    for (;;) {
      const endpoints: { id: string }[] = await queryRows(this.prisma, endpointPageSql(after, ENDPOINT_PAGE));
      for (const { id } of endpoints) total += await this.batches(() => deleteDeliveriesSql(id, cutoff, this.settings.batch));
      if (endpoints.length < ENDPOINT_PAGE) return total;
      after = endpoints[endpoints.length - 1].id;
    }
  }
}
