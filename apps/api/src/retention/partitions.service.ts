import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Counter, Gauge } from 'prom-client';
import { queryRows, type RowReader } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { registry } from '../metrics/metrics.js';
import { JobQueue } from '../outbox/job-queue.js';
import { DATABASE_URL } from '../prisma/database-url.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { archiveTable } from './feed-archive.js';
import {
  createMonthDdl,
  detachedMonthsSql,
  detachPartitionDdl,
  dropDetachedDdl,
  FEED_LEGACY_PARTITION,
  feedPartitionsSql,
  markPartitionSql,
  monthPartitionName,
  PARTITIONS_LOCK_KEY,
  type FeedPartition,
} from './partitions.sql.js';

export const PARTITIONS_TASK = 'partitions.ahead';

/** Months made ahead of the current one: a write never finds its month missing while a run is missed. */
export const MONTHS_AHEAD = 2;

/**
 * How long a partition change waits for its lock before giving up until the next run: making or
 * dropping a partition locks the feed's table for a moment, and must not queue every feed read
 * behind a long query meanwhile.
 */
const LOCK_TIMEOUT_MS = 3000;

export const feedPartitionsAhead = new Gauge({
  name: 'mizerka_feed_partitions_ahead_months',
  help: 'Whole months after the current one that the players feed has partitions for (alert below 1)',
  registers: [registry],
});

export const feedMonthsArchived = new Counter({
  name: 'mizerka_feed_months_archived_total',
  help: "Months of players' feed events copied to FEED_ARCHIVE_DIR before their drop, by outcome (ok, failed: the month stays detached until a later run copies it)",
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const monthStart = (at: Date, plus = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1));

/**
 * The players' feed's monthly partitions (docs/decisions/partitions.md): makes this month's and the
 * next MONTHS_AHEAD months' (at start-up and in an hourly job), and drops whole months past the
 * feed's retention for the retention job. Every change is one transaction under an advisory lock,
 * looking at the partitions as they are: a run stopped anywhere, or two at once, or one run twice,
 * leave the same partitions.
 */
@Injectable()
export class PartitionsService implements OnModuleInit {
  private readonly log = new Logger('Partitions');
  /** FEED_ARCHIVE_DIR: where a month is copied before its drop; null, dropped without a copy. */
  private readonly archiveDir: string | null;

  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: JobQueue,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    config: ConfigService<AppConfig, true>,
  ) {
    this.archiveDir = config.get('retention', { infer: true }).feedArchiveDir;
  }

  async onModuleInit(): Promise<void> {
    this.jobs.task(PARTITIONS_TASK, async () => {
      await this.ensure(new Date());
    });
    // Hourly: a catalog read when there is nothing to make, and a missed hour costs nothing.
    this.jobs.cron(PARTITIONS_TASK, '7 * * * *', 3600);
    try {
      await this.ensure(new Date());
    } catch (error) {
      // The hourly job tries again; the months made ahead leave weeks for it.
      this.log.warn(`could not make the feed's partitions ahead at start-up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The feed's partitions, oldest first. */
  async list(): Promise<FeedPartition[]> {
    return queryRows(this.prisma, feedPartitionsSql());
  }

  /** Makes the partitions of `now`'s month and MONTHS_AHEAD months after it that no partition covers; answers their names. */
  async ensure(now: Date): Promise<string[]> {
    const made = await this.changing(async (run, partitions) => {
      const names: string[] = [];
      for (let i = 0; i <= MONTHS_AHEAD; i++) {
        const from = monthStart(now, i);
        const to = monthStart(now, i + 1);
        // A month partly covered (by the table of before the partitioning) is left to it.
        if (partitions.some((p) => (p.from === null || p.from < to) && p.to > from)) continue;
        const name = monthPartitionName(from);
        for (const ddl of createMonthDdl(name, from, to)) await run(ddl);
        names.push(name);
      }
      return names;
    });
    const partitions = await this.list();
    const last = partitions.at(-1)?.to;
    const current = monthStart(new Date(), 1);
    feedPartitionsAhead.set(last ? Math.round((last.getTime() - current.getTime()) / (30.44 * 86_400_000)) : 0);
    if (made.length > 0) this.log.log(`made the feed's partitions ${made.join(', ')}`);
    return made;
  }

  /**
   * Drops, oldest first, the partitions whose every row was made before `cutoff` (and before now:
   * a partition that may still take a write stays, whatever `cutoff` says). Per partition, one
   * transaction raises its players' trim marks and detaches it, then (with FEED_ARCHIVE_DIR) it is
   * copied there, then dropped; a month left detached by a run stopped in between (or whose copy
   * failed) is copied and dropped first. A copy that fails stops the run with the month detached
   * and kept: nothing is dropped before its copy is whole on disk. Answers the rows they held.
   */
  async dropBefore(cutoff: Date): Promise<number> {
    await this.dropDetached();
    let rows = 0;
    for (;;) {
      const detached = await this.changing(async (run, partitions, db) => {
        const limit = Math.min(cutoff.getTime(), Date.now());
        const oldest = partitions.find((p) => p.to.getTime() <= limit);
        if (!oldest) return null;
        const [{ n }] = await queryRows(db, markPartitionSql(oldest.name));
        await run(detachPartitionDdl(oldest.name));
        return { name: oldest.name, n };
      });
      if (detached === null) return rows;
      await this.archive(detached.name);
      await this.prisma.$executeRawUnsafe(dropDetachedDdl(detached.name));
      this.log.log(`dropped the feed's partition ${detached.name} (${detached.n} events)`);
      rows += detached.n;
    }
  }

  /** Copies (with FEED_ARCHIVE_DIR) and drops the months a stopped run detached and did not drop; answers their names. */
  async dropDetached(): Promise<string[]> {
    const left = await queryRows(this.prisma, detachedMonthsSql());
    for (const { name } of left) {
      await this.archive(name);
      await this.prisma.$executeRawUnsafe(dropDetachedDdl(name));
    }
    if (left.length > 0) this.log.log(`dropped the feed's detached partitions ${left.map((l) => l.name).join(', ')}`);
    return left.map((l) => l.name);
  }

  /** Copies the detached month `name` to FEED_ARCHIVE_DIR, when set; throws when the copy fails. */
  private async archive(name: string): Promise<void> {
    if (this.archiveDir === null) return;
    try {
      const { file, bytes } = await archiveTable(this.databaseUrl, name, this.archiveDir);
      feedMonthsArchived.inc({ outcome: 'ok' });
      this.log.log(`archived the feed's partition ${name} to ${file} (${bytes} bytes)`);
    } catch (error) {
      feedMonthsArchived.inc({ outcome: 'failed' });
      throw new Error(`could not archive the feed's partition ${name} to ${this.archiveDir}, kept (detached) until a later run: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /**
   * Where the row-by-row delete of feed events stops: the end of the table of before the
   * partitioning while it is there (its rows are deleted one by one until it can go whole), else
   * nowhere (null): the months go whole.
   */
  async rowByRowBefore(): Promise<Date | null> {
    return (await this.list()).find((p) => p.name === FEED_LEGACY_PARTITION)?.to ?? null;
  }

  /** Runs `change` in a transaction holding the partitions' lock, with the partitions as they are then. */
  private async changing<T>(
    change: (run: (ddl: string) => Promise<unknown>, partitions: FeedPartition[], db: RowReader) => Promise<T>,
  ): Promise<T> {
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'`);
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(${PARTITIONS_LOCK_KEY}::bigint)::text`;
        const partitions = await queryRows(tx, feedPartitionsSql());
        return change((ddl) => tx.$executeRawUnsafe(ddl), partitions, tx);
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  }
}
