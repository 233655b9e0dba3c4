import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The SQL of the server's bots.

/** The server bot level of each of these players (null: a person or a bot account). */
export function botLevelsSql(playerIds: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.string(), bot_level: z.string().nullable() }),
    Prisma.sql`
      SELECT id::text, bot_level FROM players WHERE id = ANY(${playerIds}::uuid[])`,
  );
}

/** Of these games, the active ones whose turn a server bot holds, with their version (read under the games' bot lock). */
export function botTurnsSql(gameIds: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.string(), version: z.number() }),
    Prisma.sql`SELECT g.id::text, g.version
           FROM games g
           JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
           JOIN players p ON p.id = s.player_id
          WHERE g.id = ANY(${gameIds}::uuid[]) AND g.status = 'active' AND p.bot_level IS NOT NULL`,
  );
}

/** The server's player of `level` first by name that is not among `seated`. */
export function freeServerBotSql(level: string, seated: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`
    SELECT id::text FROM players
     WHERE kind = 'bot'::"PlayerKind" AND bot_level = ${level} AND id <> ALL(${seated}::uuid[])
     ORDER BY length(name_key), name_key LIMIT 1`,
  );
}

/** A new server player `name` of `level`; no row when the name is taken. */
export function newServerBotSql(name: string, level: string) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`
      INSERT INTO players (id, name, name_key, kind, bot_level)
      VALUES (gen_random_uuid(), ${name}, ${name.toLowerCase()}, 'bot'::"PlayerKind", ${level})
      ON CONFLICT (name_key) DO NOTHING RETURNING id::text`,
  );
}
