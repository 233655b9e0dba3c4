import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { TOKEN_SCOPES } from '../auth/scopes.js';

/**
 * Uses a refresh token: marks it used, if it was not, and answers its session. Two requests with
 * the same token at once: one is answered, the other finds it used (the row lock decides).
 */
export function useRefreshTokenSql(hash: string) {
  return sqlQuery(
    z.object({
      session_id: z.string(),
      player_id: z.string(),
      scopes: z.array(z.enum(TOKEN_SCOPES)),
      revoked_at: z.date().nullable(),
      expires_at: z.date(),
    }),
    Prisma.sql`
      UPDATE refresh_tokens r SET used_at = now()
        FROM auth_sessions s
       WHERE r.token_hash = ${hash}::char(64) AND r.used_at IS NULL AND s.id = r.session_id
      RETURNING r.session_id::text, s.player_id::text, s.scopes::text[] AS scopes, s.revoked_at, s.expires_at`,
  );
}

/** A refresh token that `useRefreshTokenSql` did not take: used before, or never issued. */
export function refreshTokenSql(hash: string) {
  return sqlQuery(
    z.object({ session_id: z.string(), player_id: z.string() }),
    Prisma.sql`
      SELECT r.session_id::text, s.player_id::text
        FROM refresh_tokens r JOIN auth_sessions s ON s.id = r.session_id
       WHERE r.token_hash = ${hash}::char(64)`,
  );
}

/** Ends sessions: marks them revoked and revokes their access tokens still working, answering those tokens' ids. */
export function endSessionsSql(sessionIds: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`
      WITH ended AS (
        UPDATE auth_sessions SET revoked_at = now()
         WHERE id = ANY(${sessionIds}::uuid[]) AND revoked_at IS NULL
        RETURNING id
      )
      UPDATE api_tokens t SET revoked_at = now()
       WHERE t.session_id = ANY(${sessionIds}::uuid[]) AND t.revoked_at IS NULL AND t.expires_at > now()
      RETURNING t.id::text`,
  );
}

/**
 * A player's sessions still usable, least recently used first (the ones to end when over the
 * limit): apps' grants (`oauth`) and the person's own sign-ins counted apart, so that authorizing
 * apps never signs the person out of a browser.
 */
export function liveSessionsSql(playerId: string, oauth: boolean) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`
      SELECT id::text FROM auth_sessions
       WHERE player_id = ${playerId}::uuid AND revoked_at IS NULL AND expires_at > now()
         AND (method = 'oauth') = ${oauth}
       ORDER BY last_used_at, id`,
  );
}
