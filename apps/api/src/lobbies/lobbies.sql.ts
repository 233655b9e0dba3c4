import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

/** Locks a game's row (its rematch is made once); answers it if the game exists. */
export function lockGameSql(gameId: string) {
  return sqlQuery(z.object({ id: z.string() }), Prisma.sql`SELECT id FROM games WHERE id = ${gameId}::uuid FOR UPDATE`);
}

/** Locks a lobby's row while it changes; answers it if the lobby exists. */
export function lockLobbySql(lobbyId: string) {
  return sqlQuery(z.object({ id: z.string() }), Prisma.sql`SELECT id FROM lobbies WHERE id = ${lobbyId}::uuid FOR UPDATE`);
}

/**
 * One of `people` who already plays `max` or more active games against server bots, if any: its
 * name and how many.
 */
export function fullOfBotGamesSql(people: readonly string[], max: number) {
  return sqlQuery(
    z.object({ name: z.string(), games: z.number() }),
    Prisma.sql`
      SELECT p.name, count(*)::int AS games
        FROM game_seats s
        JOIN games g ON g.id = s.game_id AND g.status = 'active'
        JOIN players p ON p.id = s.player_id
       WHERE s.player_id = ANY(${people}::uuid[])
         AND EXISTS (SELECT 1 FROM game_seats b JOIN players bp ON bp.id = b.player_id
                      WHERE b.game_id = s.game_id AND bp.bot_level IS NOT NULL)
       GROUP BY p.name
      HAVING count(*) >= ${max}
       LIMIT 1`,
  );
}
