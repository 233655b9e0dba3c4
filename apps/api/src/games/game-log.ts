import { Injectable } from '@nestjs/common';
import { fromJsonColumn } from '../common/json-column.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { decodeState, type GameState } from '@mizerka/rules';
import { earlierRequest, rebuildGame, recordMoves, type CompactGame } from './compact-log.js';
import { bytesHex } from './dealing.js';
import { LOG_ROW, type LogRow } from './log-row.js';

export type { LogRow } from './log-row.js';

/** Compacted logs rebuilt lately, by game: paging through one (or reading its views) rebuilds it once. */
const CACHED_GAMES = 32;

/** A compacted game rebuilt: its log's rows, and its state after the last entry as encodeState wrote it. */
interface Rebuilt {
  rows: LogRow[];
  state: string;
}

/**
 * The event log's one reader: game_events while they hold the game's entries, else its compacted
 * row (compact_logs, once the compaction job replaced a finished game's rows), rebuilt by the rules
 * into the very rows game_events held. Every read of the log goes through here, and every read of
 * a compacted game's state (the games row no longer holds it: `state`).
 */
@Injectable()
export class GameLogReader {
  private readonly rebuilt = new Map<string, Rebuilt>();

  constructor(private readonly prisma: PrismaService) {}

  /** Up to `limit` entries after seq `after`, oldest first. */
  async rows(gameId: string, after: number, limit: number): Promise<LogRow[]> {
    const rows = await this.prisma.gameEvent.findMany({ where: { gameId, seq: { gt: after } }, orderBy: { seq: 'asc' }, take: limit, select: LOG_ROW });
    // Nothing there: the end of a log, or a compacted one (one primary-key probe tells).
    if (rows.length > 0) return rows;
    const compacted = await this.compacted(gameId);
    return compacted ? compacted.filter((r) => r.seq > after).slice(0, limit) : rows;
  }

  /** A compacted game's whole log, rebuilt; null when the game's log is still rows (or no game). */
  async compacted(gameId: string): Promise<LogRow[] | null> {
    return (await this.rebuild(gameId))?.rows ?? null;
  }

  /**
   * The game's state from its games row's `state` column (`stored`, as read), or, where that is
   * NULL (the compaction job dropped it), rebuilt from its compact log: a state of its own for each
   * call, which the caller may keep.
   */
  async state(gameId: string, stored: unknown): Promise<GameState> {
    if (stored !== null) return decodeState(fromJsonColumn(stored));
    const found = await this.rebuild(gameId);
    if (!found) throw new Error(`game ${gameId}: no state stored and no compact log to rebuild it from`);
    return decodeState(JSON.parse(found.state));
  }

  /** A compacted game's moves as its record takes them (compact-log.ts recordMoves); null when its log is still rows. */
  async recordMoves(gameId: string): Promise<{ dealIndex: number; move: unknown }[] | null> {
    const row = await this.prisma.compactLog.findUnique({ where: { gameId }, select: { entries: true } });
    return row ? recordMoves(row.entries) : null;
  }

  private async rebuild(gameId: string): Promise<Rebuilt | null> {
    const hit = this.rebuilt.get(gameId);
    if (hit) {
      this.rebuilt.delete(gameId);
      this.rebuilt.set(gameId, hit);
      return hit;
    }
    const found = await this.load(gameId);
    if (!found) return null;
    const rebuilt = rebuildGame(found.game, found.entries);
    this.rebuilt.set(gameId, rebuilt);
    if (this.rebuilt.size > CACHED_GAMES) this.rebuilt.delete(this.rebuilt.keys().next().value!);
    return rebuilt;
  }

  /** In a compacted log: `playerId`'s request under idempotency key `key`, and its answer. */
  async earlier(gameId: string, playerId: string, key: string): Promise<{ seq: number; requestHash: string | null; response: unknown } | null> {
    const found = await this.load(gameId);
    return found ? earlierRequest(gameId, found.game, found.entries, playerId, key) : null;
  }

  private async load(gameId: string): Promise<{ game: CompactGame; entries: Uint8Array } | null> {
    const row = await this.prisma.compactLog.findUnique({
      where: { gameId },
      select: {
        entries: true,
        game: {
          select: {
            preset: true,
            options: true,
            firstDealer: true,
            seats: { orderBy: { seat: 'asc' }, select: { playerId: true } },
            deals: { orderBy: { index: 'asc' }, select: { seed: true } },
          },
        },
      },
    });
    if (!row) return null;
    const g = row.game;
    return {
      entries: row.entries,
      game: { preset: g.preset, options: g.options, firstDealer: g.firstDealer, seats: g.seats.map((s) => s.playerId), seeds: g.deals.map((d) => (d.seed ? bytesHex(d.seed) : '')) },
    };
  }
}
