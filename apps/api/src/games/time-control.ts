import { badInput } from '../common/errors.js';

/** What happens when a seat's time runs out. */
export type TimeoutPolicy = 'autoMove' | 'forfeit';

/**
 * A game's move clock, chosen in its lobby. Each turn has `moveSeconds`; a seat's bank (Board
 * Game Arena style) is extra time that a slow move draws on and that is never refilled. At a
 * time-out the server either moves for the seat (`autoMove`) or the seat forfeits; `maxTimeouts`
 * time-outs in a row by one seat forfeit the game under either policy.
 */
export interface TimeControl {
  moveSeconds: number;
  bankSeconds: number;
  onTimeout: TimeoutPolicy;
  maxTimeouts: number;
}

export const MAX_MOVE_SECONDS = 14 * 24 * 3600;
// In ms it must fit the int4 of games.bank_ms.
export const MAX_BANK_SECONDS = 14 * 24 * 3600;
export const MAX_TIMEOUTS_LIMIT = 10;
export const DEFAULT_MAX_TIMEOUTS = 3;

/** The clock of a game as stored beside its state. */
export interface GameClock {
  control: TimeControl;
  /** When the current turn began; null when nobody is to move. */
  turnStartedAt: Date | null;
  deadline: Date | null;
  /** Bank left per seat, in ms. */
  bankMs: number[];
  /** Time-outs in a row per seat. */
  timeouts: number[];
  /**
   * Set while the turn's clock is stopped because its player is away (vacations/): since when, and
   * the deadline it had then; `deadline` is null meanwhile. Absent or null: the clock runs.
   */
  paused?: { at: Date; deadline: Date } | null;
}

/** A lobby's request, checked: the shortest time per move is a setting (tests use seconds). */
export function checkTimeControl(
  input: { moveSeconds: number; bankSeconds?: number | null; onTimeout?: TimeoutPolicy | null; maxTimeouts?: number | null },
  minMoveSeconds: number,
): TimeControl {
  const whole = (value: number, min: number, max: number, field: string, what: string) => {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw badInput(`${what} must be a whole number from ${min} to ${max}`, { field });
    }
    return value;
  };
  return {
    moveSeconds: whole(input.moveSeconds, minMoveSeconds, MAX_MOVE_SECONDS, 'timeControl.moveSeconds', 'The time per move in seconds'),
    bankSeconds: whole(input.bankSeconds ?? 0, 0, MAX_BANK_SECONDS, 'timeControl.bankSeconds', 'The time bank in seconds'),
    onTimeout: input.onTimeout ?? 'autoMove',
    maxTimeouts: whole(input.maxTimeouts ?? DEFAULT_MAX_TIMEOUTS, 1, MAX_TIMEOUTS_LIMIT, 'timeControl.maxTimeouts', 'The time-outs in a row that forfeit'),
  };
}

/** A stored time control (written by checkTimeControl), or null for an untimed game. */
export function storedTimeControl(json: unknown): TimeControl | null {
  if (json === null || json === undefined || typeof json !== 'object') return null;
  const t = json as Partial<TimeControl>;
  if (typeof t.moveSeconds !== 'number') return null;
  return {
    moveSeconds: t.moveSeconds,
    bankSeconds: t.bankSeconds ?? 0,
    onTimeout: t.onTimeout === 'forfeit' ? 'forfeit' : 'autoMove',
    maxTimeouts: t.maxTimeouts ?? DEFAULT_MAX_TIMEOUTS,
  };
}

/** The clock at a game's start: full banks, the first seat's turn beginning `now`. */
export function startClock(control: TimeControl, seats: number, toMove: number | null, now: Date): GameClock {
  const bankMs = Array.from({ length: seats }, () => control.bankSeconds * 1000);
  return {
    control,
    turnStartedAt: toMove === null ? null : now,
    deadline: toMove === null ? null : deadlineOf(control, bankMs[toMove], now),
    bankMs,
    timeouts: Array.from({ length: seats }, () => 0),
  };
}

/**
 * The clock after `seat` acted at `now`: the time it took beyond the turn's own time comes out of
 * its bank; a move of its own clears its time-outs in a row, a time-out move adds one. The next
 * turn (of `next`, null when nobody is to move) begins at `now`, the time of the write.
 */
export function clockAfter(clock: GameClock, seat: number, timedOut: boolean, next: number | null, now: Date, nextAway = false): GameClock {
  const bankMs = [...clock.bankMs];
  const timeouts = [...clock.timeouts];
  // A turn whose clock stopped (its player away) is charged only the time it ran.
  const ran = clock.paused ? resumedClock(clock, now) : clock;
  if (ran.turnStartedAt !== null) {
    const over = now.getTime() - ran.turnStartedAt.getTime() - clock.control.moveSeconds * 1000;
    if (over > 0) bankMs[seat] = Math.max(0, bankMs[seat] - over);
  }
  if (timedOut) {
    bankMs[seat] = 0;
    timeouts[seat] += 1;
  } else {
    timeouts[seat] = 0;
  }
  const after: GameClock = {
    control: clock.control,
    turnStartedAt: next === null ? null : now,
    deadline: next === null ? null : deadlineOf(clock.control, bankMs[next], now),
    bankMs,
    timeouts,
    paused: null,
  };
  // The next seat's player is away: its turn begins with its clock stopped, its full time kept.
  return nextAway ? pausedClock(after, now) : after;
}

/** The turn's clock stopped at `now` (its player went away): no running deadline until resumed. */
export function pausedClock(clock: GameClock, now: Date): GameClock {
  if (clock.paused || clock.deadline === null) return clock;
  return { ...clock, deadline: null, paused: { at: now, deadline: clock.deadline } };
}

/**
 * The turn's clock running again at `now` (its player is back): the deadline it had when stopped
 * plus the time it stood still, and the turn's start moved on as much, so a later move draws on
 * its bank only for the time the clock ran. A turn begun while away gets its full time from `now`.
 */
export function resumedClock(clock: GameClock, now: Date): GameClock {
  if (!clock.paused) return clock;
  const stood = Math.max(0, now.getTime() - clock.paused.at.getTime());
  return {
    ...clock,
    turnStartedAt: clock.turnStartedAt && new Date(clock.turnStartedAt.getTime() + stood),
    deadline: new Date(clock.paused.deadline.getTime() + stood),
    paused: null,
  };
}

function deadlineOf(control: TimeControl, bankMs: number, start: Date): Date {
  return new Date(start.getTime() + control.moveSeconds * 1000 + bankMs);
}
