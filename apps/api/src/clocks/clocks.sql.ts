import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { insertFeedSql } from '../player-events/feed.sql.js';

// The SQL of the move clocks.

/** These games' turns as the clock jobs are set from them (read under the games' clock lock). */
export function clockTurnsSql(gameIds: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.string(), version: z.number(), active: z.boolean(), deadline: z.date().nullable(), started: z.date().nullable() }),
    Prisma.sql`SELECT id::text, version, status = 'active' AS active, turn_deadline AS deadline, turn_started_at AS started
           FROM games WHERE id = ANY(${gameIds}::uuid[])`,
  );
}

/** Who is to move in the game at `version`, while that turn is on and its deadline still ahead. */
export function warnedTurnSql(gameId: string, version: number) {
  return sqlQuery(
    z.object({ seat: z.number(), player_id: z.string(), deadline: z.date() }),
    Prisma.sql`
      SELECT g.to_move AS seat, s.player_id::text, g.turn_deadline AS deadline
        FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
       WHERE g.id = ${gameId}::uuid AND g.version = ${version}::int AND g.status = 'active' AND g.turn_deadline > now()`,
  );
}

/** The "deadline near" feed event, written only while the game is still at `version`; answers whom it reached. */
export function insertWarningSql(warning: NewFeedEvent, gameId: string, version: number) {
  return sqlQuery(
    z.object({ player_id: z.string() }),
    Prisma.sql`${insertFeedSql(
      [warning],
      Prisma.sql`(SELECT 1 FROM games WHERE id = ${gameId}::uuid AND version = ${version}::int AND status = 'active') AS still`,
    )} RETURNING player_id::text`,
  );
}
