import { Injectable } from '@nestjs/common';
import {
  apply,
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
import { conflict, DomainError, forbidden, notFound } from '../common/errors.js';
import { ruleErrorToDomain } from '../common/rule-errors.js';
import {
  dealFresh,
  eventViews,
  followUpsOf,
  GameLogBus,
  GameStore,
  type GameEventView,
  type GameRead,
  type GameWrite,
  type LogEntry,
  type StoredGame,
} from '../games/index.js';
import { Outbox } from '../outbox/outbox.js';
import type { Actor } from './actors.js';
import { GameCache } from './game-cache.js';
import { seatlessMove, type MoveInput, type SeatlessMove } from './move-input.js';
import type { MoveResult } from './models/move-result.model.js';

/** What an actor does: a move for its seat, or ending the game (resign, forfeit). */
export type Action = { type: 'move'; move: SeatlessMove } | { type: 'end'; reason: EndReason };

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

  async submit(gameId: string, actor: Actor, action: Action, options: MoveOptions): Promise<MoveResult> {
    const key = options.idempotencyKey ?? null;
    const playerId = actor.kind === 'system' ? null : actor.playerId;
    const cached = key === null ? this.cache.get(gameId) : undefined;
    let game: StoredGame;
    let decided: Decision;
    if (cached && (decided = decide(cached, actor, action, options)).ok) {
      game = cached;
    } else {
      const read = await this.store.read(gameId, playerId, key);
      if (!read) throw notFound('Game');
      if (read.replaySeq !== null) return this.replayed(gameId, read, read.replaySeq);
      game = { status: read.status, version: read.version, state: read.state, seats: read.seats };
      this.cache.remember(gameId, game);
      decided = decide(game, actor, action, options);
      if (!decided.ok) throw decided.error;
    }

    const write = plan(gameId, game, actor, decided, key);
    if (!(await this.store.write(write))) {
      this.cache.forget(gameId);
      return this.lostRace(gameId, playerId, key);
    }
    const version = write.entries[write.entries.length - 1].seq;
    const status = phase(write.state) === 'over' ? 'finished' : 'active';
    this.cache.remember(gameId, { status, version, state: write.state, seats: game.seats });
    this.bus.published(gameId, version); // after the commit: followers read what is now durable
    if (write.outbox) this.outbox.kick();

    // The system acts for a seat but is not that seat's player: it gets the spectator's view.
    const viewer = actor.kind === 'system' ? null : decided.seat;
    return {
      gameId,
      version,
      status,
      events: write.entries.flatMap((e) => eventViews(e.seq, e.events, viewer)),
      game: view(write.state, viewer),
    };
  }

  /**
   * The version moved under us. A request with an idempotency key may have lost to its own twin:
   * then the twin's result is the answer. Otherwise CONFLICT with the version now current.
   */
  private async lostRace(gameId: string, playerId: string | null, key: string | null): Promise<MoveResult> {
    const read = await this.store.read(gameId, playerId, key);
    if (!read) throw notFound('Game');
    if (read.replaySeq !== null) return this.replayed(gameId, read, read.replaySeq);
    throw conflict(`Another move was made first; the game is now at version ${read.version}`, { version: read.version });
  }

  /** The first result of a move made under the same idempotency key: its entry and a deal it dealt. */
  private async replayed(gameId: string, read: GameRead, seq: number): Promise<MoveResult> {
    const entries = await this.store.entriesFrom(gameId, seq);
    const seat = entries.find((e) => e.seq === seq)?.seat ?? null;
    const events: GameEventView[] = entries.flatMap((e) => eventViews(e.seq, e.events, seat));
    return {
      gameId,
      version: entries[entries.length - 1]?.seq ?? seq,
      status: read.status,
      events,
      game: view(read.state, seat),
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
  if (game.status === 'finished') {
    return { ok: false, error: new DomainError('ILLEGAL_MOVE', 'The game is over', { rule: 'game-over' }) };
  }
  if (options.expectedVersion != null && options.expectedVersion !== game.version) {
    return {
      ok: false,
      error: conflict(`The game is at version ${game.version}, not ${options.expectedVersion}`, { version: game.version }),
    };
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

/** Everything the accepted action writes: its log entry, a deal dealt after it, the deadline and what follows. */
function plan(gameId: string, game: StoredGame, actor: Actor, decided: Extract<Decision, { ok: true }>, key: string | null): GameWrite {
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
    },
  ];
  let state = decided.state;
  // A deal just ended and the game goes on: deal the next one in the same write.
  const next = phase(state) === 'dealing' && !gameEnd(state) ? dealFresh(state) : null;
  if (next) {
    state = next.state;
    entries.push({
      seq: game.version + 2,
      kind: 'deal',
      dealIndex: next.index,
      seat: null,
      playerId: null,
      actor: 'system',
      cause: null,
      move: null,
      events: next.events,
      idempotencyKey: null,
    });
  }
  // Untimed until move clocks exist: their policy sets the deadline here, in the same write.
  const deadline: Date | null = null;
  const followUps = followUpsOf(game.seats, entries.flatMap((e) => e.events), state, deadline);
  const lastSeq = entries[entries.length - 1].seq;
  return {
    gameId,
    readVersion: game.version,
    entries,
    next,
    state,
    deadline,
    outbox: followUps.length > 0 ? { gameId, seq: lastSeq, entries: followUps } : null,
  };
}
