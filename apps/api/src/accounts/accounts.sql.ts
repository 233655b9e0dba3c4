import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

/** The account a login names: a player name (any case) or a verified email; its password hash, if any. */
export function accountByLoginSql(login: string) {
  const key = login.toLowerCase();
  return sqlQuery(
    z.object({ player_id: z.string(), password_hash: z.string().nullable(), verified_email: z.string().nullable() }),
    key.includes('@')
      ? Prisma.sql`
          SELECT a.player_id::text, a.password_hash, a.email AS verified_email
            FROM player_accounts a WHERE a.verified_email_key = ${key}`
      : Prisma.sql`
          SELECT p.id::text AS player_id, a.password_hash, CASE WHEN a.email_verified_at IS NOT NULL THEN a.email END AS verified_email
            FROM players p LEFT JOIN player_accounts a ON a.player_id = p.id
           WHERE p.name_key = ${key}`,
  );
}

/** Uses up a one-time mail token still valid: answers its player and the email it was sent to. */
export function useAccountTokenSql(hash: string, purpose: 'verify_email' | 'reset_password') {
  return sqlQuery(
    z.object({ player_id: z.string(), email: z.string().nullable() }),
    Prisma.sql`
      UPDATE account_tokens SET used_at = now()
       WHERE token_hash = ${hash}::char(64) AND purpose = ${purpose}::"AccountTokenPurpose"
         AND used_at IS NULL AND expires_at > now()
      RETURNING player_id::text, email`,
  );
}

/** A player's sessions still usable but `keep`: the ones a password change ends. */
export function otherSessionsSql(playerId: string, keep: string | null) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`
      SELECT id::text FROM auth_sessions
       WHERE player_id = ${playerId}::uuid AND revoked_at IS NULL AND expires_at > now()
         AND (${keep}::uuid IS NULL OR id <> ${keep}::uuid)`,
  );
}
