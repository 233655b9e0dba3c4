import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { Outbox } from '../outbox/outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { addDeliverJobs, deliveryBody, DELIVER_TASK, giveUpPendingSql, queueDeliverJobs, type DeliverJobEntry, type DeliverJobRequest } from './deliveries.js';
import { sign } from './signature.js';
import { USER_AGENT, WebhookTransport, type SentAttempt } from './webhook-transport.js';

/** Requests in flight to one endpoint at once (over its keep-alive connections). */
const IN_FLIGHT = 4;
/**
 * `webhook.deliver` jobs worked at once by this instance. They wait on receivers (up to
 * WEBHOOK_TIMEOUT_SECONDS each), not on the CPU, so they have a worker of their own: a slow
 * receiver never holds up the move clocks and the outbox (JOB_CONCURRENCY).
 */
const JOB_CONCURRENCY = 16;
/** Endpoints of one job sent to at once. */
const ENDPOINTS_AT_ONCE = 32;
/** Deliveries read together, at most; a job with more works them in rounds. */
const ROUND = 100;

interface DueRow {
  id: string;
  endpoint_id: string;
  payload: unknown;
  due: boolean;
  url: string;
  secret: string;
  enabled: boolean;
}

/**
 * The `webhook.deliver` job: sends the due ones of the deliveries it lists (pending, their time
 * come), per endpoint a few at a time over keep-alive connections to the address judged, then
 * records every attempt of the job in one statement: the attempts log, each delivery's new state
 * (the next attempt at the time the retry schedule gives, or `failed` after the last), each
 * endpoint's health, and per endpoint a job again (keyed by the endpoint) for what is still
 * pending, at the earliest time one is due. A failed attempt does not fail the job (the queue's own
 * backoff is not the schedule). An endpoint whose deliveries have all failed for longer than the
 * setting is disabled. On one instance an endpoint's sends never overlap, so they go out in order.
 */
@Injectable()
export class WebhookSender implements OnApplicationBootstrap {
  private readonly log = new Logger('Webhooks');
  private readonly settings: AppConfig['webhooks'];
  /** Per endpoint, the job running on this instance: the next one waits for it. */
  private readonly busy = new Map<string, Promise<void>>();
  /** Runs begun on this instance, and the number of each endpoint's last: a read older than it may be stale. */
  private runs = 0;
  private jobsRunning = 0;
  private readonly lastRun = new Map<string, number>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly transport: WebhookTransport,
    private readonly outbox: Outbox,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('webhooks', { infer: true });
  }

  /** The worker of `webhook.deliver` jobs (the job queue's other tasks are the Outbox's). */
  async onApplicationBootstrap(): Promise<void> {
    await this.outbox.runApart('webhook jobs', JOB_CONCURRENCY, { [DELIVER_TASK]: (payload) => this.deliverJob(entriesOf(payload)) });
  }

  /**
   * Works one job's deliveries: reads them in one statement (in rounds of ROUND), sends each
   * endpoint's (ENDPOINTS_AT_ONCE endpoints at a time), and records every attempt of the round in
   * one statement. An endpoint with another run on this instance (or one since the read) is left out
   * of the round's batch and worked alone after it, under its own turn, read again: one endpoint's
   * runs never overlap on an instance, and a batch never waits for another run while holding its
   * endpoints.
   */
  async deliverJob(entries: DeliverJobEntry[]): Promise<void> {
    const ids = [...new Set(entries.map((e) => e.deliveryId))];
    // A crash or a database error fails the job: the queue runs it again, whole (what was
    // already sent is no longer pending).
    this.jobsRunning++;
    try {
      for (let i = 0; i < ids.length; i += ROUND) await this.round(ids.slice(i, i + ROUND));
    } finally {
      // Forgotten only when no read is in flight that a forgotten run could have made stale.
      if (--this.jobsRunning === 0) this.lastRun.clear();
    }
  }

  private async round(ids: readonly string[]): Promise<void> {
    const readAt = this.runs;
    const busyAtRead = new Set(this.busy.keys());
    const rows = await this.read(ids);
    const byEndpoint = new Map<string, DueRow[]>();
    for (const row of rows) {
      const list = byEndpoint.get(row.endpoint_id);
      if (list) list.push(row);
      else byEndpoint.set(row.endpoint_id, [row]);
    }
    const free: [string, DueRow[]][] = [];
    const taken: [string, DueRow[]][] = [];
    for (const entry of byEndpoint) {
      const [endpointId] = entry;
      const stale = busyAtRead.has(endpointId) || this.busy.has(endpointId) || (this.lastRun.get(endpointId) ?? 0) > readAt;
      (stale ? taken : free).push(entry);
    }
    // The free ones, held together (no await between the check and the hold).
    await this.holding(
      free.map(([endpointId]) => endpointId),
      async () => this.record(await lanes(free, ([endpointId, read]) => this.send(endpointId, read))),
    );
    // The others, each after the run that holds it, read again.
    await lanes(taken, ([endpointId, read]) =>
      this.holding([endpointId], async () => this.record([await this.send(endpointId, await this.read(read.map((r) => r.id)))])),
    );
  }

  /** Runs `work` holding these endpoints on this instance, each after its run in progress, if any. */
  private async holding(endpointIds: readonly string[], work: () => Promise<void>): Promise<void> {
    if (endpointIds.length === 0) return;
    const before = endpointIds.map((id) => this.busy.get(id)).filter((p) => p !== undefined);
    const mine = Promise.all(before.map((p) => p.catch(() => undefined))).then(work);
    for (const id of endpointIds) {
      this.busy.set(id, mine);
      this.lastRun.set(id, ++this.runs);
    }
    try {
      await mine;
    } finally {
      for (const id of endpointIds) if (this.busy.get(id) === mine) this.busy.delete(id);
    }
  }

  /** The pending ones of these deliveries, in the order given, with their endpoints. */
  private read(ids: readonly string[]): Promise<DueRow[]> {
    return this.prisma.$queryRaw<DueRow[]>`
      SELECT d.id::text AS id, d.endpoint_id::text AS endpoint_id, d.payload, d.next_attempt_at <= now() AS due, e.url, e.secret, e.enabled
        FROM unnest(${[...ids]}::uuid[]) WITH ORDINALITY AS j(id, n)
        JOIN webhook_deliveries d ON d.id = j.id
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending'
       ORDER BY j.n`;
  }

  /**
   * Sends one endpoint's due deliveries of `rows` (its pending ones) over its connections; the not
   * yet due wait. A disabled endpoint's are given up.
   */
  private async send(endpointId: string, rows: readonly DueRow[]): Promise<EndpointRound> {
    const first = rows[0];
    const none: EndpointRound = { endpointId, sent: [], waiting: [] };
    if (!first) return none; // deleted, done, or given up
    if (!first.enabled) {
      await this.prisma.$executeRaw(giveUpPendingSql(endpointId)); // disabled meanwhile
      return none;
    }
    const due = rows.filter((r) => r.due);
    const waiting = rows.filter((r) => !r.due).map((r) => r.id);
    if (due.length === 0) return { endpointId, sent: [], waiting };
    const attempts = await this.transport.postAll(
      endpointId,
      first.url,
      due.map((row) => {
        const body = deliveryBody(row.payload);
        return {
          body,
          headers: (timestamp: number) => ({
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            'webhook-id': row.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': sign(row.secret, row.id, timestamp, body),
          }),
        };
      }),
      this.settings,
      this.settings.timeoutMs,
      IN_FLIGHT,
    );
    return { endpointId, sent: due.map((row, i) => ({ id: row.id, attempt: attempts[i]! })), waiting };
  }

  /**
   * In one statement: the attempts, the deliveries' new states, the endpoints' health, and each
   * endpoint's job again for what it still has pending (retries, and the not yet due), at the
   * earliest time one is due; then, rarely, the disabling of an endpoint failing for too long.
   */
  private async record(rounds: readonly EndpointRound[]): Promise<void> {
    const active = rounds.filter((r) => r.sent.length > 0 || r.waiting.length > 0);
    if (active.length === 0) return;
    const attempts: object[] = [];
    const health: { endpoint_id: string; had_success: boolean; first_failure: string | null }[] = [];
    const lastErrors = new Map<string, string | null>();
    for (const { endpointId, sent } of active) {
      for (const { id, attempt } of sent) {
        attempts.push({
          id,
          at: attempt.at.toISOString(),
          ok: attempt.ok,
          status_code: attempt.statusCode,
          duration_ms: attempt.durationMs,
          error: attempt.error?.slice(0, 512) ?? null,
        });
      }
      if (sent.length === 0) continue;
      // Failing since the first failure after the last success (attempts in the order they began).
      const ordered = [...sent].sort((a, b) => a.attempt.at.getTime() - b.attempt.at.getTime());
      const lastOk = ordered.findLastIndex((x) => x.attempt.ok);
      const failures = ordered.slice(lastOk + 1).filter((x) => !x.attempt.ok);
      health.push({ endpoint_id: endpointId, had_success: lastOk >= 0, first_failure: failures[0]?.attempt.at.toISOString() ?? null });
      if (failures.length > 0) lastErrors.set(endpointId, failures.at(-1)!.attempt.error);
    }
    const waiting = active.flatMap((r) => r.waiting);
    const schedule = this.settings.retrySchedule;
    const [result] = await this.prisma.$queryRaw<{ failing: { id: string; failing_since: string; enabled: boolean }[] | null; unqueued: DeliverJobRequest[] | null }[]>(Prisma.sql`
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(attempts)}::jsonb)
            AS r(id uuid, at timestamptz, ok boolean, status_code smallint, duration_ms int, error varchar)),
      -- The n-th failed attempt waits schedule[n] (1-based) for the next; past the schedule it is over.
      u AS (
        UPDATE webhook_deliveries d SET
               attempts = d.attempts + 1,
               status = (CASE WHEN r.ok THEN 'delivered'
                              WHEN (${schedule}::int[])[d.attempts + 1] IS NOT NULL THEN 'pending'
                              ELSE 'failed' END)::"WebhookDeliveryStatus",
               next_attempt_at = CASE WHEN r.ok THEN NULL
                                      ELSE now() + make_interval(secs => (${schedule}::int[])[d.attempts + 1]) END,
               finished_at = CASE WHEN r.ok OR (${schedule}::int[])[d.attempts + 1] IS NULL THEN now() END
          FROM r
         WHERE d.id = r.id
        RETURNING d.id, d.endpoint_id, d.attempts, d.status, d.next_attempt_at, d.event_id, r.at, r.status_code, r.duration_ms, r.error),
      a AS (
        INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, duration_ms, error)
        SELECT id, attempts, at, status_code, duration_ms, error FROM u
        ON CONFLICT (delivery_id, attempt) DO NOTHING
        RETURNING 1),
      h AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(health)}::jsonb) AS h(endpoint_id uuid, had_success boolean, first_failure timestamptz)),
      health AS (
        UPDATE webhook_endpoints e
           SET failing_since = CASE WHEN h.had_success THEN h.first_failure ELSE coalesce(e.failing_since, h.first_failure) END
          FROM h
         WHERE e.id = h.endpoint_id
           AND e.failing_since IS DISTINCT FROM (CASE WHEN h.had_success THEN h.first_failure ELSE coalesce(e.failing_since, h.first_failure) END)
        RETURNING e.id, e.failing_since),
      pending AS (
        SELECT u.id, u.endpoint_id, u.next_attempt_at, u.event_id FROM u WHERE u.status = 'pending'
        UNION ALL
        SELECT d.id, d.endpoint_id, d.next_attempt_at, d.event_id FROM webhook_deliveries d
         WHERE d.id = ANY(${waiting}::uuid[]) AND d.status = 'pending'),
      again AS (
        SELECT endpoint_id, min(next_attempt_at) AS run_at,
               json_agg(json_build_object('endpointId', endpoint_id, 'deliveryId', id) ORDER BY next_attempt_at, event_id) AS payload
          FROM pending GROUP BY endpoint_id),
      jobs AS (${addDeliverJobs(Prisma.sql`again`, Prisma.sql`f.run_at`, true)})
      SELECT (SELECT count(*) FROM a)::int AS attempts,
             (SELECT json_agg(json_build_object('id', e.id, 'failing_since', coalesce(hh.failing_since, e.failing_since), 'enabled', e.enabled))
                FROM h JOIN webhook_endpoints e ON e.id = h.endpoint_id LEFT JOIN health hh ON hh.id = e.id
               WHERE h.first_failure IS NOT NULL) AS failing,
             (SELECT json_agg(json_build_object('endpointId', g.endpoint_id, 'payload', g.payload, 'runAt', g.run_at))
                FROM again g WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.key = 'webhook:' || g.endpoint_id::text)) AS unqueued`);
    if (result?.unqueued) await queueDeliverJobs(this.prisma, result.unqueued, true);
    for (const endpoint of result?.failing ?? []) {
      const since = new Date(endpoint.failing_since);
      if (endpoint.enabled && Date.now() - since.getTime() >= this.settings.disableAfterMs) await this.disable(endpoint.id, since, lastErrors.get(endpoint.id) ?? null);
    }
  }

  /** Failing for too long: disabled, saying why; what was still due is given up. */
  private async disable(endpointId: string, failingSince: Date, lastError: string | null): Promise<void> {
    const reason =
      `Disabled at ${new Date().toISOString()}: every delivery has failed since ${failingSince.toISOString()}; ` +
      `the last attempt: ${lastError ?? 'failed'}`;
    await this.prisma.$transaction([
      this.prisma.$executeRaw`
        UPDATE webhook_endpoints SET enabled = false, disabled_at = now(), disabled_reason = ${reason.slice(0, 512)}, updated_at = now()
         WHERE id = ${endpointId}::uuid AND enabled`,
      this.prisma.$executeRaw(giveUpPendingSql(endpointId)),
    ]);
    this.log.warn(`webhook endpoint ${endpointId} disabled: ${reason}`);
  }
}

/** One endpoint's part of a round: what was attempted, and what waits (not yet due). */
interface EndpointRound {
  endpointId: string;
  sent: { id: string; attempt: SentAttempt }[];
  waiting: string[];
}

/** Runs `work` on every item, ENDPOINTS_AT_ONCE at a time; the results in the items' order. */
async function lanes<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ENDPOINTS_AT_ONCE, items.length) }, lane));
  return results;
}

function entriesOf(payload: unknown): DeliverJobEntry[] {
  const entries = Array.isArray(payload) ? payload : [payload];
  return entries.map((entry) => {
    const { endpointId, deliveryId } = (entry ?? {}) as Partial<DeliverJobEntry>;
    if (typeof endpointId !== 'string' || typeof deliveryId !== 'string') {
      throw new Error(`A webhook job without an endpoint and a delivery id: ${JSON.stringify(payload)}`);
    }
    return { endpointId, deliveryId };
  });
}
