import { z } from 'zod';
import { jsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

/** Where a page of turns ends: the last item's deadline (null: untimed) and game id. */
export interface TurnKey {
  deadline: Date | null;
  id: string;
}

/**
 * The games where it is the player's turn, soonest deadline first (untimed last), then by id;
 * `first + 1` of them after `after` (the extra one says whether more follow).
 */
export function turnsToPlaySql(playerId: string, after: TurnKey | null, first: number) {
  const past =
    after === null
      ? Prisma.empty
      : after.deadline === null
        ? Prisma.sql`AND g.turn_deadline IS NULL AND g.id > ${after.id}::uuid`
        : Prisma.sql`AND (g.turn_deadline > ${after.deadline}::timestamptz
                          OR (g.turn_deadline = ${after.deadline}::timestamptz AND g.id > ${after.id}::uuid)
                          OR g.turn_deadline IS NULL)`;
  return sqlQuery(
    z.object({
      id: z.string(),
      preset: z.string(),
      version: z.number(),
      deadline: z.date().nullable(),
      seat: z.number(),
      totals: z.array(z.number()),
    }),
    Prisma.sql`
      SELECT g.id::text AS id, g.preset, g.version, g.turn_deadline AS deadline, s.seat::int AS seat, g.totals
        FROM game_seats s
        JOIN games g ON g.id = s.game_id
       WHERE s.player_id = ${playerId}::uuid
         AND g.status = 'active'
         AND g.to_move = s.seat
         ${past}
       ORDER BY g.turn_deadline ASC NULLS LAST, g.id ASC
       LIMIT ${first + 1}::int`,
  );
}

/** Each game's last log entry that is not a deal (one index probe per game, from its end). */
export function lastMovesSql(gameIds: readonly string[]) {
  return sqlQuery(
    z.object({
      game_id: z.string(),
      seq: z.number(),
      kind: z.string(),
      deal_index: z.number(),
      seat: z.number().nullable(),
      actor: z.string(),
      cause: z.string().nullable(),
      events: jsonColumn(z.unknown()),
      created_at: z.date(),
      deadline: z.date().nullable(),
    }),
    Prisma.sql`
      SELECT g.id::text AS game_id, e.seq, e.kind, e.deal_index, e.seat::int AS seat, e.actor, e.cause, e.events, e.created_at, e.deadline
        FROM unnest(${gameIds}::uuid[]) AS g(id)
       CROSS JOIN LATERAL (
             SELECT * FROM game_events
              WHERE game_id = g.id AND kind <> 'deal'
              ORDER BY seq DESC
              LIMIT 1) e`,
  );
}
