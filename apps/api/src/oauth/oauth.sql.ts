import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { TOKEN_SCOPES } from '../auth/scopes.js';

/**
 * Uses an authorization code up: marks it used, if it was not, and answers what it is bound to.
 * Two requests with the same code at once: one is answered, the other finds it used.
 */
export function useCodeSql(hash: string) {
  return sqlQuery(
    z.object({
      id: z.string(),
      client_id: z.string(),
      app_id: z.string(),
      player_id: z.string(),
      redirect_uri: z.string(),
      code_challenge: z.string(),
      scopes: z.array(z.enum(TOKEN_SCOPES)),
      expires_at: z.date(),
    }),
    Prisma.sql`
      UPDATE oauth_codes c SET used_at = now()
        FROM oauth_apps a
       WHERE c.code_hash = ${hash}::char(64) AND c.used_at IS NULL AND a.id = c.app_id
      RETURNING c.id::text, a.client_id, c.app_id::text, c.player_id::text, c.redirect_uri, c.code_challenge,
                c.scopes::text[] AS scopes, c.expires_at`,
  );
}

/** A code `useCodeSql` did not take: used before (the grant made from it, if any), or never issued. */
export function usedCodeSql(hash: string) {
  return sqlQuery(
    z.object({ session_id: z.string().nullable() }),
    Prisma.sql`SELECT session_id::text FROM oauth_codes WHERE code_hash = ${hash}::char(64)`,
  );
}

/** The session and app of a refresh token or an access token (by its hash), when it is an app's grant. */
export function grantOfTokenSql(hash: string) {
  return sqlQuery(
    z.object({ session_id: z.string(), client_id: z.string(), scopes: z.array(z.enum(TOKEN_SCOPES)) }),
    Prisma.sql`
      SELECT s.id::text AS session_id, a.client_id, s.scopes::text[] AS scopes
        FROM refresh_tokens r JOIN auth_sessions s ON s.id = r.session_id JOIN oauth_apps a ON a.id = s.oauth_app_id
       WHERE r.token_hash = ${hash}::char(64)
      UNION ALL
      SELECT s.id::text, a.client_id, s.scopes::text[]
        FROM api_tokens t JOIN auth_sessions s ON s.id = t.session_id JOIN oauth_apps a ON a.id = s.oauth_app_id
       WHERE t.token_hash = ${hash}::char(64)
       LIMIT 1`,
  );
}

/** Requests past their time and codes well past theirs (a used one is kept a while to catch a second use). */
export function sweepExpiredSql() {
  return sqlQuery(
    z.object({ n: z.number() }),
    Prisma.sql`
      WITH requests AS (DELETE FROM oauth_requests WHERE expires_at < now() RETURNING 1),
           codes AS (DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day' RETURNING 1)
      SELECT ((SELECT count(*) FROM requests) + (SELECT count(*) FROM codes))::int AS n`,
  );
}

/** Uses a pending authorization request up (the consent page answers it once), answering it. */
export function takeRequestSql(id: string) {
  return sqlQuery(
    z.object({
      app_id: z.string(),
      redirect_uri: z.string(),
      scopes: z.array(z.enum(TOKEN_SCOPES)),
      code_challenge: z.string(),
      state: z.string().nullable(),
      expires_at: z.date(),
    }),
    Prisma.sql`
      DELETE FROM oauth_requests WHERE id = ${id}::uuid
      RETURNING app_id::text, redirect_uri, scopes::text[] AS scopes, code_challenge, state, expires_at`,
  );
}
