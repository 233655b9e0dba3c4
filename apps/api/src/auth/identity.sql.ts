import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// Players of trusted identity providers (IDENTITY_ISSUERS): an issuer's user is a player, found by
// the issuer and the user's subject, made on the first use.

const PLAYER_ROW = z.object({ id: z.string(), name: z.string() });

/** The player of an issuer's user, if there is one yet (on the hot pool: every JWT not cached). */
export function identityPlayerSql(issuer: string, subject: string) {
  return sqlQuery(
    PLAYER_ROW,
    Prisma.sql`
      SELECT p.id::text AS id, p.name FROM external_identities e JOIN players p ON p.id = e.player_id
       WHERE e.issuer = ${issuer} AND e.subject = ${subject}`,
  );
}

/** A new person named `name`; no row when the name is taken (ignoring case). */
export function addIdentityPlayerSql(name: string) {
  return sqlQuery(
    PLAYER_ROW,
    Prisma.sql`
      INSERT INTO players (id, name, name_key, kind) VALUES (gen_random_uuid(), ${name}, ${name.toLowerCase()}, 'human')
      ON CONFLICT (name_key) DO NOTHING
      RETURNING id::text AS id, name`,
  );
}

/** The user is `playerId` from now on; no row when another request made the user's player first. */
export function addIdentitySql(issuer: string, subject: string, playerId: string) {
  return sqlQuery(
    z.object({ player_id: z.string() }),
    Prisma.sql`
      INSERT INTO external_identities (issuer, subject, player_id) VALUES (${issuer}, ${subject}, ${playerId}::uuid)
      ON CONFLICT (issuer, subject) DO NOTHING
      RETURNING player_id::text AS player_id`,
  );
}
