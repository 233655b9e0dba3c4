import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The players' rows as locks: a limit counted over a player's things (tokens, open lobbies, webhook
// endpoints, games against bots) is checked with the player's row locked, so that two requests at
// once cannot both take the last place.

/** Locks a player's row until the transaction ends; answers it if the player exists. */
export function lockPlayerSql(playerId: string) {
  return sqlQuery(z.object({ id: z.string() }), Prisma.sql`SELECT id FROM players WHERE id = ${playerId}::uuid FOR UPDATE`);
}

/** Locks several players' rows, in one order (by id), so that two such locks never deadlock. */
export function lockPlayersSql(playerIds: readonly string[]) {
  return sqlQuery(z.object({ id: z.string() }), Prisma.sql`SELECT id FROM players WHERE id = ANY(${playerIds}::uuid[]) ORDER BY id FOR UPDATE`);
}
