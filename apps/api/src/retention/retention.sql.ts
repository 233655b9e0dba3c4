import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';

// The retention job's statements. Each deletes at most `batch` rows, in its own transaction, and
// answers how many it deleted (and, where the next batch starts after them, where): the job runs
// them until a batch comes back short, so no statement holds its locks or its snapshot for long,
// and a run stopped anywhere has deleted whole batches only. Each finds its rows through an index
// where the table grows with the games (feeds by id, deliveries by endpoint and time).

const deleted = z.object({ n: z.number() });

/**
 * `DELETE` of up to `batch` rows of `table` (by its `id`) where `where` holds, answering how many
 * went: the shape of every batched delete here but the feed's (which also answers where it got to).
 * `where` names the table's columns unqualified, or qualified by the table's name.
 */
function batchedDeleteSql(table: string, where: Prisma.Sql, batch: number) {
  const t = Prisma.raw(table);
  return sqlQuery(
    deleted,
    Prisma.sql`
      WITH gone AS (
        DELETE FROM ${t} WHERE id IN (SELECT id FROM ${t} WHERE ${where} LIMIT ${batch}::int)
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`,
  );
}

/**
 * The first feed event made at or after `cutoff`, in id order (ids grow with time): the feed's
 * deletes stay below it, so their batches never scan the events kept. Walks the primary key from
 * the start, over the rows to delete (and those already deleted, until vacuumed).
 */
export function feedKeptFromSql(cutoff: Date) {
  return sqlQuery(
    z.object({ id: z.bigint().nullable() }),
    Prisma.sql`SELECT (SELECT id FROM player_events WHERE created_at >= ${cutoff} ORDER BY id LIMIT 1) AS id`,
  );
}

/**
 * Deletes the oldest `batch` feed events after id `after` and below id `below` (null: no bound)
 * made before `cutoff`, and raises each of their players' trim mark (player_feed_trims) to the
 * newest (tx, id) deleted, so that a stream resuming after one of them is still answered (see
 * feedEventIssued). Answers the count and the last id deleted.
 */
export function deleteFeedBatchSql(cutoff: Date, after: bigint, below: bigint | null, batch: number) {
  return sqlQuery(
    z.object({ n: z.number(), last: z.bigint().nullable() }),
    Prisma.sql`
      WITH doomed AS (
             SELECT id FROM player_events
              WHERE id > ${after}::bigint ${below === null ? Prisma.empty : Prisma.sql`AND id < ${below}::bigint`}
                AND created_at < ${cutoff}
              ORDER BY id LIMIT ${batch}::int),
           gone AS (
             DELETE FROM player_events e USING doomed d WHERE e.id = d.id RETURNING e.player_id, e.tx, e.id),
           marks AS (
             INSERT INTO player_feed_trims AS t (player_id, tx, id, trimmed_at)
             SELECT DISTINCT ON (player_id) player_id, tx, id, now() FROM gone ORDER BY player_id, tx DESC, id DESC
             ON CONFLICT (player_id) DO UPDATE SET tx = excluded.tx, id = excluded.id, trimmed_at = excluded.trimmed_at
              WHERE (excluded.tx, excluded.id) > (t.tx, t.id))
      SELECT count(*)::int AS n, max(id) AS last FROM gone`,
  );
}

/** Webhook endpoints after `after`, in id order, `limit` at a time: deliveries are deleted endpoint by endpoint. */
export function endpointPageSql(after: string | null, limit: number) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`SELECT id::text AS id FROM webhook_endpoints
                ${after === null ? Prisma.empty : Prisma.sql`WHERE id > ${after}::uuid`}
                ORDER BY id LIMIT ${limit}::int`,
  );
}

/**
 * Deletes up to `batch` of an endpoint's deliveries made before `cutoff` that are done with
 * (delivered or failed; a pending one still has a job), their attempts with them (cascade).
 * Found through the (endpoint_id, created_at) index.
 */
export function deleteDeliveriesSql(endpointId: string, cutoff: Date, batch: number) {
  return batchedDeleteSql('webhook_deliveries', Prisma.sql`endpoint_id = ${endpointId}::uuid AND created_at < ${cutoff} AND status <> 'pending'`, batch);
}

const q = Prisma.raw(JOB_QUEUE_SCHEMA);

/**
 * Deletes up to `batch` jobs that failed every attempt, last tried before `cutoff`, through the
 * queue's public surface (its `jobs` view and `complete_jobs`, which leaves a locked job alone).
 */
export function deleteFailedJobsSql(cutoff: Date, batch: number) {
  return sqlQuery(
    deleted,
    Prisma.sql`
      SELECT count(*)::int AS n FROM ${q}.complete_jobs(ARRAY(
        SELECT id FROM ${q}.jobs
         WHERE attempts >= max_attempts AND locked_at IS NULL AND updated_at < ${cutoff}
         ORDER BY id LIMIT ${batch}::int))`,
  );
}

/**
 * What ended more than the retention ago, per table: the condition on its rows. Sessions go with
 * their access and refresh tokens (cascade); a code made from a deleted session keeps its row.
 */
const ENDED: Record<EndedKind, { table: string; ended: (cutoff: Date) => Prisma.Sql }> = {
  sessions: { table: 'auth_sessions', ended: (c) => Prisma.sql`(expires_at < ${c} OR revoked_at < ${c})` },
  refreshTokens: { table: 'refresh_tokens', ended: (c) => Prisma.sql`used_at < ${c}` },
  accessTokens: { table: 'api_tokens', ended: (c) => Prisma.sql`(expires_at < ${c} OR revoked_at < ${c})` },
  oauthRequests: { table: 'oauth_requests', ended: (c) => Prisma.sql`expires_at < ${c}` },
  oauthCodes: { table: 'oauth_codes', ended: (c) => Prisma.sql`expires_at < ${c}` },
  passkeyChallenges: { table: 'passkey_challenges', ended: (c) => Prisma.sql`expires_at < ${c}` },
  emailTokens: { table: 'account_tokens', ended: (c) => Prisma.sql`(expires_at < ${c} OR used_at < ${c})` },
};

export type EndedKind = 'sessions' | 'refreshTokens' | 'accessTokens' | 'oauthRequests' | 'oauthCodes' | 'passkeyChallenges' | 'emailTokens';

/** In this order: sessions first, so that their tokens go with them in their cascade. */
export const ENDED_KINDS = Object.keys(ENDED) as EndedKind[];

/** Deletes up to `batch` rows of `kind` that ended before `cutoff`. */
export function deleteEndedSql(kind: EndedKind, cutoff: Date, batch: number) {
  const { table, ended } = ENDED[kind];
  return batchedDeleteSql(table, ended(cutoff), batch);
}

/**
 * Deletes up to `batch` notices finished before `cutoff`: sent, dropped, or handed to a channel
 * that keeps no further state in them (Web Push: its sends are push_sends, swept on their own). An
 * email handed and waiting for its digest stays whatever its age. Found through
 * (finished_at) (notice_sends_finished_at_idx).
 */
export function deleteNoticesSql(cutoff: Date, batch: number) {
  return batchedDeleteSql('notice_sends', Prisma.sql`finished_at < ${cutoff} AND (status IN ('sent', 'dropped') OR (status = 'handed' AND channel <> 'email'))`, batch);
}

/**
 * Deletes up to `batch` lobbies closed (every player left) before `cutoff` that never started a
 * game, with their seats and table talk (cascade); one whose talk has a report still open stays
 * for the moderators. A lobby that started a game has the game's row pointing at it: kept.
 */
export function deleteClosedLobbiesSql(cutoff: Date, batch: number) {
  return batchedDeleteSql(
    'lobbies',
    Prisma.sql`status = 'closed' AND updated_at < ${cutoff}
      AND NOT EXISTS (SELECT 1 FROM games g WHERE g.lobby_id = lobbies.id)
      AND NOT EXISTS (SELECT 1 FROM chat_rooms r JOIN chat_reports p ON p.room_id = r.id WHERE r.lobby_id = lobbies.id AND p.status = 'open')`,
    batch,
  );
}
