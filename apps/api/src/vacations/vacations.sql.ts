import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The SQL of vacations: a player's vacations, and the games they stop or leave running.

const VACATION_ROW = z.object({ id: z.string(), started_at: z.date(), until: z.date(), ended_at: z.date().nullable(), days: z.number().nullable() });
export type VacationRow = z.output<typeof VACATION_ROW>;

/** Locks the player's row for the rest of the transaction: one start or end of theirs at a time. */
export function lockPlayerSql(playerId: string) {
  return sqlQuery(z.object({ id: z.string() }), Prisma.sql`SELECT id::text FROM players WHERE id = ${playerId}::uuid FOR UPDATE`);
}

/** The player's open vacation, if any, else their last one. */
export function lastVacationSql(playerId: string) {
  return sqlQuery(
    VACATION_ROW,
    Prisma.sql`SELECT id::text, started_at, until, ended_at, days FROM vacations
                WHERE player_id = ${playerId}::uuid
                ORDER BY ended_at IS NULL DESC, started_at DESC LIMIT 1`,
  );
}

/** The days the player's vacations begun in [from, to) counted; an open one counts its started days up to `now`. */
export function daysUsedSql(playerId: string, from: Date, to: Date, now: Date) {
  return sqlQuery(
    z.object({ days: z.number() }),
    Prisma.sql`SELECT coalesce(sum(coalesce(days, greatest(1, ceil(extract(epoch FROM (${now}::timestamptz - started_at)) / 86400)::int))), 0)::int AS days
                 FROM vacations
                WHERE player_id = ${playerId}::uuid AND started_at >= ${from}::timestamptz AND started_at < ${to}::timestamptz`,
  );
}

export function insertVacationSql(playerId: string, startedAt: Date, until: Date) {
  return sqlQuery(
    VACATION_ROW,
    Prisma.sql`INSERT INTO vacations (id, player_id, started_at, until) VALUES (gen_random_uuid(), ${playerId}::uuid, ${startedAt}::timestamptz, ${until}::timestamptz)
               RETURNING id::text, started_at, until, ended_at, days`,
  );
}

/** Ends the open vacation `id` at `endedAt`, counting its started days; nothing if it has ended already. */
export function endVacationSql(id: string, endedAt: Date, days: number) {
  return sqlQuery(
    VACATION_ROW,
    Prisma.sql`UPDATE vacations SET ended_at = ${endedAt}::timestamptz, days = ${days}::int
                WHERE id = ${id}::uuid AND ended_at IS NULL
               RETURNING id::text, started_at, until, ended_at, days`,
  );
}

const GAME_ROW = z.object({
  id: z.string(),
  preset: z.string(),
  timed: z.boolean(),
  vacation_allowed: z.boolean(),
  deadline: z.date().nullable(),
});

/** The player's games in play (at most `limit`), oldest first: whether timed, whether they allow vacation, the turn's deadline. */
export function activeGamesSql(playerId: string, limit: number) {
  return sqlQuery(
    GAME_ROW,
    Prisma.sql`SELECT g.id::text, g.preset, g.time_control IS NOT NULL AS timed, g.vacation_allowed, g.turn_deadline AS deadline
                 FROM game_seats s JOIN games g ON g.id = s.game_id
                WHERE s.player_id = ${playerId}::uuid AND g.status = 'active'
                ORDER BY g.created_at, g.id LIMIT ${limit}::int`,
  );
}

/**
 * The games a vacation begun at `since` has not yet been announced to: in play, allowing vacation,
 * without an 'away' entry of this player since then (a start repeated after a crash finishes them).
 */
export function unannouncedGamesSql(playerId: string, since: Date) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`SELECT g.id::text FROM game_seats s JOIN games g ON g.id = s.game_id
                WHERE s.player_id = ${playerId}::uuid AND g.status = 'active' AND g.vacation_allowed
                  AND NOT EXISTS (SELECT 1 FROM game_events e
                                   WHERE e.game_id = g.id AND e.player_id = ${playerId}::uuid AND e.kind = 'away' AND e.created_at >= ${since}::timestamptz)`,
  );
}

/**
 * The games to come back to: in play, where the player's last vacation entry is 'away', or where
 * their turn's clock is stopped (a turn begun while away, in a game begun after the announcement).
 */
export function awayGamesSql(playerId: string) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`SELECT g.id::text FROM game_seats s JOIN games g ON g.id = s.game_id
                WHERE s.player_id = ${playerId}::uuid AND g.status = 'active' AND g.vacation_allowed
                  AND ((g.to_move = s.seat AND g.turn_paused_at IS NOT NULL)
                       OR (SELECT e.kind FROM game_events e
                            WHERE e.game_id = g.id AND e.player_id = ${playerId}::uuid AND e.kind IN ('away', 'back')
                            ORDER BY e.seq DESC LIMIT 1) = 'away')`,
  );
}

/** Of these players, those on vacation (an open one). */
export function awayPlayersSql(playerIds: readonly string[]) {
  return sqlQuery(
    z.object({ player_id: z.string(), started_at: z.date(), until: z.date() }),
    Prisma.sql`SELECT player_id::text, started_at, until FROM vacations WHERE player_id = ANY(${playerIds}::uuid[]) AND ended_at IS NULL`,
  );
}
