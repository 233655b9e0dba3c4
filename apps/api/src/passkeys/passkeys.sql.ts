import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

export const CHALLENGE_KINDS = ['sign_up', 'sign_in', 'add'] as const;
export type ChallengeKind = (typeof CHALLENGE_KINDS)[number];

/**
 * Uses up a challenge of `kind` (of `playerId`'s, for an addition): it is deleted whatever the
 * answer, so a challenge is answered once. Two answers at once: the row lock gives it to one.
 */
export function useChallengeSql(id: string, kind: ChallengeKind, playerId: string | null) {
  return sqlQuery(
    z.object({ challenge: z.string(), name: z.string().nullable(), user_handle: z.string().nullable(), expires_at: z.date() }),
    Prisma.sql`
      DELETE FROM passkey_challenges
       WHERE id = ${id}::uuid AND kind = ${kind}::"PasskeyChallengeKind" AND player_id IS NOT DISTINCT FROM ${playerId}::uuid
      RETURNING challenge, name, user_handle::text, expires_at`,
  );
}

/** Challenges nobody answered, a bounded batch at a time (each start sweeps one). */
export function sweepChallengesSql(limit: number) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`
      DELETE FROM passkey_challenges
       WHERE id IN (SELECT id FROM passkey_challenges WHERE expires_at < now() ORDER BY expires_at LIMIT ${limit})
      RETURNING id::text`,
  );
}

/**
 * A sign-in with a passkey: its counter moves on to `counter` and it is marked used, unless the
 * counter went backwards (or stood still, for an authenticator that counts): a copy of it signed
 * in since. Checked in the statement, so two sign-ins with one signature cannot both pass.
 */
export function usePasskeySql(id: string, counter: number) {
  return sqlQuery(
    z.object({ player_id: z.string() }),
    Prisma.sql`
      UPDATE passkeys SET counter = ${counter}::bigint, last_used_at = now()
       WHERE id = ${id}::uuid AND (counter < ${counter}::bigint OR (counter = 0 AND ${counter}::bigint = 0))
      RETURNING player_id::text`,
  );
}
