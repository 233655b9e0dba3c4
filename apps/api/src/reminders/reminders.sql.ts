import { z } from 'zod';
import { jsonColumn, toJsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { insertFeedSql } from '../player-events/feed.sql.js';
import type { ReminderPoints } from './reminder-points.js';

// The SQL of reminders before a time-out: the players' settings, and each game's current turn as
// its reminder jobs are set from it.

/** A player's stored points per channel; no row: the defaults. */
export function reminderSettingsSql(playerId: string) {
  return sqlQuery(
    z.object({ push: jsonColumn(z.unknown()), email: jsonColumn(z.unknown()) }),
    Prisma.sql`SELECT push, email FROM reminder_settings WHERE player_id = ${playerId}::uuid`,
  );
}

/** The transaction's lock on the player's settings (a first write has no row to lock). */
export function lockReminderSettingsSql(playerId: string): Prisma.Sql {
  return Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended('reminder-settings:' || ${playerId}, 0))`;
}

export function saveReminderSettingsSql(playerId: string, points: ReminderPoints): Prisma.Sql {
  return Prisma.sql`INSERT INTO reminder_settings (player_id, push, email, updated_at)
    VALUES (${playerId}::uuid, ${toJsonColumn(points.push)}::jsonb, ${toJsonColumn(points.email)}::jsonb, now())
    ON CONFLICT (player_id) DO UPDATE SET push = EXCLUDED.push, email = EXCLUDED.email, updated_at = now()`;
}

const turnRow = z.object({
  id: z.string(),
  version: z.number(),
  active: z.boolean(),
  seat: z.number().nullable(),
  deadline: z.date().nullable(),
  started: z.date().nullable(),
  /** The person to move; null for a bot (no one to remind). */
  player_id: z.string().nullable(),
  push: jsonColumn(z.unknown()).nullable(),
  email: jsonColumn(z.unknown()).nullable(),
  /** The turn whose reminders are set now, their job keys, and the reminders of it that fired (seconds before). */
  reminded_seq: z.number().nullable(),
  keys: z.array(z.string()),
  fired: z.array(z.number()),
});
export type ReminderTurnRow = z.output<typeof turnRow>;

/** These games' current turns with the mover's settings and what is set for reminders now (read under the reminder lock). */
export function reminderTurnsSql(gameIds: readonly string[]) {
  return sqlQuery(
    turnRow,
    Prisma.sql`
      SELECT g.id::text, g.version, g.status = 'active' AS active, g.to_move AS seat,
             g.turn_deadline AS deadline, g.turn_started_at AS started,
             CASE WHEN p.kind = 'human' THEN p.id::text END AS player_id,
             rs.push, rs.email, rt.seq AS reminded_seq,
             COALESCE(rt.keys, '{}') AS keys, COALESCE(rt.fired, '{}') AS fired
        FROM games g
        LEFT JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
        LEFT JOIN players p ON p.id = s.player_id
        LEFT JOIN reminder_settings rs ON rs.player_id = p.id
        LEFT JOIN reminder_turns rt ON rt.game_id = g.id
       WHERE g.id = ANY(${gameIds}::uuid[])`,
  );
}

/** Records the keys set for the game's turn `seq`; what fired is kept while the turn is the same, else forgotten. */
export function setReminderTurnSql(gameId: string, seq: number, keys: readonly string[]): Prisma.Sql {
  return Prisma.sql`INSERT INTO reminder_turns (game_id, seq, keys, fired) VALUES (${gameId}::uuid, ${seq}::int, ${keys}::text[], '{}')
    ON CONFLICT (game_id) DO UPDATE SET keys = EXCLUDED.keys, seq = EXCLUDED.seq,
      fired = CASE WHEN reminder_turns.seq = EXCLUDED.seq THEN reminder_turns.fired ELSE '{}' END`;
}

export function deleteReminderTurnsSql(gameIds: readonly string[]): Prisma.Sql {
  return Prisma.sql`DELETE FROM reminder_turns WHERE game_id = ANY(${gameIds}::uuid[])`;
}

/**
 * Writes the reminder into the player's feed if the game is still at turn `seq` with `seat` to
 * move and this reminder (`before` seconds) has not fired for that turn: marking it fired and
 * writing the event are one statement, so two runs of the job (a retry, another instance) write
 * one event. Answers whom it reached.
 */
export function fireReminderSql(reminder: NewFeedEvent, gameId: string, seq: number, seat: number, before: number) {
  return sqlQuery(
    z.object({ player_id: z.string() }),
    Prisma.sql`WITH turn AS (
        UPDATE reminder_turns SET fired = array_append(fired, ${before}::int)
         WHERE game_id = ${gameId}::uuid AND seq = ${seq}::int AND NOT (${before}::int = ANY(fired))
           AND EXISTS (SELECT 1 FROM games WHERE id = ${gameId}::uuid AND version = ${seq}::int AND status = 'active' AND to_move = ${seat}::int)
        RETURNING game_id)
      ${insertFeedSql([reminder], Prisma.sql`turn`)} RETURNING player_id::text`,
  );
}
