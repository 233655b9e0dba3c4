import { z } from 'zod';
import { jsonColumn, toJsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The SQL of webhook endpoints and their deliveries (the fan-out's own is in webhook-dispatcher.ts,
// the job queue's in deliveries.ts).

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
