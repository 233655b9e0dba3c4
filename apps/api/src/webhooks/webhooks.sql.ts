import { z } from 'zod';
import { jsonColumn, toJsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';
import { addDeliverJobs, DELIVER_TASK } from './deliveries.js';

// The SQL of webhook endpoints and their deliveries: their fan-out (WebhookDispatcher), their runs
// (WebhookSender) and their CRUD (the job queue's is in deliveries.ts).

/** An endpoint of the player's, locked while it changes; answers whether it is enabled. */
export function lockEndpointSql(id: string, playerId: string) {
  return sqlQuery(
    z.object({ enabled: z.boolean() }),
    Prisma.sql`SELECT enabled FROM webhook_endpoints WHERE id = ${id}::uuid AND player_id = ${playerId}::uuid FOR UPDATE`,
  );
}

/**
 * A new signing secret for the player's endpoint; the old one kept for `seconds` (0: dropped).
 * Answers the endpoint's id if it is the player's.
 */
export function rotateSecretSql(id: string, playerId: string, secret: string, seconds: number) {
  return sqlQuery(
    z.object({ id: z.string() }),
    Prisma.sql`
      UPDATE webhook_endpoints
         SET previous_secret = CASE WHEN ${seconds}::int > 0 THEN secret END,
             previous_secret_expires_at = CASE WHEN ${seconds}::int > 0 THEN now() + make_interval(secs => ${seconds}::int) END,
             secret = ${secret}, updated_at = now()
       WHERE id = ${id}::uuid AND player_id = ${playerId}::uuid
      RETURNING id::text AS id`,
  );
}

/** A disabled endpoint is not called: what was still due to it is given up (a re-send may revive one). */
export function giveUpPendingSql(endpointId: string): Prisma.Sql {
  return Prisma.sql`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, finished_at = now()
     WHERE endpoint_id = ${endpointId}::uuid AND status = 'pending'`;
}

/** The players whose endpoints these are. */
export function endpointOwnersSql(ids: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.string(), player_id: z.string() }),
    Prisma.sql`SELECT id::text AS id, player_id::text AS player_id FROM webhook_endpoints WHERE id = ANY(${ids}::uuid[])`,
  );
}

/** An endpoint as a run reads it: how to call it, its breaker, and its first `round` deliveries due now, in order. */
export function endpointRunSql(endpointId: string, round: number) {
  return sqlQuery(
    z.object({
      url: z.string(),
      secret: z.string(),
      previous_secret: z.string().nullable(),
      enabled: z.boolean(),
      timeouts: z.number(),
      paused: z.boolean(),
      due: jsonColumn(z.array(z.object({ id: z.string(), payload: z.unknown() }))),
    }),
    Prisma.sql`
      SELECT e.url, e.secret, e.enabled, e.timeouts,
             CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret,
             coalesce(e.paused_until > now(), false) AS paused,
             coalesce((SELECT json_agg(json_build_object('id', d.id, 'payload', d.payload) ORDER BY d.next_attempt_at, d.event_id)
                         FROM (SELECT d.id, d.payload, d.next_attempt_at, d.event_id FROM webhook_deliveries d
                                WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= now()
                                ORDER BY d.next_attempt_at, d.event_id
                                LIMIT ${round}) d), '[]'::json) AS due
        FROM webhook_endpoints e
       WHERE e.id = ${endpointId}::uuid`,
  );
}

/** One attempt of a run, as recordRunSql takes it. */
export interface AttemptRecord {
  id: string;
  at: string;
  ended: string;
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** What a run changes about its endpoint: its breaker and how long it has been failing. */
export interface RunOutcome {
  endpointId: string;
  /** Seconds to wait after the n-th failed attempt (1-based), for the next; past the list it is over. */
  schedule: readonly number[];
  timeouts: number;
  pausedUntil: string | null;
  /** Whether one attempt of the run succeeded: then failing_since restarts at firstFailure. */
  hadSuccess: boolean;
  firstFailure: string | null;
}

/**
 * In one statement: the run's attempts, the deliveries' new states (a retry counted from the end of
 * its own attempt, and not before a pause of the endpoint), the endpoint's health and its breaker.
 * Answers the endpoint's failing_since and whether it is enabled.
 */
export function recordRunSql(attempts: readonly AttemptRecord[], run: RunOutcome) {
  const { endpointId, schedule, timeouts, pausedUntil, hadSuccess, firstFailure } = run;
  return sqlQuery(
    z.object({ failing_since: z.date().nullable(), enabled: z.boolean() }),
    Prisma.sql`
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(${toJsonColumn(attempts)}::jsonb)
            AS r(id uuid, at timestamptz, ended timestamptz, ok boolean, status_code smallint, duration_ms int, error varchar)),
      -- The n-th failed attempt waits schedule[n] (1-based) for the next; past the schedule it is over.
      u AS (
        UPDATE webhook_deliveries d SET
               attempts = d.attempts + 1,
               status = (CASE WHEN r.ok THEN 'delivered'
                              WHEN (${schedule}::int[])[d.attempts + 1] IS NOT NULL THEN 'pending'
                              ELSE 'failed' END)::"WebhookDeliveryStatus",
               next_attempt_at = CASE WHEN r.ok OR (${schedule}::int[])[d.attempts + 1] IS NULL THEN NULL
                                      ELSE greatest(r.ended + make_interval(secs => (${schedule}::int[])[d.attempts + 1]),
                                                    ${pausedUntil}::timestamptz) END,
               finished_at = CASE WHEN r.ok OR (${schedule}::int[])[d.attempts + 1] IS NULL THEN now() END
          FROM r
         WHERE d.id = r.id AND d.status = 'pending'
        RETURNING d.id, d.attempts, r.at, r.status_code, r.duration_ms, r.error),
      a AS (
        INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, duration_ms, error)
        SELECT id, attempts, at, status_code, duration_ms, error FROM u
        ON CONFLICT (delivery_id, attempt) DO NOTHING
        RETURNING 1)
      UPDATE webhook_endpoints e
         SET failing_since = CASE WHEN ${hadSuccess} THEN ${firstFailure}::timestamptz ELSE coalesce(e.failing_since, ${firstFailure}::timestamptz) END,
             timeouts = ${timeouts}::int,
             paused_until = ${pausedUntil}::timestamptz
       WHERE e.id = ${endpointId}::uuid AND (SELECT count(*) FROM a) >= 0
      RETURNING e.failing_since, e.enabled`,
  );
}

/** Each enabled endpoint's earliest pending delivery and when it may run: not before its due time nor its pause. */
export function nextDueSql(endpointIds: readonly string[]) {
  return sqlQuery(
    z.object({ endpoint_id: z.string(), delivery_id: z.string(), run_at: z.date() }),
    Prisma.sql`
      SELECT e.id::text AS endpoint_id, n.id::text AS delivery_id, greatest(n.next_attempt_at, e.paused_until) AS run_at
        FROM webhook_endpoints e
        CROSS JOIN LATERAL (
          SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
           WHERE d.endpoint_id = e.id AND d.status = 'pending'
           ORDER BY d.next_attempt_at, d.event_id
           LIMIT 1) n
       WHERE e.id = ANY(${endpointIds}::uuid[]) AND e.enabled`,
  );
}

/** Disables an enabled endpoint, saying why. */
export function disableEndpointSql(endpointId: string, reason: string): Prisma.Sql {
  return Prisma.sql`
    UPDATE webhook_endpoints SET enabled = false, disabled_at = now(), disabled_reason = ${reason}, updated_at = now()
     WHERE id = ${endpointId}::uuid AND enabled`;
}

/**
 * The fan-out's one statement (WebhookDispatcher), for at most `endpoints` enabled endpoints of
 * `players` (null: of every player) that have feed events after their cursor, at most `batch`
 * events each: locks them (SKIP LOCKED), writes their deliveries, moves their cursors and queues
 * one deliver job for all. `horizon`: the feed's horizon when read.
 */
export function fanOutSql(players: string[] | null, endpoints: number, batch: number) {
  return sqlQuery(
    z.object({ endpoints: z.number(), most: z.number(), deliveries: z.number(), moved: z.number(), jobs: z.number(), horizon: z.string() }),
    Prisma.sql`
      WITH horizon AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
      ep AS MATERIALIZED (
        SELECT e.id, e.event_types, c.tx AS ctx, c.id AS cid, e.player_id
          FROM webhook_endpoints e
          CROSS JOIN LATERAL (
            SELECT split_part(coalesce(e.cursor, '0-0'), '-', 1)::xid8 AS tx, split_part(coalesce(e.cursor, '0-0'), '-', 2)::bigint AS id) c
         WHERE e.enabled
           AND (${players}::uuid[] IS NULL OR e.player_id = ANY(${players}::uuid[]))
           AND EXISTS (
                 SELECT 1 FROM player_events p, horizon h
                  WHERE p.player_id = e.player_id AND (p.tx, p.id) > (c.tx, c.id) AND p.tx < h.xmin)
         LIMIT ${endpoints}
         FOR UPDATE OF e SKIP LOCKED),
      ev AS MATERIALIZED (
        SELECT ep.id AS endpoint_id, ep.event_types, p.*
          FROM ep CROSS JOIN LATERAL (
            SELECT p.id, p.tx, p.type, p.game_id, p.lobby_id, p.seq, p.payload, p.created_at
              FROM player_events p, horizon h
             WHERE p.player_id = ep.player_id AND (p.tx, p.id) > (ep.ctx, ep.cid) AND p.tx < h.xmin
             ORDER BY p.tx, p.id
             LIMIT ${batch}) p),
      ins AS (
        INSERT INTO webhook_deliveries (id, endpoint_id, event_id, type, payload, next_attempt_at)
        SELECT gen_random_uuid(), ev.endpoint_id, ev.id, ev.type,
               -- The Standard Webhooks body (deliveryPayload), made here.
               jsonb_build_object(
                 'type', ev.type,
                 'timestamp', to_char(ev.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'data', jsonb_build_object('eventId', ev.tx::text || '-' || ev.id::text, 'gameId', ev.game_id, 'lobbyId', ev.lobby_id,
                                            'seq', ev.seq, 'payload', ev.payload)),
               now()
          FROM ev
         WHERE ev.type = ANY(ev.event_types)
         ORDER BY ev.endpoint_id, ev.tx, ev.id
        ON CONFLICT (endpoint_id, event_id) DO NOTHING
        RETURNING id, endpoint_id, event_id),
      moved AS (
        -- Past every event read, of the endpoint's types or not.
        UPDATE webhook_endpoints e SET cursor = l.tx::text || '-' || l.id::text
          FROM (SELECT DISTINCT ON (endpoint_id) endpoint_id, tx, id FROM ev ORDER BY endpoint_id, tx DESC, id DESC) l
         WHERE e.id = l.endpoint_id
        RETURNING e.id),
      -- One job for the pass, every endpoint's new deliveries in feed order (the sender works them
      -- per endpoint): a job per pass, not per endpoint, whatever the number of endpoints.
      jobs AS (
        SELECT ${Prisma.raw(JOB_QUEUE_SCHEMA)}.add_job(${DELIVER_TASK}::text, j.payload, max_attempts := 10)
          FROM (SELECT json_agg(json_build_object('endpointId', ins.endpoint_id, 'deliveryId', ins.id) ORDER BY ins.endpoint_id, ev.tx, ev.id) AS payload
                  FROM ins JOIN ev ON ev.endpoint_id = ins.endpoint_id AND ev.id = ins.event_id
                HAVING count(*) > 0) j)
      SELECT (SELECT count(*) FROM ep)::int AS endpoints,
             (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM ev GROUP BY endpoint_id) c)::int AS most,
             (SELECT count(*) FROM ins)::int AS deliveries,
             (SELECT count(*) FROM moved)::int AS moved,
             (SELECT count(*) FROM jobs)::int AS jobs,
             (SELECT xmin::text FROM horizon) AS horizon`,
  );
}

/**
 * Queues again the pending deliveries `overdueMs` past their time, of at most `endpoints` enabled
 * endpoints and at most `deliveries` each, keyed by the endpoint like a retry. `queued`: the endpoints.
 */
export function rescueOverdueSql(overdueMs: number, endpoints: number, deliveries: number) {
  return sqlQuery(
    z.object({ queued: z.number() }),
    Prisma.sql`
      WITH late_endpoints AS (
        SELECT e.id FROM webhook_endpoints e
         WHERE e.enabled
           AND EXISTS (SELECT 1 FROM webhook_deliveries d
                        WHERE d.endpoint_id = e.id AND d.status = 'pending'
                          AND d.next_attempt_at < now() - make_interval(secs => ${overdueMs / 1000}))
         LIMIT ${endpoints}),
      late AS (
        SELECT le.id AS endpoint_id,
               (SELECT json_agg(json_build_object('endpointId', le.id, 'deliveryId', d.id) ORDER BY d.next_attempt_at, d.event_id)
                  FROM (SELECT d.id, d.next_attempt_at, d.event_id FROM webhook_deliveries d
                         WHERE d.endpoint_id = le.id AND d.status = 'pending'
                           AND d.next_attempt_at < now() - make_interval(secs => ${overdueMs / 1000})
                         ORDER BY d.next_attempt_at, d.event_id
                         LIMIT ${deliveries}) d) AS payload
          FROM late_endpoints le),
      jobs AS (${addDeliverJobs(Prisma.sql`late`, Prisma.sql`now()`, true)})
      SELECT (SELECT count(*) FROM jobs)::int AS queued`,
  );
}

/** Drops the old secrets whose rotation window is over. */
export function dropExpiredSecretsSql(): Prisma.Sql {
  return Prisma.sql`
      UPDATE webhook_endpoints SET previous_secret = NULL, previous_secret_expires_at = NULL
       WHERE previous_secret_expires_at <= now()`;
}
