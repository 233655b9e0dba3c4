import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  apply,
  currentPlayer,
  dealIndex,
  endGame,
  gameEnd,
  moveToJson,
  phase,
  view,
  type EndReason,
  type GameEvent,
  type GameState,
  type Move,
} from '@mizerka/rules';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { badInput, conflict, DomainError, forbidden, notFound } from '../common/errors.js';
import { ruleErrorToDomain } from '../common/rule-errors.js';
import {
  clockAfter,
  dealEntry,
  dealNext,
  eventViews,
  GameLogBus,
  GameStore,
  projectCommit,
  sameRequest,
  type EarlierRequest,
  type GameMoveCommit,
  type GameProjection,
  type GameRead,
  type LogEntry,
  type StoredGame,
} from '../games/index.js';
import { moveRetries, moveSeconds, movesTotal } from '../metrics/metrics.js';
import { Outbox } from '../outbox/outbox.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import type { Actor } from './actors.js';
import { GameCache } from './game-cache.js';
import { seatlessMove, type MoveInput, type SeatlessMove } from './move-input.js';
import type { MoveResult } from './models/move-result.model.js';

/** What an actor does: a move for its seat, or ending the game (resign, forfeit). */
export type Action = { type: 'move'; move: SeatlessMove } | { type: 'end'; reason: EndReason };

/**
 * Tries of a move without an expected version, each decided on a fresh read, before it is answered
 * CONFLICT: bounded, so that one request's cost is, and far above what a race needs. Resigning
 * while four random server bots move at full speed (resign-race.test.ts, RESIGN_RACE_GAMES=100) took
 * 0 retries 54 times, 1: 34, 2: 6, 3: 3, 4: 3; never more than 4.
 */
export const MAX_DECISIONS = 32;

export interface MoveOptions {
  /** The version the actor decided at; CONFLICT when it is no longer current. */
  expectedVersion?: number | null;
  /** A retry with the same key returns the first result instead of acting again. */
  idempotencyKey?: string | null;
}

/**
 * The move path. Every actor goes through `submit`: decide on the game as last known (the cache,
 * else one read), apply the rules, plan the write (log entries, the next deal, the deadline, the
 * outbox entry), write it in one guarded statement, then tell followers and the outbox's relay.
 * A refusal decided on a cached state may be the cache's fault, so only a refusal on a fresh read
 * is final; refusing writes nothing, so deciding twice is safe.
 */
@Injectable()
export class MovesService {
  constructor(
    private readonly store: GameStore,
    private readonly cache: GameCache,
    private readonly bus: GameLogBus,
    private readonly outbox: Outbox,
    private readonly feed: PlayerEventsService,
  ) {}

  makeMove(player: AuthenticatedPlayer, gameId: string, input: MoveInput & MoveOptions): Promise<MoveResult> {
    const move = seatlessMove(input); // bad input costs no round trip
    return this.submit(gameId, { kind: 'player', playerId: player.id }, { type: 'move', move }, input);
  }

  /** The caller gives up: the game ends at once with their seat last. */
  resign(player: AuthenticatedPlayer, gameId: string, options: MoveOptions): Promise<MoveResult> {
    return this.submit(gameId, { kind: 'player', playerId: player.id }, { type: 'end', reason: 'resigned' }, options);
  }

  /** The server moves for a seat whose time ran out; `expectedVersion` is the turn that timed out. */
  moveFor(gameId: string, seat: number, move: SeatlessMove, expectedVersion: number): Promise<MoveResult> {
    return this.submit(gameId, { kind: 'system', seat, cause: 'timeout' }, { type: 'move', move }, { expectedVersion });
  }

  /** The server ends the game because `seat` forfeited (its clock, or too many time-outs in a row). */
  forfeit(gameId: string, seat: number, expectedVersion: number): Promise<MoveResult> {
    return this.submit(gameId, { kind: 'system', seat, cause: 'forfeit' }, { type: 'end', reason: 'forfeit' }, { expectedVersion });
  }

  /**
   * The game if it is still at `version` (a job's turn), else null: from this process's cache when
   * it holds that version (a version names one state), else read.
   */
  async gameAt(gameId: string, version: number): Promise<StoredGame | null> {
    const cached = this.cache.get(gameId);
    if (cached && cached.version === version) return cached;
    const read = await this.store.read(gameId, null, null);
    return read && read.version === version ? storedOf(read) : null;
  }

  async submit(gameId: string, actor: Actor, action: Action, options: MoveOptions): Promise<MoveResult> {
    const started = performance.now();
    try {
      const result = await this.decideAndWrite(gameId, actor, action, options);
      moveSeconds.observe((performance.now() - started) / 1000);
      movesTotal.inc({ actor: actor.kind, outcome: 'accepted' });
      return result;
    } catch (error) {
      movesTotal.inc({ actor: actor.kind, outcome: error instanceof DomainError ? error.code : 'INTERNAL' });
      throw error;
    }
  }

  private async decideAndWrite(gameId: string, actor: Actor, action: Action, options: MoveOptions): Promise<MoveResult> {
    const key = options.idempotencyKey ?? null;
    const request = key === null ? null : fingerprint(action, options);
    const playerId = actor.kind === 'system' ? null : actor.playerId;
    // A client that named no version asked for its action on the game as it is: a lost race (to a
    // bot, the clock, another instance, a stale cache) is decided again on a fresh read, where the
    // rules may now refuse it, rather than answered CONFLICT. Each try is the one guarded write.
    const tries = options.expectedVersion == null ? MAX_DECISIONS : 1;
    for (let attempt = 1; ; attempt++) {
      const cached = key === null && attempt === 1 ? this.cache.get(gameId) : undefined;
      let game: StoredGame;
      let decided: Decision;
      if (cached && (decided = decide(cached, actor, action, options)).ok) {
        game = cached;
      } else {
        // With a key, this read also finds the answer of a twin request that won a race before.
        const read = await this.store.read(gameId, playerId, key);
        if (!read) throw notFound('Game');
        if (read.earlier) return this.answeredBefore(gameId, read, read.earlier, request);
        game = storedOf(read);
        this.cache.remember(gameId, game);
        decided = decide(game, actor, action, options);
        if (!decided.ok) throw decided.error;
      }

      const { commit, result } = plan(gameId, game, actor, decided, key, request);
      const written: GameProjection = projectCommit(commit);
      const tx = await this.store.write(written);
      if (tx === null) {
        // Another write got in first (here or on another instance), perhaps after a stale cache.
        this.cache.forget(gameId);
        if (attempt >= tries) return this.lostRace(gameId, playerId, key, request);
        moveRetries.inc({ actor: actor.kind });
        continue;
      }
      this.cache.remember(gameId, { status: result.status, version: result.version, state: commit.state, seats: game.seats, serverBots: game.serverBots, away: game.away, clock: commit.clock, boardSeed: game.boardSeed });
      // After the commit: followers read what is now durable.
      this.bus.published(gameId, result.version);
      this.feed.published(written.feed, tx);
      if (written.outbox) this.outbox.committed({ gameId, seq: written.outbox.seq, entries: written.outbox.entries });
      return result;
    }
  }

  /**
   * The version moved under us. A request with an idempotency key may have lost to its own twin:
   * then the twin's result is the answer. Otherwise CONFLICT with the version now current.
   */
  private async lostRace(gameId: string, playerId: string | null, key: string | null, request: string | null): Promise<MoveResult> {
    const read = await this.store.read(gameId, playerId, key);
    if (!read) throw notFound('Game');
    if (read.earlier) return this.answeredBefore(gameId, read, read.earlier, request);
    throw conflict(`Another move was made first; the game is now at version ${read.version}`, { version: read.version });
  }

  /**
   * A retry under an idempotency key: exactly the answer given the first time (the same version,
   * the same view as then), provided it is the same request; a key reused for another request is
   * the client's mistake.
   */
  private async answeredBefore(gameId: string, read: GameRead, earlier: EarlierRequest, request: string | null): Promise<MoveResult> {
    if (!sameRequest(earlier.requestHash, request)) {
      throw badInput('This idempotency key was already used for a different request; use a new key for a new request', {
        field: 'idempotencyKey',
        reason: 'idempotency-key-reused',
      });
    }
    if (earlier.response !== null) return earlier.response as MoveResult;
    // Entries written before answers were kept: rebuild what can be (the view is today's).
    const entries = await this.store.entriesFrom(gameId, earlier.seq);
    const seat = entries.find((e) => e.seq === earlier.seq)?.seat ?? null;
    return {
      gameId,
      version: entries[entries.length - 1]?.seq ?? earlier.seq,
      status: read.status,
      events: entries.flatMap((e) => eventViews(e.seq, e.events, seat)),
      game: view(read.state, seat),
      deadline: read.clock?.deadline ?? null,
    };
  }
}

type Decision =
  | { ok: true; seat: number; move: Move | null; state: GameState; events: GameEvent[] }
  | { ok: false; error: DomainError };

/** Whether the actor may do this on this game, and what it leads to. */
function decide(game: StoredGame, actor: Actor, action: Action, options: MoveOptions): Decision {
  const seat = actor.kind === 'system' ? actor.seat : game.seats.indexOf(actor.playerId);
  if (seat < 0 || seat >= game.seats.length) {
    return { ok: false, error: forbidden('You do not hold a seat in this game') };
  }
  // A stale expected version is CONFLICT whatever changed since, the game's end included: the
  // actor decided on a turn that is gone (a bot beaten by a resignation lost a race, no more).
  if (options.expectedVersion != null && options.expectedVersion !== game.version) {
    return {
      ok: false,
      error: conflict(`The game is at version ${game.version}, not ${options.expectedVersion}`, { version: game.version }),
    };
  }
  if (game.status === 'finished') {
    return { ok: false, error: new DomainError('ILLEGAL_MOVE', 'The game is over', { rule: 'game-over' }) };
  }
  if (action.type === 'end') {
    const ended = endGame(game.state, { seat, reason: action.reason });
    if (!ended.ok) return { ok: false, error: ruleErrorToDomain(ended.error) };
    return { ok: true, seat, move: null, ...ended.value };
  }
  const move = { ...action.move, seat } as Move;
  const applied = apply(game.state, move);
  if (!applied.ok) return { ok: false, error: ruleErrorToDomain(applied.error) };
  return { ok: true, seat, move, ...applied.value };
}

/** The accepted action's commit (its log entry, a deal dealt after it, the clock), and the answer. */
function plan(
  gameId: string,
  game: StoredGame,
  actor: Actor,
  decided: Extract<Decision, { ok: true }>,
  key: string | null,
  request: string | null,
): { commit: GameMoveCommit; result: MoveResult } {
  const { seat, move } = decided;
  const entries: LogEntry[] = [
    {
      seq: game.version + 1,
      kind: move ? move.kind : 'end',
      dealIndex: dealIndex(game.state),
      seat,
      playerId: game.seats[seat],
      actor: actor.kind,
      cause: actor.kind === 'system' ? actor.cause : move ? null : 'resigned',
      move: move ? moveToJson(move) : null,
      events: decided.events,
      idempotencyKey: key,
      requestHash: request,
      response: null,
    },
  ];
  let state = decided.state;
  // A deal just ended and the game goes on: deal the next one in the same write.
  // On a duplicate board, from the board's seed: every table gets the same deck for this deal.
  const next = phase(state) === 'dealing' && !gameEnd(state) ? dealNext(state, game.boardSeed ?? null) : null;
  if (next) {
    state = next.state;
    entries.push(dealEntry(game.version + 2, next));
  }
  const version = entries[entries.length - 1].seq;
  // The system acts for a seat but is not that seat's player: it gets the spectator's view.
  const viewer = actor.kind === 'system' ? null : seat;
  // The next turn begins with this write: its deadline counts from the write's own time.
  const now = new Date();
  const timedOut = actor.kind === 'system';
  const nextSeat = phase(state) === 'over' ? null : currentPlayer(state);
  const clock = game.clock ? clockAfter(game.clock, seat, timedOut, nextSeat, now, nextSeat !== null && (game.away?.[nextSeat] ?? false)) : null;
  const result = {
    gameId,
    version,
    status: phase(state) === 'over' ? 'finished' : 'active',
    events: entries.flatMap((e) => eventViews(e.seq, e.events, viewer)),
    deadline: clock?.deadline ?? null,
  } as MoveResult;
  // The seat view is made when first read: a GraphQL selection without `game`, a bot's or the
  // clock's move never pay for it. The state is this move's own, so it is the same whenever made.
  let seatView: MoveResult['game'] | undefined;
  Object.defineProperty(result, 'game', { enumerable: true, get: () => (seatView ??= view(state, viewer)) });
  // Kept with the entry, so that a retry gets this very answer, not one made later.
  if (key !== null) entries[0].response = result;

  const commit: GameMoveCommit = {
    type: 'move',
    gameId,
    readVersion: game.version,
    entries,
    next,
    state,
    now,
    clock,
    seats: game.seats,
    serverBots: game.serverBots,
    timedOut: timedOut ? { seat, action: actor.cause === 'timeout' ? 'autoMove' : 'forfeit' } : null,
  };
  return { commit, result };
}

/** The game as the move path keeps it, from a read. */
function storedOf(read: GameRead): StoredGame {
  return { status: read.status, version: read.version, state: read.state, seats: read.seats, serverBots: read.serverBots, away: read.away, clock: read.clock, boardSeed: read.boardSeed };
}

/** The SHA-256 of what a request asks for, so that an idempotency key is bound to one request. */
function fingerprint(action: Action, options: MoveOptions): string {
  return createHash('sha256')
    .update(JSON.stringify({ action, expectedVersion: options.expectedVersion ?? null }))
    .digest('hex');
}
