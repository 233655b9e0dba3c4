import { badInput } from '../common/errors.js';
import type { NoticeChannel, NoticeKind } from './notice.js';

// A player's notification preferences as the routing weighs them: what each channel sends, how
// email goes out, quiet hours in their own time zone, and "not while active". Pure: no database.

export const NOTICE_KINDS: readonly NoticeKind[] = ['yourTurn', 'turnReminder', 'deadlineNear', 'timedOut', 'gameFinished', 'invited'];
export const EMAIL_MODES = ['immediate', 'digest', 'never'] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];
export type ChannelName = NoticeChannel['name'];

export interface Preferences {
  pushKinds: NoticeKind[];
  emailKinds: NoticeKind[];
  emailMode: EmailMode;
  digestMinutes: number;
  /** Minutes of the local day; both null: no quiet hours. */
  quietStart: number | null;
  quietEnd: number | null;
  timeZone: string;
  activeMinutes: number;
}

/**
 * What a player who never chose gets: every kind on push (they subscribed a device on purpose),
 * email for their turns, reminders, time-outs and finished games, sent at once. Email goes only to
 * a verified address, so nothing is mailed before the player verifies one.
 */
export const DEFAULT_KINDS: Record<ChannelName, readonly NoticeKind[]> = {
  push: NOTICE_KINDS,
  email: ['yourTurn', 'turnReminder', 'deadlineNear', 'timedOut', 'gameFinished', 'invited'],
};

/** A stored row's columns (null: the default). */
export interface StoredPreferences {
  push_kinds: string[] | null;
  email_kinds: string[] | null;
  kinds_set: boolean;
  email_mode: string | null;
  digest_minutes: number | null;
  quiet_start: number | null;
  quiet_end: number | null;
  time_zone: string | null;
  active_minutes: number | null;
}

export interface PreferenceDefaults {
  digestMinutes: number;
  activeMinutes: number;
}

export function preferencesOf(row: StoredPreferences | undefined, defaults: PreferenceDefaults): Preferences {
  const kinds = (stored: string[] | null, channel: ChannelName) =>
    row?.kinds_set && stored ? stored.filter((k): k is NoticeKind => (NOTICE_KINDS as string[]).includes(k)) : [...DEFAULT_KINDS[channel]];
  return {
    pushKinds: kinds(row?.push_kinds ?? null, 'push'),
    emailKinds: kinds(row?.email_kinds ?? null, 'email'),
    emailMode: (EMAIL_MODES as readonly string[]).includes(row?.email_mode ?? '') ? (row!.email_mode as EmailMode) : 'immediate',
    digestMinutes: row?.digest_minutes ?? defaults.digestMinutes,
    quietStart: row?.quiet_start ?? null,
    quietEnd: row?.quiet_end ?? null,
    timeZone: row?.time_zone ?? 'UTC',
    activeMinutes: row?.active_minutes ?? defaults.activeMinutes,
  };
}

/** Whether `zone` is an IANA time zone this runtime knows (Intl is the judge). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `HH:MM` (24-hour) as minutes of the day; BAD_INPUT naming `field` otherwise. */
export function parseLocalTime(value: string, field: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw badInput(`${field} must be a time of day as HH:MM (00:00 to 23:59)`, { field });
  return Number(match[1]) * 60 + Number(match[2]);
}

export function formatLocalTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The minute of the day (0–1439) and the second within it at `at` in `zone`. */
function localTime(at: number, zone: string): { minute: number; second: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minute: part('hour') * 60 + part('minute'), second: part('second') };
}

/**
 * When quiet hours that hold `at` end (a time in ms), or null when `at` is outside them. The window
 * is [start, end) in the player's local time and may wrap midnight (22:00–07:00). A change of the
 * clocks (DST) inside the window may end it an hour off; the release checks again.
 */
export function quietUntil(prefs: Pick<Preferences, 'quietStart' | 'quietEnd' | 'timeZone'>, at: number): number | null {
  const { quietStart: start, quietEnd: end } = prefs;
  if (start === null || end === null || start === end) return null;
  const { minute, second } = localTime(at, prefs.timeZone);
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  const minutesLeft = (end - minute + 1440) % 1440;
  return at - second * 1000 - (at % 1000) + minutesLeft * 60_000;
}
