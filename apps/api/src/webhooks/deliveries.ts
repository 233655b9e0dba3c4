import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';
import { FEED_START, type FeedCursor, type FeedEvent } from '../player-events/feed.js';

/** The job-queue task that makes one attempt of one delivery. */
export const DELIVER_TASK = 'webhook.deliver';

/** The Standard Webhooks body of a feed event, as stored with its delivery. */
export interface DeliveryPayload {
  type: string;
  timestamp: string;
  data: { eventId: string; gameId: string | null; lobbyId: string | null; seq: number | null; payload: Record<string, unknown> };
}

export function deliveryPayload(event: FeedEvent): DeliveryPayload {
  return {
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    data: { eventId: event.id, gameId: event.gameId, lobbyId: event.lobbyId, seq: event.seq, payload: event.payload },
  };
}

/**
 * The exact text POSTed and signed. The stored payload is jsonb, which orders keys its own way;
 * the top level is put back in the spec's order. The same text on every attempt.
 */
export function deliveryBody(stored: unknown): string {
  const p = (typeof stored === 'string' ? JSON.parse(stored) : stored) as DeliveryPayload;
  return JSON.stringify({ type: p.type, timestamp: p.timestamp, data: p.data });
}

/**
 * SQL that queues an attempt of each delivery at `runAt` (default now). The job key is the
 * delivery's, so a retry or a re-send replaces the attempt still waiting: one pending job per
 * delivery. `deliveryId` is a SQL expression giving one uuid per row of `from`.
 */
export function addDeliverJobs(from: Prisma.Sql, deliveryId: Prisma.Sql, runAt: Prisma.Sql = Prisma.sql`now()`): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS jobs
    FROM ${from}
    CROSS JOIN LATERAL ${Prisma.raw(JOB_QUEUE_SCHEMA)}.add_job(
      ${DELIVER_TASK}::text, json_build_object('deliveryId', ${deliveryId}),
      run_at := ${runAt}, job_key := 'webhook:' || ${deliveryId}::text, max_attempts := 10) AS job`;
}

/**
 * The player's newest committed feed event: a new (or re-enabled) endpoint starts after it. Not
 * bounded by readFeed's horizon, which may lag behind a transaction left open elsewhere and would
 * replay recent history; an event still uncommitted now counts as before the endpoint.
 */
export async function feedTail(db: Pick<Prisma.TransactionClient, '$queryRaw'>, playerId: string): Promise<FeedCursor> {
  const rows = await db.$queryRaw<{ tx: string; id: bigint }[]>`
    SELECT tx::text AS tx, id FROM player_events
     WHERE player_id = ${playerId}::uuid
     ORDER BY tx DESC, id DESC
     LIMIT 1`;
  return rows[0] ? { tx: BigInt(rows[0].tx), id: BigInt(rows[0].id) } : FEED_START;
}

/** A disabled endpoint is not called: what was still due to it is given up (a re-send may revive one). */
export function giveUpPendingSql(endpointId: string): Prisma.Sql {
  return Prisma.sql`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, finished_at = now()
     WHERE endpoint_id = ${endpointId}::uuid AND status = 'pending'`;
}
