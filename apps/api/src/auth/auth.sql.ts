import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { TOKEN_SCOPES } from './scopes.js';

/** A token by its hash, with its player: the lookup of a request whose token is not cached (on the hot pool). */
export function tokenByHashSql(hash: string) {
  return sqlQuery(
    z.object({
      token_id: z.string(),
      revoked_at: z.date().nullable(),
      expires_at: z.date().nullable(),
      last_used_at: z.date().nullable(),
      scopes: z.array(z.enum(TOKEN_SCOPES)),
      session_id: z.string().nullable(),
      player_id: z.string(),
      name: z.string(),
    }),
    Prisma.sql`
      SELECT t.id AS token_id, t.revoked_at, t.expires_at, t.last_used_at, t.scopes::text[] AS scopes, t.session_id::text AS session_id,
             p.id AS player_id, p.name
        FROM api_tokens t JOIN players p ON p.id = t.player_id
       WHERE t.token_hash = ${hash}::char(64)`,
  );
}

/** Of the tokens `ids`, those revoked or expired by now (elsewhere, perhaps: another instance). */
export function goneTokensSql(ids: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.string(), revoked: z.boolean() }),
    Prisma.sql`
      SELECT id::text AS id, revoked_at IS NOT NULL AS revoked FROM api_tokens
       WHERE id = ANY(${ids}::uuid[]) AND (revoked_at IS NOT NULL OR expires_at <= now())`,
  );
}
