import { z } from 'zod';
import { badInput } from '../common/errors.js';

export const TOURNAMENT_FORMATS = ['round-robin', 'swiss', 'arena', 'duplicate'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];
export const RUNNING_FORMATS: readonly TournamentFormat[] = ['round-robin', 'swiss', 'duplicate', 'arena'];
/** Arena: the longest window, a day. */
export const ARENA_MAX_MINUTES = 24 * 60;

export const MAX_ROUNDS = 30;
export const MAX_TOURNAMENT_PLAYERS = 512;
/** A round's deadline, when set: at least a minute, at most 30 days. */
export const ROUND_MINUTES = { min: 1, max: 30 * 24 * 60 };

/** A format's options as stored (tournaments.format_options), checked at creation and on every read. */
export const formatOptionsSchema = z
  .object({
    /** Swiss: the rounds, chosen at creation. Duplicate: the boards, one round each. Round-robin: computed from the field at the start. */
    rounds: z.number().int().min(1).max(MAX_ROUNDS).optional(),
    /** Minutes a round may last; past it, unfinished games are forfeited by the clock. */
    roundMinutes: z.number().int().min(ROUND_MINUTES.min).max(ROUND_MINUTES.max).optional(),
    /** Arena: the window's minutes from the start (endsAt); no table sits down after it. */
    minutes: z.number().int().min(1).max(ARENA_MAX_MINUTES).optional(),
    /** Arena: after two wins in a row, games count double until one is not a win. */
    arenaStreak: z.boolean().optional(),
  })
  .strict();
export type FormatOptions = z.infer<typeof formatOptionsSchema>;

/** The options for `format`, or a 400 naming the field at fault. */
export function checkFormatOptions(format: TournamentFormat, input: unknown): FormatOptions {
  const parsed = formatOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['formatOptions', ...issue.path.map(String)].join('.');
    throw badInput(`${field}: ${issue.message}`, { field });
  }
  if (format === 'swiss' && parsed.data.rounds === undefined) throw badInput('formatOptions.rounds: a Swiss event needs its number of rounds', { field: 'formatOptions.rounds' });
  if (format === 'arena' && parsed.data.minutes === undefined) throw badInput('formatOptions.minutes: an arena needs its length in minutes', { field: 'formatOptions.minutes' });
  if (format !== 'arena' && (parsed.data.minutes !== undefined || parsed.data.arenaStreak !== undefined)) {
    throw badInput(`formatOptions.${parsed.data.minutes !== undefined ? 'minutes' : 'arenaStreak'}: for an arena only`, { field: `formatOptions.${parsed.data.minutes !== undefined ? 'minutes' : 'arenaStreak'}` });
  }
  if (format === 'arena' && (parsed.data.rounds !== undefined || parsed.data.roundMinutes !== undefined)) {
    throw badInput(`formatOptions.${parsed.data.rounds !== undefined ? 'rounds' : 'roundMinutes'}: an arena has no rounds`, { field: `formatOptions.${parsed.data.rounds !== undefined ? 'rounds' : 'roundMinutes'}` });
  }
  if (format === 'duplicate' && parsed.data.rounds === undefined) throw badInput('formatOptions.rounds: a duplicate event needs its number of boards (one round each)', { field: 'formatOptions.rounds' });
  return parsed.data;
}

/** Options read back from the database (written by checkFormatOptions). */
export function storedFormatOptions(value: unknown): FormatOptions {
  return formatOptionsSchema.parse(value ?? {});
}
