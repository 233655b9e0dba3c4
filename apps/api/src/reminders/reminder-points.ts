import { badInput } from '../common/errors.js';

/** The channels a reminder can ask the notifications to use. */
export const REMINDER_CHANNELS = ['push', 'email'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

/**
 * A moment before a time-out: when `percent` % of the time the turn was given is left, or
 * `secondsBefore` seconds before the deadline. Exactly one of the two.
 */
export type ReminderPoint = { percent: number } | { secondsBefore: number };

export type ReminderPoints = Record<ReminderChannel, ReminderPoint[]>;

/** At most this many points per channel: a turn then has at most twice as many reminder jobs. */
export const MAX_POINTS = 5;
export const PERCENT = { min: 1, max: 99 } as const;
/** A minute to 30 days (a turn lasts at most 14 days plus a bank). */
export const SECONDS_BEFORE = { min: 60, max: 30 * 86400 } as const;

/** What a player without settings gets on each channel: half the time left, a tenth left, and an hour before. */
export const DEFAULT_POINTS: readonly ReminderPoint[] = [{ percent: 50 }, { percent: 10 }, { secondsBefore: 3600 }];

export function defaultReminderPoints(): ReminderPoints {
  return { push: DEFAULT_POINTS.map((p) => ({ ...p })), email: DEFAULT_POINTS.map((p) => ({ ...p })) };
}

/** An input point as the transports give it (both fields optional, each maybe null). */
export interface ReminderPointDraft {
  percent?: number | null;
  secondsBefore?: number | null;
}

/**
 * Checks a channel's points (BAD_INPUT naming the field, e.g. `push.1.percent`) and gives them in
 * one order (percent points by share left, descending, then fixed points by time, descending),
 * duplicates dropped.
 */
export function checkPoints(channel: ReminderChannel, drafts: readonly ReminderPointDraft[] | null | undefined): ReminderPoint[] {
  if (!Array.isArray(drafts)) throw badInput(`${channel} must be a list of reminder points`, { field: channel });
  if (drafts.length > MAX_POINTS) throw badInput(`${channel} holds at most ${MAX_POINTS} reminder points`, { field: channel });
  const points: ReminderPoint[] = drafts.map((draft, i) => {
    const field = `${channel}.${i}`;
    const percent = draft?.percent ?? null;
    const secondsBefore = draft?.secondsBefore ?? null;
    if ((percent === null) === (secondsBefore === null)) {
      throw badInput(`${field} must give exactly one of percent and secondsBefore`, { field });
    }
    if (percent !== null) {
      if (!Number.isInteger(percent) || percent < PERCENT.min || percent > PERCENT.max) {
        throw badInput(`${field}.percent must be a whole number from ${PERCENT.min} to ${PERCENT.max}`, { field: `${field}.percent` });
      }
      return { percent };
    }
    if (!Number.isInteger(secondsBefore) || secondsBefore! < SECONDS_BEFORE.min || secondsBefore! > SECONDS_BEFORE.max) {
      throw badInput(`${field}.secondsBefore must be a whole number of seconds from ${SECONDS_BEFORE.min} to ${SECONDS_BEFORE.max}`, {
        field: `${field}.secondsBefore`,
      });
    }
    return { secondsBefore: secondsBefore! };
  });
  const seen = new Set<string>();
  return points
    .filter((p) => {
      const key = JSON.stringify(p);
      return !seen.has(key) && seen.add(key) !== undefined;
    })
    .sort((a, b) => order(b) - order(a));
}

/** Percent points first (by share), then fixed ones (by seconds): for a stable order only. */
function order(point: ReminderPoint): number {
  return 'percent' in point ? 1e9 + point.percent : point.secondsBefore;
}

/**
 * Points read back from the database: kept only if they still pass today's checks (a stored value
 * is never trusted to be in bounds), else the channel's defaults.
 */
export function storedPoints(channel: ReminderChannel, stored: unknown): ReminderPoint[] {
  try {
    return checkPoints(channel, stored as ReminderPointDraft[]);
  } catch {
    return DEFAULT_POINTS.map((p) => ({ ...p }));
  }
}

/** One reminder of a turn: `before` whole seconds before the deadline, for the channels that chose it. */
export interface ReminderTime {
  runAt: Date;
  before: number;
  channels: ReminderChannel[];
}

/**
 * A turn's reminders from the player's points: each point is a number of whole seconds before the
 * deadline (a share of the time the turn was given, from `started` to `deadline`, or a fixed time);
 * points of both channels that fall on the same second are one reminder naming both. A point at or
 * before the turn's start, or already past at `now`, gives none. Earliest first.
 */
export function reminderTimes(points: ReminderPoints, started: Date, deadline: Date, now: number): ReminderTime[] {
  const turnMs = deadline.getTime() - started.getTime();
  const byBefore = new Map<number, Set<ReminderChannel>>();
  for (const channel of REMINDER_CHANNELS) {
    for (const point of points[channel]) {
      const before = Math.floor('percent' in point ? (turnMs * point.percent) / 100 / 1000 : point.secondsBefore);
      if (before < 1 || before * 1000 >= turnMs) continue;
      if (deadline.getTime() - before * 1000 <= now) continue;
      const channels = byBefore.get(before) ?? new Set<ReminderChannel>();
      channels.add(channel);
      byBefore.set(before, channels);
    }
  }
  return [...byBefore.entries()]
    .sort(([a], [b]) => b - a)
    .map(([before, channels]) => ({
      runAt: new Date(deadline.getTime() - before * 1000),
      before,
      channels: REMINDER_CHANNELS.filter((c) => channels.has(c)),
    }));
}
