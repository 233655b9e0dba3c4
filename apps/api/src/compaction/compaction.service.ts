import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Counter, Gauge } from 'prom-client';
import { queryRows, type RowReader } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { differences, encodeLog, NotCompactable, stateDifference, type CompactGame, type FullLogRow } from '../games/index.js';
import { recordSourcesSql } from '../history/history.sql.js';
import { recordTextOfRow } from '../history/stored-records.js';
import { registry } from '../metrics/metrics.js';
import { JobQueue } from '../outbox/job-queue.js';
import { PrismaService } from '../prisma/prisma.service.js';
import {
  candidatesSql,
  dropLiveTricksSql,
  dropRecordSql,
  dropSeedHashesSql,
  dropStateSql,
  lockedGameSql,
  logRowsSql,
  markSql,
  packTricksSql,
  replaceLogSql,
  setMarkSql,
  storedRecordSql,
  unequalTricksSql,
  unpackTricksSql,
} from './compaction.sql.js';

export const COMPACTION_TASK = 'compaction.hourly';

/** What became of one game: compacted now, already compacted (or nothing to do), or left as rows. */
export type Compaction = 'compacted' | 'done' | 'kept';

export const compactionGames = new Counter({
  name: 'mizerka_compaction_games_total',
  help: "Finished games the compaction job looked at, by outcome (compacted; kept: the compact form would have lost something, see the log)",
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const compactionLastRun = new Gauge({
  name: 'mizerka_compaction_last_run_seconds',
  help: 'When the compaction job last finished a run (Unix time, seconds)',
  registers: [registry],
});

/** Each run looks again at the games finished this long before its mark (a record stored late). */
const MARGIN_MS = 3600_000;
const BACKFILL_SECONDS = 6 * 3600;
const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Compacts finished games' event logs, hourly, on one instance (the job queue's cron): a game
 * finished more than COMPACT_AFTER_SECONDS ago, with its record stored, has its game_events rows
 * replaced by one compact_logs row (games/compact-log.ts), from which GameLogReader rebuilds every
 * entry, and its tricks rows (live_tricks) by a bytea per deal (deals.played_tricks), which the view
 * `tricks` reads as the same rows, and its games row's `state` is dropped (GameLogReader.state rebuilds
 * it). Each game in its own transaction, with its row locked, and only when the rebuild from the
 * compact form equals the rows field by field (and every kept answer of a retried move, and the
 * final state): a run
 * stopped anywhere leaves each game whole in one form or the other, and a game compacted twice is
 * left as it is. The job's mark (job_marks) says how far it has been: a run starts there.
 */
@Injectable()
export class CompactionService implements OnModuleInit {
  private readonly log = new Logger('Compaction');
  private readonly settings: AppConfig['compaction'];

  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: JobQueue,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('compaction', { infer: true });
  }

  onModuleInit(): void {
    if (this.settings.afterSeconds === 0) return;
    this.jobs.task(COMPACTION_TASK, async () => {
      await this.run(new Date());
    });
    this.jobs.cron(COMPACTION_TASK, '41 * * * *', BACKFILL_SECONDS);
  }

  /** One run as of `now`: every game finished since the mark (less a margin) and before now − COMPACT_AFTER_SECONDS. */
  async run(now: Date): Promise<Record<Compaction, number>> {
    const counts: Record<Compaction, number> = { compacted: 0, done: 0, kept: 0 };
    if (this.settings.afterSeconds === 0) return counts;
    const until = new Date(now.getTime() - this.settings.afterSeconds * 1000);
    const [mark] = await queryRows(this.prisma, markSql());
    let from = new Date(mark ? mark.at.getTime() - MARGIN_MS : 0);
    let fromId = NO_ID;
    for (;;) {
      const games = await queryRows(this.prisma, candidatesSql(from, fromId, until, this.settings.batch));
      for (const g of games) counts[await this.compact(g.id)]++;
      if (games.length < this.settings.batch) break;
      const last = games[games.length - 1];
      ({ finished_at: from, id: fromId } = last);
      await queryRows(this.prisma, setMarkSql(from));
    }
    await queryRows(this.prisma, setMarkSql(until));
    for (const [outcome, n] of Object.entries(counts)) if (n > 0) compactionGames.inc({ outcome }, n);
    compactionLastRun.set(Date.now() / 1000);
    if (counts.compacted + counts.kept > 0) this.log.log(`compacted ${counts.compacted} finished games' logs${counts.kept ? `, kept ${counts.kept} as rows` : ''}`);
    return counts;
  }

  /**
   * One game, in one transaction: its log's rows become its compact row, if that loses nothing;
   * then its stored state and record go, each if the compact log rebuilds it the same, and its
   * deals' seed hashes, which their seeds give. (A game compacted before these were dropped has
   * only them left to drop: 'compacted' too.)
   */
  async compact(gameId: string): Promise<Compaction> {
    return this.prisma.$transaction(async (tx) => {
      const [game] = await queryRows(tx, lockedGameSql(gameId));
      if (!game || game.status !== 'finished' || game.imported) return 'done';
      const facts: CompactGame = { preset: game.preset, options: game.options, firstDealer: game.first_dealer, seats: game.seats, seeds: game.seeds as string[] };
      if (game.compacted) {
        if (game.entries === null) return 'done';
        const state = game.state !== null && (await this.dropState(tx, gameId, facts, game.entries, game.state));
        const record = await this.dropRecord(tx, gameId);
        const [{ dropped: hashes }] = await queryRows(tx, dropSeedHashesSql(gameId));
        return state || record || hashes > 0 ? 'compacted' : 'done';
      }
      const rows: FullLogRow[] = (await queryRows(tx, logRowsSql(gameId))).map((r) => ({
        seq: r.seq,
        kind: r.kind,
        dealIndex: r.deal_index,
        seat: r.seat,
        playerId: r.player_id,
        actor: r.actor,
        cause: r.cause,
        move: r.move,
        events: r.events,
        idempotencyKey: r.idempotency_key,
        requestHash: r.request_hash,
        response: r.response,
        deadline: r.deadline,
        createdAt: r.created_at,
      }));
      if (rows.length === 0) return 'done';
      if (game.seeds.some((s) => s === null)) return this.kept(gameId, 'a deal without a seed');
      let entries: Buffer;
      try {
        entries = encodeLog(rows);
      } catch (error) {
        if (error instanceof NotCompactable) return this.kept(gameId, error.message);
        throw error;
      }
      let lost: string | null;
      try {
        // With the stored state: dropped below, it must be the one the log rebuilds.
        lost = differences(gameId, facts, rows, entries, game.state ?? undefined);
      } catch (error) {
        lost = `the rebuild failed: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (lost !== null) return this.kept(gameId, lost);
      await queryRows(tx, replaceLogSql(gameId, entries));
      await this.packTricks(tx, gameId);
      await queryRows(tx, dropStateSql(gameId));
      await this.dropRecord(tx, gameId);
      await queryRows(tx, dropSeedHashesSql(gameId));
      return 'compacted';
    });
  }

  /**
   * A compacted game's stored record deleted, in the caller's transaction, when the record built
   * from its compact log (what GamesService.record and the export then build) is the same text;
   * else it stays, with a warning. Whether it went.
   */
  private async dropRecord(tx: RowReader, gameId: string): Promise<boolean> {
    const [stored] = await queryRows(tx, storedRecordSql(gameId));
    if (!stored) return false;
    const [source] = await queryRows(tx, recordSourcesSql([gameId], false));
    let built: string;
    try {
      // The export's text of it (recordTextOfRow), which must be the stored text byte for byte.
      built = source?.compact ? recordTextOfRow(source) : '';
    } catch (error) {
      built = `(the build failed: ${error instanceof Error ? error.message : String(error)})`;
    }
    if (built !== stored.text) {
      this.log.warn(`game ${gameId}: its record stays stored (the one built from the compact log differs: ${built.slice(0, 200)})`);
      return false;
    }
    const [{ dropped }] = await queryRows(tx, dropRecordSql(gameId));
    return dropped === 1;
  }

  /**
   * The game's stored state (games.state) set to NULL, in the caller's transaction, when the state
   * its compact log rebuilds (what GameLogReader.state then serves) equals it; else it stays, with
   * a warning. Whether it went.
   */
  private async dropState(tx: RowReader, gameId: string, facts: CompactGame, entries: Uint8Array, state: unknown): Promise<boolean> {
    let lost: string | null;
    try {
      lost = stateDifference(facts, entries, state);
    } catch (error) {
      lost = `the rebuild failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (lost !== null) {
      this.log.warn(`game ${gameId}: its state stays stored (${lost})`);
      return false;
    }
    const [{ dropped }] = await queryRows(tx, dropStateSql(gameId));
    return dropped === 1;
  }

  /**
   * The game's tricks rows become a bytea per deal (deals.played_tricks, read through the view
   * `tricks`), in the caller's transaction: packed, read back and compared with the rows, which go
   * only when every trick reads back the same; else the packing is undone and the rows stay.
   */
  private async packTricks(tx: RowReader, gameId: string): Promise<void> {
    const [{ deals }] = await queryRows(tx, packTricksSql(gameId));
    if (deals === 0) return;
    const [{ unequal }] = await queryRows(tx, unequalTricksSql(gameId));
    if (unequal === 0) {
      await queryRows(tx, dropLiveTricksSql(gameId));
      return;
    }
    await queryRows(tx, unpackTricksSql(gameId));
    this.log.warn(`game ${gameId}: its tricks stay as rows (${unequal} would not read back the same packed)`);
  }

  private kept(gameId: string, why: string): Compaction {
    this.log.warn(`game ${gameId}: its log stays as rows (${why})`);
    return 'kept';
  }
}
