import type { GameEvent } from './events.js';
import { internal } from './game.js';
import { fail, ok, ruleError, type Result, type RuleError, type Seat } from './result.js';
import { cloneState, END_REASONS, PH_DEALING, PH_OVER, type EndReason, type GameEnd, type GameState } from './state.js';

/**
 * Games that end early (docs/rules.md): a seat resigns or forfeits; the game is over at once, the deal
 * in progress is abandoned (reported with scores null, nothing added to the totals) and that seat
 * is placed last, alone.
 */

/**
 * Places by total, highest first; equal totals share a place and the next place is skipped (1, 1, 3).
 * A `last` seat (resigned or forfeited) is placed last alone, the others above it by their totals.
 * A `last` that is not a seat of `totals` is a programming error (RangeError).
 */
export function placesOf(totals: readonly number[], last?: Seat | null): number[] {
  const n = totals.length;
  if (last === undefined || last === null) {
    const places: number[] = [];
    for (let i = 0; i < n; i++) {
      let above = 0;
      for (let j = 0; j < n; j++) if (totals[j] > totals[i]) above++;
      places.push(1 + above);
    }
    return places;
  }
  if (!Number.isInteger(last) || last < 0 || last >= n) throw new RangeError(`last must be a seat 0..${n - 1}, not ${last}`);
  const places: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i === last) {
      places.push(n);
      continue;
    }
    let above = 0;
    for (let j = 0; j < n; j++) if (j !== last && totals[j] > totals[i]) above++;
    places.push(1 + above);
  }
  return places;
}

/** Checks an end against the state: the game must be active, the seat one of its seats, the reason one of the two. */
export function endError(state: GameState, end: unknown): RuleError | null {
  const s = internal(state);
  if (s.phase === PH_OVER) return ruleError('GAME_OVER', 'game-over', 'the game is over');
  if (typeof end !== 'object' || end === null || Array.isArray(end)) {
    return ruleError('BAD_MOVE', 'bad-end', 'an end must be an object { seat, reason }');
  }
  const { seat, reason } = end as { seat?: unknown; reason?: unknown };
  if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= s.n) {
    return ruleError('BAD_MOVE', 'no-such-seat', `${JSON.stringify(seat)} is not a seat of this game (0..${s.n - 1})`);
  }
  if (!END_REASONS.includes(reason as EndReason)) {
    return ruleError('BAD_MOVE', 'bad-end-reason', `the reason must be "resigned" or "forfeit", not ${JSON.stringify(reason)}`);
  }
  return null;
}

/**
 * In place: end an active game because `end.seat` resigned or forfeited. Any phase of an active
 * game, any seat. On an error the state is unchanged. Events pushed onto `ev` when given.
 */
export function endGameInPlace(state: GameState, end: GameEnd, ev: GameEvent[] | null = null): RuleError | null {
  const error = endError(state, end);
  if (error) return error;
  const s = internal(state);
  const seat = end.seat;
  if (s.phase !== PH_DEALING) s.abandoned = [s.fam.dealOutcome(s, null)];
  s.phase = PH_OVER;
  s.toMove = -1;
  s.endSeat = seat;
  s.endReason = END_REASONS.indexOf(end.reason);
  const totals = Array.from(s.totals);
  const places = placesOf(totals, seat);
  const winners: Seat[] = [];
  for (let i = 0; i < places.length; i++) if (places[i] === 1) winners.push(i);
  s.winners = winners;
  if (ev) {
    ev.push({ type: 'gameEnded', seat, reason: end.reason });
    ev.push({ type: 'gameOver', totals, winners: [...winners] });
  }
  return null;
}

/** Ends an active game at once because `end.seat` resigned or forfeited (docs/rules.md). The given state is not changed. */
export function endGame(state: GameState, end: GameEnd): Result<{ state: GameState; events: GameEvent[] }, RuleError> {
  const next = cloneState(internal(state));
  const events: GameEvent[] = [];
  const error = endGameInPlace(next, end, events);
  return error ? fail(error) : ok({ state: next, events });
}

/** How the game ended early, or null (not over, or over normally). */
export function gameEnd(state: GameState): GameEnd | null {
  const s = internal(state);
  return s.endSeat >= 0 ? { seat: s.endSeat, reason: END_REASONS[s.endReason] } : null;
}
