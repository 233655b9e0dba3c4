import { z } from 'zod';
import { fromJsonColumn, toJsonColumn } from '../common/json-column.js';
import { queryRows, sqlQuery, type RowReader } from '../common/sql-query.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';
import type { FeedEvent } from '../player-events/feed.js';

/**
 * The job-queue task that sends deliveries; its payload is the list of the deliveries it is for
 * (DeliverJobEntry), in feed order per endpoint. The fan-out adds one job per pass, for every
 * endpoint it wrote to; a retry or a re-send adds one keyed by its endpoint (`webhook:<endpoint
 * id>`), and adding to such a job that has not started yet appends to its list (the queue
 * concatenates array payloads). Worked by WebhookSender's own worker.
 */
export const DELIVER_TASK = 'webhook.deliver';

/** One entry of a `webhook.deliver` job's payload. */
export interface DeliverJobEntry {
  endpointId: string;
  deliveryId: string;
}

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
  const p = fromJsonColumn(stored) as DeliveryPayload;
  return JSON.stringify({ type: p.type, timestamp: p.timestamp, data: p.data });
}

/**
 * SQL that queues the sending of deliveries, one job per endpoint: `from` yields rows with an
 * `endpoint_id` column and a `payload` column (a json array of DeliverJobEntry), at most one row per
 * endpoint. The job key is the endpoint's, so a job not started yet is joined, not doubled: by
 * default it is moved to `run_at` (now: a new event or a re-send must not wait behind a retry); with
 * `preserveRunAt` a waiting job keeps its time (a retry must not delay what is already due). Yields
 * the key of each job added or joined: an endpoint missing from it lost a race (below) and must be
 * queued again (queueDeliverJobs).
 */
export function addDeliverJobs(from: Prisma.Sql, runAt: Prisma.Sql = Prisma.sql`now()`, preserveRunAt = false): Prisma.Sql {
  const q = Prisma.raw(JOB_QUEUE_SCHEMA);
  return Prisma.sql`SELECT job.key
    FROM (SELECT array_agg(ROW(${DELIVER_TASK}::text, f.payload::json, NULL::text, ${runAt}, 10::smallint,
                               'webhook:' || f.endpoint_id::text, NULL::smallint, NULL::text[])::${q}.job_spec) AS specs
            FROM ${from} AS f) s
    CROSS JOIN LATERAL ${q}.add_jobs(s.specs, ${preserveRunAt}::boolean) AS job
   WHERE s.specs IS NOT NULL`;
}

/** Deliveries to queue for one endpoint, at `runAt` (null: now). */
export interface DeliverJobRequest {
  endpointId: string;
  payload: DeliverJobEntry[];
  runAt: string | null;
}

/**
 * Queues these jobs until each one is added or joined. The queue's add_jobs clears the key of a
 * job already running and inserts a new one, else joins the waiting one (ON CONFLICT … WHERE not
 * locked); a worker that locks the waiting job between those two steps makes the join do nothing,
 * and the deliveries would be in no job. Then the next try adds a new job.
 */
export async function queueDeliverJobs(
  db: RowReader,
  requests: readonly DeliverJobRequest[],
  preserveRunAt: boolean,
): Promise<void> {
  let left = [...requests];
  for (let tries = 0; left.length > 0; tries++) {
    if (tries === 10) throw new Error(`could not queue webhook jobs for ${left.length} endpoints`);
    const rows = toJsonColumn(left.map((r) => ({ endpoint_id: r.endpointId, payload: r.payload, run_at: r.runAt })));
    const added = await queryRows(
      db,
      sqlQuery(
        z.object({ key: z.string() }),
        addDeliverJobs(
          Prisma.sql`(SELECT r.endpoint_id, r.payload, r.run_at FROM jsonb_to_recordset(${rows}::jsonb) AS r(endpoint_id uuid, payload jsonb, run_at timestamptz))`,
          Prisma.sql`coalesce(f.run_at, now())`,
          preserveRunAt,
        ),
      ),
    );
    const keys = new Set(added.map((a) => a.key));
    left = left.filter((r) => !keys.has(`webhook:${r.endpointId}`));
  }
}

