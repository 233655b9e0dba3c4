import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { queryRows, type RowOf } from '../common/sql-query.js';
import { JobQueue } from '../outbox/job-queue.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { deliveryBody, DELIVER_TASK, queueDeliverJobs, type DeliverJobEntry } from './deliveries.js';
import { sign } from './signature.js';
import { USER_AGENT, WebhookTransport, type SentAttempt } from './webhook-transport.js';
import { disableEndpointSql, endpointOwnersSql, endpointRunSql, giveUpPendingSql, nextDueSql, recordRunSql, type AttemptRecord } from './webhooks.sql.js';

/** Requests in flight to one endpoint at once (over its keep-alive connections). */
const IN_FLIGHT = 4;
/**
 * Endpoints sent to at once by this instance, all players together. They wait on receivers (up to
 * WEBHOOK_TIMEOUT_SECONDS each), not on the CPU.
 */
export const CAPACITY = 64;
/**
 * Endpoints of one player sent to at once: a player's slow receivers hold at most this share of
 * CAPACITY, and the other players' endpoints take their turns beside them, never behind.
 */
export const PLAYER_SHARE = 2;
/** `webhook.deliver` jobs worked at once: a job only hands its endpoints to the courier. */
const JOB_CONCURRENCY = 4;
/** Deliveries of one endpoint read together, at most; it has more sent in further rounds. */
const ROUND = 100;

type EndpointRow = RowOf<typeof endpointRunSql>;

/** One attempt of a run, and when it ended. */
interface Sent {
  id: string;
  attempt: SentAttempt;
  endedAt: number;
}

/**
 * The `webhook.deliver` job and the courier it feeds. A job names deliveries; it hands their
 * endpoints to the courier and is done (a job never waits on a receiver, so no receiver can hold
 * the queue). The courier runs each endpoint on its own: one run at a time per endpoint on an
 * instance (so its deliveries go out in order), at most PLAYER_SHARE endpoints of one player at
 * once, CAPACITY in all, the players taken in turn. A run reads the endpoint's due deliveries,
 * sends them over keep-alive connections to the address judged, and records at once, in one
 * statement, its attempts, each delivery's next attempt (counted from the end of its own attempt)
 * or `failed` after the last, and the endpoint's health; then it queues the endpoint's job again
 * (keyed by the endpoint) for the earliest of its pending deliveries. A failed attempt does not
 * fail the job (the queue's own backoff is not the schedule).
 *
 * The circuit breaker: a run whose last attempt timed out stops sending, and pauses the whole
 * endpoint (every pending delivery, and new ones) for the retry schedule's next wait, longer with
 * each run in a row that times out; after the pause one delivery is tried alone first. Only a time-
 * out trips it: other failures cost no waiting. An endpoint whose deliveries have all failed for
 * longer than the setting is disabled.
 *
 * What the courier holds is in memory: on shutdown the runs in flight finish (bounded by the
 * attempt's time-out) and the endpoints still waiting are queued as jobs again; after a crash the
 * dispatcher's sweep queues again what is overdue.
 */
@Injectable()
export class WebhookSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('Webhooks');
  private readonly settings: AppConfig['webhooks'];
  /** Per player (in turn order), the endpoints waiting for a run. */
  private readonly waiting = new Map<string, string[]>();
  /** Endpoints waiting, with their players. */
  private readonly queued = new Map<string, string>();
  /** Endpoints in a run; one asked for again meanwhile runs once more after it. */
  private readonly running = new Map<string, { playerId: string; again: boolean }>();
  private readonly perPlayer = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly prisma: PrismaService,
    private readonly transport: WebhookTransport,
    private readonly jobs: JobQueue,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('webhooks', { infer: true });
  }

  /** The worker of `webhook.deliver` jobs (kept apart from the job queue's other tasks). */
  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.runApart('webhook jobs', JOB_CONCURRENCY, { [DELIVER_TASK]: (payload) => this.deliverJob(entriesOf(payload)) });
  }

  /**
   * Before the database pools close (PrismaModule is global, so destroyed last): no new run, the
   * runs in flight finish and are recorded, and the endpoints still waiting are queued for later.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    const left = [...this.queued.keys()];
    this.waiting.clear();
    this.queued.clear();
    await Promise.allSettled([...this.inFlight]);
    if (left.length > 0) await this.requeue(left).catch((error: unknown) => this.log.warn(`webhook jobs not queued again: ${String(error)}`));
  }

  /** Hands the endpoints of these deliveries to the courier. */
  async deliverJob(entries: DeliverJobEntry[]): Promise<void> {
    // Failing the job makes the queue run it again later (here, or on another instance).
    if (this.stopping) throw new Error('the server is stopping: the webhook job runs again later');
    const ids = [...new Set(entries.map((e) => e.endpointId))];
    const owners = await queryRows(this.prisma, endpointOwnersSql(ids));
    for (const { id, player_id } of owners) this.want(id, player_id);
  }

  /** Asks for a run of the endpoint: now if its player's share and the capacity allow, else in turn. */
  private want(endpointId: string, playerId: string): void {
    if (this.stopping) return;
    const run = this.running.get(endpointId);
    if (run) {
      run.again = true;
      return;
    }
    if (this.queued.has(endpointId)) return;
    this.queued.set(endpointId, playerId);
    const list = this.waiting.get(playerId);
    if (list) list.push(endpointId);
    else this.waiting.set(playerId, [endpointId]);
    this.pump();
  }

  /** Starts the waiting runs that fit, one player's endpoint after another's. */
  private pump(): void {
    while (!this.stopping && this.inFlight.size < CAPACITY) {
      let next: [string, string] | null = null;
      for (const [playerId, list] of this.waiting) {
        if ((this.perPlayer.get(playerId) ?? 0) >= PLAYER_SHARE) continue;
        const endpointId = list.shift()!;
        // The player goes to the end of the turn order.
        this.waiting.delete(playerId);
        if (list.length > 0) this.waiting.set(playerId, list);
        next = [endpointId, playerId];
        break;
      }
      if (!next) return;
      this.queued.delete(next[0]);
      this.start(next[0], next[1]);
    }
  }

  private start(endpointId: string, playerId: string): void {
    const state = { playerId, again: false };
    this.running.set(endpointId, state);
    this.perPlayer.set(playerId, (this.perPlayer.get(playerId) ?? 0) + 1);
    const run: Promise<void> = this.run(endpointId)
      .catch((error: unknown) => {
        // The deliveries stay pending: the sweep queues them again when overdue.
        this.log.warn(`webhook endpoint ${endpointId}: ${String(error)}`);
      })
      .finally(() => {
        this.inFlight.delete(run);
        this.running.delete(endpointId);
        const n = (this.perPlayer.get(playerId) ?? 1) - 1;
        if (n === 0) this.perPlayer.delete(playerId);
        else this.perPlayer.set(playerId, n);
        if (state.again) this.want(endpointId, playerId);
        this.pump();
      });
    this.inFlight.add(run);
  }

  /** One endpoint's run: its due deliveries, round after round, then its job again for what waits. */
  private async run(endpointId: string): Promise<void> {
    for (;;) {
      const endpoint = await this.read(endpointId);
      if (!endpoint) return; // deleted
      if (!endpoint.enabled) {
        await this.prisma.$executeRaw(giveUpPendingSql(endpointId)); // disabled meanwhile
        return;
      }
      if (endpoint.paused || endpoint.due.length === 0) break;
      const { sent, tripped } = await this.send(endpointId, endpoint);
      await this.record(endpointId, endpoint, sent, tripped);
      if (tripped || endpoint.due.length < ROUND || this.stopping) break;
    }
    await this.requeue([endpointId]);
  }

  /** The endpoint, and its deliveries due now (in order), and whether its breaker pauses it. */
  private async read(endpointId: string): Promise<EndpointRow | undefined> {
    const [row] = await queryRows(this.prisma, endpointRunSql(endpointId, ROUND));
    return row;
  }

  /**
   * Sends the endpoint's due deliveries. After time-outs (the breaker was tripped) one goes alone
   * first, and the rest only if it was answered. Once one times out no other is begun.
   */
  private async send(endpointId: string, endpoint: EndpointRow): Promise<{ sent: Sent[]; tripped: boolean }> {
    const requests = endpoint.due.map((row) => {
      const body = deliveryBody(row.payload);
      return {
        body,
        headers: (timestamp: number) => ({
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': row.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign([endpoint.secret, endpoint.previous_secret], row.id, timestamp, body),
        }),
      };
    });
    const post = (from: number, to: number) =>
      this.transport.postAll(endpointId, endpoint.url, requests.slice(from, to), this.settings, this.settings.timeoutMs, IN_FLIGHT);
    let attempts = endpoint.timeouts > 0 ? await post(0, 1) : [];
    if (!attempts.some((a) => a?.timedOut) && attempts.length < requests.length) attempts = [...attempts, ...(await post(attempts.length, requests.length))];
    const sent: Sent[] = [];
    attempts.forEach((attempt, i) => {
      if (attempt) sent.push({ id: endpoint.due[i]!.id, attempt, endedAt: attempt.at.getTime() + attempt.durationMs });
    });
    // Tripped when a time-out was the run's last word: no answer ended after it.
    const timeoutEnds = sent.filter((s) => s.attempt.timedOut).map((s) => s.endedAt);
    const lastTimeout = timeoutEnds.length > 0 ? Math.max(...timeoutEnds) : null;
    const tripped = lastTimeout !== null && !sent.some((s) => !s.attempt.timedOut && s.endedAt > lastTimeout);
    return { sent, tripped };
  }

  /**
   * In one statement: the run's attempts, the deliveries' new states (a retry counted from the end
   * of its own attempt, and not before a pause of the endpoint), the endpoint's health and its
   * breaker; then, rarely, the disabling of an endpoint failing for too long.
   */
  private async record(endpointId: string, endpoint: EndpointRow, sent: readonly Sent[], tripped: boolean): Promise<void> {
    if (sent.length === 0) return;
    const attempts = sent.map(({ id, attempt, endedAt }): AttemptRecord => ({
      id,
      at: attempt.at.toISOString(),
      ended: new Date(endedAt).toISOString(),
      ok: attempt.ok,
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error: attempt.error?.slice(0, 512) ?? null,
    }));
    const schedule = this.settings.retrySchedule;
    // The breaker: paused for the schedule's n-th wait after n runs in a row timed out.
    const timeouts = tripped ? endpoint.timeouts + 1 : 0;
    const pauseSeconds = tripped ? (schedule[Math.min(timeouts, schedule.length) - 1] ?? 0) : 0;
    const lastEnd = Math.max(...sent.map((s) => s.endedAt));
    const pausedUntil = pauseSeconds > 0 ? new Date(lastEnd + pauseSeconds * 1000).toISOString() : null;
    // Failing since the first failure after the last success (attempts in the order they began).
    const ordered = [...sent].sort((a, b) => a.attempt.at.getTime() - b.attempt.at.getTime());
    const lastOk = ordered.findLastIndex((x) => x.attempt.ok);
    const failures = ordered.slice(lastOk + 1).filter((x) => !x.attempt.ok);
    const hadSuccess = lastOk >= 0;
    const firstFailure = failures[0]?.attempt.at.toISOString() ?? null;
    const [result] = await queryRows(
      this.prisma,
      recordRunSql(attempts, { endpointId, schedule, timeouts, pausedUntil, hadSuccess, firstFailure }),
    );
    if (!result || !result.enabled || result.failing_since === null || firstFailure === null) return;
    const since = result.failing_since;
    if (Date.now() - since.getTime() >= this.settings.disableAfterMs) await this.disable(endpointId, since, failures.at(-1)!.attempt.error);
  }

  /**
   * Queues each endpoint's job (keyed by the endpoint) for its earliest pending delivery, not before
   * its pause: a waiting job of the endpoint is moved to that time, right for all of its deliveries,
   * since a run reads them by endpoint.
   */
  private async requeue(endpointIds: readonly string[]): Promise<void> {
    const rows = await queryRows(this.prisma, nextDueSql(endpointIds));
    if (rows.length === 0) return;
    await queueDeliverJobs(
      this.prisma,
      rows.map((r) => ({
        endpointId: r.endpoint_id,
        payload: [{ endpointId: r.endpoint_id, deliveryId: r.delivery_id }],
        runAt: r.run_at.toISOString(),
      })),
      false,
    );
  }

  /** Failing for too long: disabled, saying why; what was still due is given up. */
  private async disable(endpointId: string, failingSince: Date, lastError: string | null): Promise<void> {
    const reason =
      `Disabled at ${new Date().toISOString()}: every delivery has failed since ${failingSince.toISOString()}; ` +
      `the last attempt: ${lastError ?? 'failed'}`;
    await this.prisma.$transaction([
      this.prisma.$executeRaw(disableEndpointSql(endpointId, reason.slice(0, 512))),
      this.prisma.$executeRaw(giveUpPendingSql(endpointId)),
    ]);
    this.log.warn(`webhook endpoint ${endpointId} disabled: ${reason}`);
  }
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
