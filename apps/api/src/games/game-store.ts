import { Injectable } from '@nestjs/common';
import {
  cardName,
  currentPlayer,
  dealIndex,
  decodeState,
  gameEnd,
  outcome,
  phase,
  placesOf,
  encodeState,
  type GameEvent,
  type GameState,
} from '@mizerka/rules';
import { Prisma } from '../generated/prisma/client.js';
import { insertOutboxSql, type OutboxJob } from '../outbox/outbox-entries.js';
import { isUniqueViolation } from '../prisma/errors.js';
import { HotSql } from '../prisma/hot-sql.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { insertFeedSql } from '../player-events/feed.js';
import { dealFactsOf } from './deal-facts.js';
import type { NewDeal } from './dealing.js';
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
}

/** What an earlier request under the same idempotency key wrote: its entry, and what was answered then. */
export interface EarlierRequest {
  seq: number;
  /** SHA-256 of that request; null for entries written before requests were fingerprinted. */
  requestHash: string | null;
  /** The answer given then; null for entries written before answers were kept. */
  response: unknown;
}

/** A read for one caller: also their seat, and their earlier request under the same idempotency key. */
export interface GameRead extends StoredGame {
  seat: number | null;
  earlier: EarlierRequest | null;
}

export type ActorKind = 'player' | 'system' | 'bot';

/** One entry of the event log. */
export interface LogEntry {
  seq: number;
  /** A move kind, 'deal', or 'end' for a resignation or forfeit. */
  kind: string;
  dealIndex: number;
  seat: number | null;
  /** The seat's player, also when the system or a bot acted for the seat. */
  playerId: string | null;
  actor: ActorKind;
  /** Why, when not an ordinary move: 'resigned', 'timeout', 'forfeit'. */
  cause: string | null;
  /** The move as the record writes it; null for a deal or an end. */
  move: unknown;
  /** The rules' events, with private cards: readers redact them per seat. */
  events: GameEvent[];
  idempotencyKey: string | null;
  /** With a key: the request's SHA-256 and the answer to give to every retry. */
  requestHash: string | null;
  response: unknown;
}

/** Everything one accepted move writes, in one statement. */
export interface GameWrite {
  gameId: string;
  /** The version the move was decided on: the write applies only if it is still current. */
  readVersion: number;
  /** The entries in seq order, the first at readVersion + 1; the last one's seq is the new version. */
  entries: LogEntry[];
  /** A deal dealt by this write (the previous one ended and the game goes on). */
  next: NewDeal | null;
  /** The state after every entry. */
  state: GameState;
  /** The time of the write: the entries' time, and when the next turn began. */
  now: Date;
  /** The move clock after the write (its deadline is the next turn's); null when untimed. */
  clock: GameClock | null;
  /** What the write means for players' feeds (their turn, the game's end, a time-out). */
  feed: NewFeedEvent[];
  /** What follows from the write, for the outbox consumer; null when nothing does. */
  outbox: OutboxJob | null;
}

/**
 * The game's persistence on the move path: one read, and one guarded write. The write is a chain
 * of data-modifying CTEs hanging off `UPDATE games … WHERE version = <read>`: PostgreSQL runs a
 * statement atomically, so the log entries, the trick, the deal result, the next deal, the
 * standings and the outbox entry are written together or not at all, and when another move got in
 * first the UPDATE matches no row and every other part selects from an empty set. The same as
 * BEGIN; UPDATE … WHERE version; INSERT …; COMMIT in one round trip instead of four or more.
 */
@Injectable()
export class GameStore {
  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: HotSql,
  ) {}

  /** One round trip: the game row, its seats, `playerId`'s seat and earlier use of `key`. */
  async read(gameId: string, playerId: string | null, key: string | null): Promise<GameRead | null> {
    const rows = await this.sql.rows<
      {
        status: GameStatusValue;
        version: number;
        state: unknown;
        seat: number | null;
        seats: string[];
        server_bots: boolean[] | null;
        time_control: unknown;
        turn_started_at: Date | null;
        turn_deadline: Date | null;
        bank_ms: number[] | null;
        timeouts: number[] | null;
        earlier_seq: number | null;
        request_hash: string | null;
        response: unknown;
      }>(Prisma.sql`
      SELECT g.status::text AS status, g.version, g.state, s.seat,
             g.time_control, g.turn_started_at, g.turn_deadline, g.bank_ms, g.timeouts,
             t.seats, t.server_bots,
             e.seq AS earlier_seq, e.request_hash, e.response
        FROM games g
        CROSS JOIN LATERAL (
          SELECT array_agg(a.player_id::text ORDER BY a.seat) AS seats, array_agg(p.bot_level IS NOT NULL ORDER BY a.seat) AS server_bots
            FROM game_seats a JOIN players p ON p.id = a.player_id WHERE a.game_id = g.id) t
        LEFT JOIN game_seats s ON s.game_id = g.id AND s.player_id = ${playerId}::uuid
        LEFT JOIN game_events e
          ON e.game_id = g.id AND e.player_id = ${playerId}::uuid AND e.idempotency_key = ${key}::varchar
       WHERE g.id = ${gameId}::uuid`);
    const r = rows[0];
    if (!r) return null;
    return {
      status: r.status,
      version: r.version,
      state: decodeState(json(r.state)),
      seat: r.seat,
      seats: r.seats ?? [],
      serverBots: r.server_bots ?? [],
      clock: clockOf(r),
      earlier: r.earlier_seq === null ? null : { seq: r.earlier_seq, requestHash: r.request_hash, response: json(r.response) },
    };
  }

  /** The log entries `seq` and, if it was a deal, `seq + 1`: what a move under an idempotency key wrote. */
  async entriesFrom(gameId: string, seq: number): Promise<{ seq: number; kind: string; seat: number | null; events: unknown }[]> {
    const entries = await this.prisma.gameEvent.findMany({
      where: { gameId, seq: { in: [seq, seq + 1] } },
      orderBy: { seq: 'asc' },
      select: { seq: true, kind: true, seat: true, events: true },
    });
    return entries.filter((e) => e.seq === seq || e.kind === 'deal');
  }

  /**
   * The rules' events of deal `deal` up to version `upTo`, oldest first, from its 'dealt' event on
   * (with private cards: redact them per seat before they leave the server, as a bot's input does).
   */
  async dealEvents(gameId: string, deal: number, upTo: number): Promise<GameEvent[]> {
    // On the hot path's pool: a bot reads this before each of its moves.
    const entries = await this.sql.rows<{ events: unknown }>(Prisma.sql`
      SELECT events FROM game_events WHERE game_id = ${gameId}::uuid AND deal_index = ${deal}::int AND seq <= ${upTo}::int ORDER BY seq`);
    const events = entries.flatMap((e) => json(e.events) as GameEvent[]);
    const dealt = events.findLastIndex((e) => e.type === 'dealt');
    return dealt < 0 ? [] : events.slice(dealt);
  }

  /**
   * One statement. Applied (the version was still the one read): the id of the transaction that
   * wrote it, which feed readers wait for; null when another write got in first.
   */
  async write(w: GameWrite): Promise<bigint | null> {
    const ctes: Prisma.Sql[] = [];
    const events = w.entries.flatMap((e) => e.events);
    const scored = events.find((e): e is Extract<GameEvent, { type: 'dealScored' }> => e.type === 'dealScored');
    const gameOver = events.find((e): e is Extract<GameEvent, { type: 'gameOver' }> => e.type === 'gameOver');
    const trick = events.find((e): e is Extract<GameEvent, { type: 'trickTaken' }> => e.type === 'trickTaken');
    const end = gameEnd(w.state);
    const moveDeal = w.entries[0].dealIndex;

    const sets: Prisma.Sql[] = [
      Prisma.sql`state = ${encodeState(w.state)}::json`,
      Prisma.sql`version = ${w.entries[w.entries.length - 1].seq}::int`,
      Prisma.sql`phase = ${phase(w.state)}::varchar`,
      Prisma.sql`to_move = ${currentPlayer(w.state)}::smallint`,
      Prisma.sql`deal_index = ${dealIndex(w.state)}::int`,
      Prisma.sql`turn_deadline = ${w.clock?.deadline ?? null}::timestamptz`,
      Prisma.sql`updated_at = now()`,
    ];
    if (w.clock) {
      sets.push(
        Prisma.sql`turn_started_at = ${w.clock.turnStartedAt}::timestamptz`,
        Prisma.sql`bank_ms = ${intArray(w.clock.bankMs)}`,
        Prisma.sql`timeouts = ${intArray(w.clock.timeouts)}`,
      );
    }
    if (scored) sets.push(Prisma.sql`totals = ${intArray(scored.totals)}`);
    if (gameOver) {
      sets.push(Prisma.sql`status = 'finished'::"GameStatus"`, Prisma.sql`finished_at = now()`);
      sets.push(Prisma.sql`winners = ${intArray(gameOver.winners)}`);
    }
    if (end) sets.push(Prisma.sql`end_seat = ${end.seat}::smallint`, Prisma.sql`end_reason = ${end.reason}::varchar`);
    ctes.push(Prisma.sql`g AS (
      UPDATE games SET ${Prisma.join(sets, ', ')}
       WHERE id = ${w.gameId}::uuid AND version = ${w.readVersion}::int
      RETURNING id)`);

    // The last entry is the one that made it the next seat's turn: it carries the deadline.
    const last = w.entries.length - 1;
    const rows = w.entries.map(
      (e, i) => Prisma.sql`(${e.seq}::int, ${e.kind}::varchar, ${e.dealIndex}::int, ${e.seat}::smallint, ${e.playerId}::uuid,
        ${e.actor}::varchar, ${e.cause}::varchar, ${e.move === null ? null : JSON.stringify(e.move)}::jsonb,
        ${JSON.stringify(e.events)}::jsonb, ${e.idempotencyKey}::varchar,
        ${e.requestHash}::char(64), ${e.response === null ? null : JSON.stringify(e.response)}::jsonb,
        ${i === last ? (w.clock?.deadline ?? null) : null}::timestamptz, ${w.now}::timestamptz)`,
    );
    ctes.push(Prisma.sql`e AS (
      INSERT INTO game_events (game_id, seq, kind, deal_index, seat, player_id, actor, cause, move, events, idempotency_key,
                               request_hash, response, deadline, created_at)
      SELECT g.id, v.* FROM g, (VALUES ${Prisma.join(rows, ', ')}) AS v)`);

    if (trick) {
      ctes.push(Prisma.sql`t AS (
        INSERT INTO tricks (game_id, deal_index, index, leader, cards, winner)
        SELECT g.id, ${moveDeal}::int, ${trick.trick}::smallint, ${trick.leader}::smallint,
               ${textArray(trick.cards.map(cardName))}, ${trick.winner}::smallint FROM g)`);
    }
    // The deal's facts as this move fixes them, in the same statement; most moves (a card) fix none.
    let facts = dealFactsOf(w.entries.filter((e) => e.dealIndex === moveDeal).flatMap((e) => e.events));
    if (facts?.scored) {
      // Scored: all of them again, from the result (the same values), for a deal begun before its
      // facts were written as they became known.
      const result = outcome(w.state).deals[moveDeal];
      if ('contract' in result && result.contract !== null) facts.contract = result.contract;
      if ('declarer' in result && result.declarer !== null) facts = { ...facts, declarer: result.declarer, bid: result.bid ?? undefined };
      if ('trump' in result && result.trump !== null) facts.trump = result.trump;
    }
    if (facts) {
      const set: Prisma.Sql[] = [];
      if (facts.contract !== undefined) set.push(Prisma.sql`contract = ${facts.contract}::varchar`);
      if (facts.declarer !== undefined) set.push(Prisma.sql`declarer = ${facts.declarer}::smallint, bid = ${facts.bid}::varchar`);
      if (facts.trump !== undefined) set.push(Prisma.sql`trump = ${facts.trump}::varchar`);
      if (facts.scored) {
        set.push(Prisma.sql`tricks = ${JSON.stringify(facts.scored.tricks)}::jsonb, scores = ${JSON.stringify(facts.scored.scores)}::jsonb,
               finished_at = now()`);
      }
      ctes.push(Prisma.sql`d AS (
        UPDATE deals SET ${Prisma.join(set, ', ')}
          FROM g WHERE deals.game_id = g.id AND deals.index = ${moveDeal}::int)`);
    }
    if (w.next) {
      ctes.push(Prisma.sql`n AS (
        INSERT INTO deals (game_id, index, dealer, seed, seed_hash)
        SELECT g.id, ${w.next.index}::int, ${w.next.dealer}::smallint, ${w.next.seed}::char(32), ${w.next.seedHash}::char(64) FROM g)`);
    }
    if (gameOver) {
      const places = placesOf(gameOver.totals, end?.seat ?? null);
      const standings = gameOver.totals.map(
        (total, seat) => Prisma.sql`(${seat}::smallint, ${total}::int, ${places[seat]}::smallint)`,
      );
      ctes.push(Prisma.sql`s AS (
        UPDATE game_seats SET total = v.total, place = v.place
          FROM g, (VALUES ${Prisma.join(standings, ', ')}) AS v(seat, total, place)
         WHERE game_seats.game_id = g.id AND game_seats.seat = v.seat)`);
    }
    if (w.outbox) ctes.push(Prisma.sql`o AS (${insertOutboxSql(w.outbox, Prisma.sql`g`)})`);
    if (w.feed.length > 0) ctes.push(Prisma.sql`f AS (${insertFeedSql(w.feed, Prisma.sql`g`)})`);

    let rowsOut: { applied: number; tx: string }[];
    try {
      rowsOut = await this.sql.rows<{ applied: number; tx: string }>(
        Prisma.sql`WITH ${Prisma.join(ctes, ', ')} SELECT count(*)::int AS applied, pg_current_xact_id()::text AS tx FROM g`,
      );
    } catch (error) {
      // The same (gameId, seq) or idempotency key written by a concurrent request: a lost race.
      if (isUniqueViolation(error)) return null;
      throw error;
    }
    return rowsOut[0]?.applied === 1 ? BigInt(rowsOut[0].tx) : null;
  }
}

function clockOf(r: {
  time_control: unknown;
  turn_started_at: Date | null;
  turn_deadline: Date | null;
  bank_ms: number[] | null;
  timeouts: number[] | null;
}): GameClock | null {
  const control = storedTimeControl(json(r.time_control));
  if (!control) return null;
  return {
    control,
    turnStartedAt: r.turn_started_at,
    deadline: r.turn_deadline,
    bankMs: r.bank_ms ?? [],
    timeouts: r.timeouts ?? [],
  };
}

/** jsonb as the driver gives it: parsed, or as text. */
function json(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function intArray(values: readonly number[]): Prisma.Sql {
  return values.length === 0 ? Prisma.sql`'{}'::int[]` : Prisma.sql`ARRAY[${Prisma.join(values.map((v) => Prisma.sql`${v}::int`))}]`;
}

function textArray(values: readonly string[]): Prisma.Sql {
  return values.length === 0 ? Prisma.sql`'{}'::text[]` : Prisma.sql`ARRAY[${Prisma.join(values)}]::text[]`;
}
