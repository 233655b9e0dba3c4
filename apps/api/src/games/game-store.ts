import { Injectable } from '@nestjs/common';
import { type GameEvent, type GameState } from '@mizerka/rules';
import { fromJsonColumn } from '../common/json-column.js';
import type { RowOf } from '../common/sql-query.js';
import { isUniqueViolation } from '../prisma/errors.js';
import { HotSql } from '../prisma/hot-sql.js';
import type { GameProjection } from './game-commit.js';
import { gameCommitSql } from './game-commit.sql.js';
import { GameLogReader } from './game-log.js';
import { dealEventsSql, gameReadSql } from './game-store.sql.js';
import { storedTimeControl, type GameClock } from './time-control.js';
import type { GameStatusValue } from './models/enums.js';

/** A game as the move path needs it: the authoritative state and who sits where. */
export interface StoredGame {
  status: GameStatusValue;
  /** The seq of the last log entry; a write is applied only where it is still this. */
  version: number;
  state: GameState;
  /** Player ids by seat. */
  seats: string[];
  /** By seat: whether the server plays it (a server bot, with a level). */
  serverBots: boolean[];
  /** The move clock; null when the game is untimed. */
  clock: GameClock | null;
  /** By seat: its player is away and the game lets that stop its clock (vacations/); absent: nobody. */
  away?: boolean[];
  /** A duplicate board's game: the board's seed, which its next deals derive from; absent or null: fresh seeds. */
  boardSeed?: string | null;
}

/** What an earlier request under the same idempotency key wrote: its entry, and what was answered then. */
export interface EarlierRequest {
  seq: number;
  /**
   * SHA-256 of that request (hex); null for entries written before requests were fingerprinted; its
   * first 16 digits only for a compacted log's entry (sameRequest compares by prefix).
   */
  requestHash: string | null;
  /** The answer given then; null for entries written before answers were kept. */
  response: unknown;
}

/** Whether `request` (a SHA-256 in hex) is the one an earlier request's hash, whole or cut short, names. */
export function sameRequest(earlier: string | null, request: string | null): boolean {
  return earlier === null || earlier === request || (request !== null && earlier.length < request.length && request.startsWith(earlier));
}

/** A read for one caller: also their seat, and their earlier request under the same idempotency key. */
export interface GameRead extends StoredGame {
  seat: number | null;
  earlier: EarlierRequest | null;
}

/**
 * The game's persistence on the move path: one read, and one guarded write, the move's commit
 * rendered by gameCommitSql (`UPDATE games … WHERE version = <read>` and all that hangs off it).
 */
@Injectable()
export class GameStore {
  constructor(
    private readonly sql: HotSql,
    private readonly log: GameLogReader,
  ) {}

  /** One round trip: the game row, its seats, `playerId`'s seat and earlier use of `key`. */
  async read(gameId: string, playerId: string | null, key: string | null): Promise<GameRead | null> {
    const rows = await this.sql.rows(gameReadSql(gameId, playerId, key));
    const r = rows[0];
    if (!r) return null;
    // A finished game's log may be compacted (compact_logs): its keys are looked up there.
    const earlier =
      r.earlier_seq !== null
        ? { seq: r.earlier_seq, requestHash: r.request_hash, response: fromJsonColumn(r.response) }
        : r.status === 'finished' && playerId !== null && key !== null
          ? await this.log.earlier(gameId, playerId, key)
          : null;
    return {
      status: r.status,
      version: r.version,
      state: await this.log.state(gameId, r.state),
      seat: r.seat,
      seats: r.seats ?? [],
      serverBots: r.server_bots ?? [],
      away: r.away ?? [],
      clock: clockOf(r),
      boardSeed: r.board_seed,
      earlier,
    };
  }

  /** The log entries `seq` and, if it was a deal, `seq + 1`: what a move under an idempotency key wrote. */
  async entriesFrom(gameId: string, seq: number): Promise<{ seq: number; kind: string; seat: number | null; events: unknown }[]> {
    const entries = await this.log.rows(gameId, seq - 1, 2);
    return entries.filter((e) => e.seq === seq || e.kind === 'deal');
  }

  /**
   * The rules' events of deal `deal` up to version `upTo`, oldest first, from its 'dealt' event on
   * (with private cards: redact them per seat before they leave the server, as a bot's input does).
   */
  async dealEvents(gameId: string, deal: number, upTo: number): Promise<GameEvent[]> {
    // On the hot path's pool: a bot reads this before each of its moves.
    const entries = await this.sql.rows(dealEventsSql(gameId, deal, upTo));
    const events = entries.flatMap((e) => fromJsonColumn(e.events) as GameEvent[]);
    const dealt = events.findLastIndex((e) => e.type === 'dealt');
    return dealt < 0 ? [] : events.slice(dealt);
  }

  /**
   * A commit's projection as its one statement (gameCommitSql). Applied (a move's version was
   * still the one read; a start; an import not made before): the id of the transaction that wrote
   * it, which feed readers wait for; null when another write got in first.
   */
  async write(projection: GameProjection): Promise<bigint | null> {
    let rowsOut: RowOf<typeof gameCommitSql>[];
    try {
      rowsOut = await this.sql.rows(gameCommitSql(projection));
    } catch (error) {
      // The same (gameId, seq) or idempotency key written by a concurrent request: a lost race.
      if (isUniqueViolation(error)) return null;
      throw error;
    }
    return rowsOut[0]?.applied === 1 ? BigInt(rowsOut[0].tx) : null;
  }
}

function clockOf(r: RowOf<typeof gameReadSql>): GameClock | null {
  const control = storedTimeControl(fromJsonColumn(r.time_control));
  if (!control) return null;
  return {
    control,
    turnStartedAt: r.turn_started_at,
    deadline: r.turn_deadline,
    bankMs: r.bank_ms ?? [],
    timeouts: r.timeouts ?? [],
    paused: r.turn_paused_at && r.turn_paused_deadline ? { at: r.turn_paused_at, deadline: r.turn_paused_deadline } : null,
  };
}


