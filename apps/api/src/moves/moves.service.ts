import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  apply,
  cardName,
  currentPlayer,
  dealIndex,
  deserializeState,
  moveToJson,
  outcome,
  parseCard,
  phase,
  serializeState,
  view,
  type Card,
  type GameEvent,
  type GameState,
  type Move,
} from '../../../../libs/rules/src/index.js';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import type { AppConfig } from '../config/app-config.js';
import { badInput, conflict, DomainError, forbidden, notFound } from '../common/errors.js';
import { ruleErrorToDomain } from '../common/rule-errors.js';
import { dealFresh, type NewDeal } from '../games/dealing.js';
import { GameLogBus } from '../games/game-log-bus.js';
import { eventViews } from '../games/event-views.js';
import type { GameStatusValue } from '../games/models/enums.js';
import type { GameEventView } from '../games/models/event-view.model.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { placesOf } from '../scoring/standings.js';
import type { MoveBody } from './dto/make-move.input.js';
import type { MoveResult } from './models/move-result.model.js';

export type MoveInput = Omit<MoveBody, 'expectedVersion' | 'idempotencyKey'> & {
  expectedVersion?: number | null;
  idempotencyKey?: string | null;
};

/** A move without its seat: what the caller asked for, before we know where they sit. */
type SeatlessMove = Move extends infer M ? (M extends Move ? Omit<M, 'seat'> : never) : never;

interface GameRow {
  status: GameStatusValue;
  version: number;
  state: unknown;
  seat: number | null;
  replaySeq: number | null;
  /** Player ids by seat. */
  seats: string[];
}

/** The latest state of a game as this process last read or wrote it. */
interface CachedGame {
  status: GameStatusValue;
  version: number;
  state: GameState;
  seats: string[];
}

const GAME_CACHE_LIMIT = 20_000;

const FIELDS = ['contract', 'discards', 'bid', 'cards', 'suit', 'card'] as const;
const FIELD_OF: Record<Move['kind'], (typeof FIELDS)[number]> = {
  contract: 'contract',
  exchange: 'discards',
  bid: 'bid',
  discard: 'cards',
  trump: 'suit',
  play: 'card',
};

/**
 * Accepting a move. The hot path is two round trips: one statement reads the game row with the
 * caller's seat (and a prior use of the idempotency key); the rules run in memory; one statement
 * writes everything. That statement is a chain of data-modifying CTEs, all hanging off
 * `UPDATE games … WHERE version = <read>`: PostgreSQL runs a statement atomically (it is its own
 * transaction), so the event, the trick, the deal result, the next deal and the standings are
 * written together or not at all, and when another move got in first the UPDATE matches no row
 * and every insert selects from an empty set. The same as BEGIN; UPDATE … WHERE version; INSERT …;
 * COMMIT, in one round trip instead of four or more.
 */
@Injectable()
export class MovesService {
  /**
   * Games this process wrote last: a move on one of them needs no read. The write's version
   * condition still guards it, so a stale entry costs a CONFLICT, never a lost or doubled move.
   * Moves with an idempotency key always read, to find an earlier use of the key.
   */
  private readonly cache: Map<string, CachedGame> | null;

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: GameLogBus,
    config: ConfigService<AppConfig, true>,
  ) {
    this.cache = config.get('gameCache', { infer: true }) ? new Map() : null;
  }

  async makeMove(player: AuthenticatedPlayer, gameId: string, input: MoveInput): Promise<MoveResult> {
    const asked = seatlessMove(input); // bad input costs no round trip
    const key = input.idempotencyKey ?? null;
    const cached = key === null ? this.cache?.get(gameId) : undefined;
    let game: CachedGame;
    let decided: Decision;
    // A refusal decided on a cached state may be the cache's fault (another instance moved the
    // game on): only a refusal on a fresh read is final. Refusing writes nothing, so asking twice is safe.
    if (cached && (decided = decide(cached, player, asked, input)).ok) {
      game = cached;
    } else {
      const row = await this.read(gameId, player.id, key);
      if (!row) throw notFound('Game');
      if (row.replaySeq !== null) return this.replayed(gameId, row, row.replaySeq);
      game = { status: row.status, version: row.version, state: deserializeState(row.state), seats: row.seats };
      this.remember(gameId, game);
      decided = decide(game, player, asked, input);
      if (!decided.ok) throw decided.error;
    }
    const { seat, applied } = decided;
    const before = game.state;
    const move = applied.move;

    let state = applied.state;
    const plan: WritePlan = {
      gameId,
      playerId: player.id,
      key,
      readVersion: game.version,
      seq: game.version + 1,
      seat,
      dealIndex: dealIndex(before),
      move,
      events: applied.events,
      next: null,
      after: state,
    };
    // A deal just ended and the game goes on: deal the next one in the same write.
    if (phase(state) === 'dealing') {
      plan.next = dealFresh(state);
      state = plan.next.state;
      plan.after = state;
    }
    const version = plan.seq + (plan.next ? 1 : 0);

    let written: boolean;
    try {
      written = await this.write(plan);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      written = false; // the same (gameId, seq) or idempotency key written by a concurrent request
    }
    if (!written) {
      this.cache?.delete(gameId);
      return this.lostRace(gameId, player.id, key);
    }
    const status: GameStatusValue = phase(state) === 'over' ? 'finished' : 'active';
    this.remember(gameId, { status, version, state, seats: game.seats });
    this.bus.published(gameId, version); // after the commit: followers read what is now durable

    const events = eventViews(plan.seq, plan.events, seat);
    if (plan.next) events.push(...eventViews(plan.seq + 1, plan.next.events, seat));
    return {
      gameId,
      version,
      status,
      events,
      game: view(state, seat),
    };
  }

  private remember(gameId: string, game: CachedGame): void {
    if (!this.cache) return;
    this.cache.delete(gameId); // re-inserted last: the Map's order is the eviction order
    if (this.cache.size >= GAME_CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(gameId, game);
  }

  /** One round trip: the game row, its seats, the caller's seat, and the seq of a prior move under the same key. */
  private async read(gameId: string, playerId: string, key: string | null): Promise<GameRow | null> {
    const rows = await this.prisma.$queryRaw<
      {
        status: GameStatusValue;
        version: number;
        state: unknown;
        seat: number | null;
        replay_seq: number | null;
        seats: string[];
      }[]
    >`
      SELECT g.status::text AS status, g.version, g.state, s.seat,
             (SELECT e.seq FROM game_events e
               WHERE e.game_id = g.id AND e.player_id = ${playerId}::uuid AND e.idempotency_key = ${key}::varchar) AS replay_seq,
             (SELECT array_agg(a.player_id::text ORDER BY a.seat) FROM game_seats a WHERE a.game_id = g.id) AS seats
        FROM games g
        LEFT JOIN game_seats s ON s.game_id = g.id AND s.player_id = ${playerId}::uuid
       WHERE g.id = ${gameId}::uuid`;
    const r = rows[0];
    if (!r) return null;
    return {
      status: r.status,
      version: r.version,
      state: typeof r.state === 'string' ? JSON.parse(r.state) : r.state,
      seat: r.seat,
      replaySeq: r.replay_seq,
      seats: r.seats ?? [],
    };
  }

  /** One statement; true when it was applied (the version was still the one read). */
  private async write(p: WritePlan): Promise<boolean> {
    const ctes: Prisma.Sql[] = [];
    const over = phase(p.after) === 'over';
    const scored = p.events.find((e): e is Extract<GameEvent, { type: 'dealScored' }> => e.type === 'dealScored');
    const gameOver = p.events.find((e): e is Extract<GameEvent, { type: 'gameOver' }> => e.type === 'gameOver');
    const trick = p.events.find((e): e is Extract<GameEvent, { type: 'trickTaken' }> => e.type === 'trickTaken');

    const version = p.seq + (p.next ? 1 : 0);
    const sets: Prisma.Sql[] = [
      Prisma.sql`state = ${JSON.stringify(serializeState(p.after))}::jsonb`,
      Prisma.sql`version = ${version}::int`,
      Prisma.sql`phase = ${phase(p.after)}::varchar`,
      Prisma.sql`to_move = ${currentPlayer(p.after)}::smallint`,
      Prisma.sql`deal_index = ${dealIndex(p.after)}::int`,
      Prisma.sql`updated_at = now()`,
    ];
    if (scored) sets.push(Prisma.sql`totals = ${intArray(scored.totals)}`);
    if (over && gameOver) {
      sets.push(Prisma.sql`status = 'finished'::"GameStatus"`, Prisma.sql`finished_at = now()`);
      sets.push(Prisma.sql`winners = ${intArray(gameOver.winners)}`);
    }
    ctes.push(Prisma.sql`g AS (
      UPDATE games SET ${Prisma.join(sets, ', ')}
       WHERE id = ${p.gameId}::uuid AND version = ${p.readVersion}::int
      RETURNING id)`);

    const entries: Prisma.Sql[] = [
      Prisma.sql`(${p.seq}::int, ${p.move.kind}::varchar, ${p.dealIndex}::int, ${p.seat}::smallint, ${p.playerId}::uuid,
                  ${JSON.stringify(moveToJson(p.move))}::jsonb, ${JSON.stringify(p.events)}::jsonb, ${p.key}::varchar)`,
    ];
    if (p.next) {
      entries.push(
        Prisma.sql`(${p.seq + 1}::int, 'deal'::varchar, ${p.next.index}::int, NULL::smallint, NULL::uuid,
                    NULL::jsonb, ${JSON.stringify(p.next.events)}::jsonb, NULL::varchar)`,
      );
    }
    ctes.push(Prisma.sql`e AS (
      INSERT INTO game_events (game_id, seq, kind, deal_index, seat, player_id, move, events, idempotency_key)
      SELECT g.id, v.* FROM g, (VALUES ${Prisma.join(entries, ', ')}) AS v)`);

    if (trick) {
      ctes.push(Prisma.sql`t AS (
        INSERT INTO tricks (game_id, deal_index, index, leader, cards, winner)
        SELECT g.id, ${p.dealIndex}::int, ${trick.trick}::smallint, ${trick.leader}::smallint,
               ${textArray(trick.cards.map(cardName))}, ${trick.winner}::smallint FROM g)`);
    }
    if (scored) {
      const result = outcome(p.after).deals[p.dealIndex];
      const contract = 'contract' in result ? result.contract : null;
      const bidding = 'declarer' in result ? result : null;
      ctes.push(Prisma.sql`d AS (
        UPDATE deals SET contract = ${contract}::varchar, declarer = ${bidding?.declarer ?? null}::smallint,
               bid = ${bidding?.bid ?? null}::varchar, trump = ${bidding?.trump ?? null}::varchar,
               tricks = ${JSON.stringify(scored.tricks)}::jsonb, scores = ${JSON.stringify(scored.scores)}::jsonb,
               finished_at = now()
          FROM g WHERE deals.game_id = g.id AND deals.index = ${p.dealIndex}::int)`);
    }
    if (p.next) {
      ctes.push(Prisma.sql`n AS (
        INSERT INTO deals (game_id, index, dealer, seed, seed_hash)
        SELECT g.id, ${p.next.index}::int, ${p.next.dealer}::smallint, ${p.next.seed}::char(32), ${p.next.seedHash}::char(64) FROM g)`);
    }
    if (gameOver) {
      const places = placesOf(gameOver.totals);
      const standings = gameOver.totals.map(
        (total, seat) => Prisma.sql`(${seat}::smallint, ${total}::int, ${places[seat]}::smallint)`,
      );
      ctes.push(Prisma.sql`s AS (
        UPDATE game_seats SET total = v.total, place = v.place
          FROM g, (VALUES ${Prisma.join(standings, ', ')}) AS v(seat, total, place)
         WHERE game_seats.game_id = g.id AND game_seats.seat = v.seat)`);
    }
    const rows = await this.prisma.$queryRaw<{ applied: number }[]>`
      WITH ${Prisma.join(ctes, ', ')} SELECT count(*)::int AS applied FROM g`;
    return rows[0]?.applied === 1;
  }

  /**
   * The version moved under us. A request with an idempotency key may have lost to its own twin:
   * then the twin's result is the answer. Otherwise CONFLICT with the version now current.
   */
  private async lostRace(gameId: string, playerId: string, key: string | null): Promise<MoveResult> {
    const row = await this.read(gameId, playerId, key);
    if (!row) throw notFound('Game');
    if (row.replaySeq !== null) return this.replayed(gameId, row, row.replaySeq);
    throw conflict(`Another move was made first; the game is now at version ${row.version}`, { version: row.version });
  }

  /** The first result of a move made under the same idempotency key: its entry and a deal it dealt. */
  private async replayed(gameId: string, row: GameRow, seq: number): Promise<MoveResult> {
    const entries = await this.prisma.gameEvent.findMany({
      where: { gameId, seq: { in: [seq, seq + 1] } },
      orderBy: { seq: 'asc' },
      select: { seq: true, kind: true, seat: true, events: true },
    });
    const mine = entries.filter((e) => e.seq === seq || e.kind === 'deal');
    const seat = entries.find((e) => e.seq === seq)?.seat ?? null;
    const events: GameEventView[] = mine.flatMap((e) => eventViews(e.seq, e.events, seat));
    const state: GameState = deserializeState(row.state);
    return {
      gameId,
      version: mine[mine.length - 1]?.seq ?? seq,
      status: row.status,
      events,
      game: view(state, seat),
    };
  }
}

type Decision =
  | { ok: true; seat: number; applied: { move: Move; state: GameState; events: GameEvent[] } }
  | { ok: false; error: DomainError };

/** Whether the caller may make this move on this state, and what it leads to. */
function decide(game: CachedGame, player: AuthenticatedPlayer, asked: SeatlessMove, input: MoveInput): Decision {
  const seat = game.seats.indexOf(player.id);
  if (seat < 0) return { ok: false, error: forbidden('You do not hold a seat in this game') };
  if (game.status === 'finished') {
    return { ok: false, error: new DomainError('ILLEGAL_MOVE', 'The game is over', { rule: 'game-over' }) };
  }
  if (input.expectedVersion != null && input.expectedVersion !== game.version) {
    return {
      ok: false,
      error: conflict(`The game is at version ${game.version}, not ${input.expectedVersion}`, { version: game.version }),
    };
  }
  const move = { ...asked, seat } as Move;
  const applied = apply(game.state, move);
  if (!applied.ok) return { ok: false, error: ruleErrorToDomain(applied.error) };
  return { ok: true, seat, applied: { move, state: applied.value.state, events: applied.value.events } };
}

interface WritePlan {
  gameId: string;
  playerId: string;
  key: string | null;
  readVersion: number;
  /** Of the move's log entry; a deal dealt with it is seq + 1. */
  seq: number;
  seat: number;
  /** The deal the move was made in. */
  dealIndex: number;
  move: Move;
  events: GameEvent[];
  next: NewDeal | null;
  after: GameState;
}

/** The move the input describes, checked for shape and card names. */
export function seatlessMove(input: MoveInput): SeatlessMove {
  const field = FIELD_OF[input.kind];
  if (!field) throw badInput(`Unknown move kind "${String(input.kind)}"`);
  for (const other of FIELDS) {
    if (other !== field && input[other] !== undefined && input[other] !== null) {
      throw badInput(`A ${input.kind} move takes "${field}", not "${other}"`, { field: other });
    }
  }
  const value = input[field];
  if (value === undefined || value === null) throw badInput(`A ${input.kind} move needs "${field}"`, { field });
  switch (input.kind) {
    case 'contract':
      return { kind: 'contract', contract: input.contract! };
    case 'bid':
      return { kind: 'bid', bid: input.bid! };
    case 'trump':
      return { kind: 'trump', suit: input.suit! };
    case 'play':
      return { kind: 'play', card: card(input.card!) };
    case 'exchange':
      return { kind: 'exchange', discards: input.discards!.map(card) };
    case 'discard':
      return { kind: 'discard', cards: input.cards!.map(card) };
  }
}

function card(text: string): Card {
  const parsed = typeof text === 'string' ? parseCard(text) : null;
  if (parsed === null) throw badInput(`"${String(text).slice(0, 8)}" is not a card; write rank then suit, e.g. "AS", "TD", "7C"`);
  return parsed;
}

function intArray(values: readonly number[]): Prisma.Sql {
  return values.length === 0 ? Prisma.sql`'{}'::int[]` : Prisma.sql`ARRAY[${Prisma.join(values.map((v) => Prisma.sql`${v}::int`))}]`;
}

function textArray(values: readonly string[]): Prisma.Sql {
  return values.length === 0 ? Prisma.sql`'{}'::text[]` : Prisma.sql`ARRAY[${Prisma.join(values)}]::text[]`;
}

function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === 'P2002') return true;
  const meta = error.meta as { code?: string; driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } | undefined;
  return (
    meta?.code === '23505' ||
    meta?.driverAdapterError?.cause?.originalCode === '23505' ||
    meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation'
  );
}
