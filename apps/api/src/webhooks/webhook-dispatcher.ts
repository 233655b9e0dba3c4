import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as sleep } from 'node:timers/promises';
import { HORIZON_RETRY_MS, wakeUps } from '../common/live-tail.js';
import type { AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { PlayerFeedBus } from '../player-events/player-feed-bus.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { addDeliverJobs, DELIVER_TASK } from './deliveries.js';

/** Feed events read for one endpoint in one statement, at most; more are read by the next. */
const BATCH = 500;
/** Endpoints worked by one statement, at most. */
const ENDPOINTS = 200;
/** Players named in one statement, at most. */
const PLAYERS = 1000;
/** A wake-up waits this long, so that the events of many commits go out in one pass (one statement, one job). */
const WAKE_DELAY_MS = 100;
/**
 * A pending delivery this long past its time has lost its job (the job failed for good, or was
 * lost with the queue's data): the sweep queues it again. Far longer than a busy queue's delay.
 */
export const OVERDUE_MS = 5 * 60_000;
/** Endpoints, and deliveries per endpoint, queued again by one sweep at most (the next takes the rest). */
const RESCUE_ENDPOINTS = 200;
const RESCUE_DELIVERIES = 500;

/** What one fan-out statement did. */
export interface FanOut {
  /** Endpoints locked and read. */
  endpoints: number;
  /** The most events read for one endpoint (BATCH: there may be more). */
  most: number;
  /** Deliveries written. */
  deliveries: number;
  /** The feed's horizon when read: transactions from it on were not read yet. */
  horizon: bigint;
}

/**
 * Fan-out: turns the players' feed events into deliveries, once, durably. Each enabled endpoint
 * keeps a cursor in its player's feed. One statement (data-modifying CTEs, no round trip between
 * its steps) works a batch of endpoints: it locks their rows (SKIP LOCKED: two instances never work
 * the same endpoint at once), reads each player's feed after the endpoint's cursor below the horizon
 * (as the streams do: nothing committed late is skipped), inserts a delivery for each event of the
 * endpoint's types, moves each cursor past every event read, and queues one `webhook.deliver` job
 * listing every delivery it wrote. A repeat is harmless (one delivery per endpoint and event).
 *
 * A notice on the PlayerFeedBus names the players whose feeds grew: only their endpoints are
 * worked. A sweep over every endpoint runs on a timer (for what other instances wrote, or a lost
 * notice) and at start-up.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Webhooks');
  private readonly settings: AppConfig['webhooks'];
  private readonly worker: boolean;
  private running: Promise<void> | null = null;
  /** Players whose noticed transaction was not yet below the horizon, and how often that was seen. */
  private awaited = new Map<string, { tx: bigint; tries: number }>();
  private readonly stop = new AbortController();

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: PlayerFeedBus,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('webhooks', { infer: true });
    this.worker = config.get('jobs', { infer: true }).worker;
  }

  private get stopped(): boolean {
    return this.stop.signal.aborted;
  }

  onApplicationBootstrap(): void {
    if (!this.worker) return; // an instance that works no jobs leaves fan-out to the others
    this.running = this.run().catch((error: unknown) => this.log.error(`webhook fan-out stopped: ${String(error)}`));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop.abort();
    await this.running;
  }

  /**
   * The fan-out's live tail of every player's feed: woken by the PlayerFeedBus (the players named),
   * a sweep over every endpoint on a timer (what other instances wrote, a lost notice) and at
   * start-up (what was written while no instance ran), and a noticed commit not yet below the
   * horizon looked at again shortly. A wake-up waits WAKE_DELAY_MS so that the events of many
   * commits go out in one pass; passes never overlap, and what is heard during one is worked by
   * the next. Ends with the server, after the pass under way.
   */
  private async run(): Promise<void> {
    const signal = this.stop.signal;
    const wakes = wakeUps(this.bus.wakesAll(), signal);
    let noticed = new Map<string, bigint | null>();
    const hear = (heard: readonly unknown[][]) => {
      for (const [playerIds, tx] of heard as [readonly string[], bigint | null][]) {
        for (const id of playerIds) noticed.set(id, newer(noticed.get(id) ?? null, tx));
      }
    };
    let sweepAt = Date.now(); // at once: what was written while no instance ran
    let retry: { at: number; players: readonly string[] } | null = null;
    try {
      while (!signal.aborted) {
        const now = Date.now();
        const all = now >= sweepAt;
        // Only a retry is due: its commit was heard already, so it does not wait for others to join it.
        const retryOnly = !all && noticed.size === 0 && retry !== null && now >= retry.at;
        if (retry && now >= retry.at) {
          for (const id of retry.players) if (!noticed.has(id)) noticed.set(id, null);
          retry = null;
        }
        if (!all && noticed.size === 0) {
          hear(await wakes.wait(Math.max(0, Math.min(sweepAt, retry?.at ?? Infinity) - now)));
          continue;
        }
        if (!retryOnly) await sleep(WAKE_DELAY_MS, undefined, { signal, ref: false }).catch(() => undefined);
        hear(await wakes.heard());
        if (signal.aborted) return;
        if (all) sweepAt = Date.now() + this.settings.sweepMs;
        const players = noticed;
        noticed = new Map();
        try {
          const again = await this.pass(all, players);
          if (again) retry = { at: Date.now() + again.waitMs, players: again.players };
        } catch (error) {
          this.log.warn(`webhook fan-out: ${String(error)}`);
        }
      }
    } finally {
      await wakes.close();
    }
  }

  /** Works what was noticed: every endpoint when a sweep is due, else the noticed players'. Returns the players to look at again, and when. */
  private async pass(all: boolean, noticed: Map<string, bigint | null>): Promise<{ players: string[]; waitMs: number } | null> {
    if (all) {
      await this.dispatchAll();
      await this.rescueOverdue();
      await this.dropExpiredSecrets();
      return null;
    }
    const ids = [...noticed.keys()];
    let horizon: bigint | null = null;
    for (let i = 0; i < ids.length && !this.stopped; i += PLAYERS) {
      const h = await this.dispatchPlayers(ids.slice(i, i + PLAYERS));
      if (h !== null) horizon = horizon === null || h < horizon ? h : horizon;
    }
    return this.behindHorizon(noticed, horizon);
  }

  /**
   * A noticed commit whose transaction is not below the horizon yet (an older transaction was still
   * running) was not read: look again on the streams' schedule (HORIZON_RETRY_MS); the sweep is the net.
   */
  private behindHorizon(noticed: Map<string, bigint | null>, horizon: bigint | null): { players: string[]; waitMs: number } | null {
    if (horizon === null || this.stopped) return null;
    let wait: number | null = null;
    const again: string[] = [];
    for (const [id, tx] of noticed) {
      const before = this.awaited.get(id);
      const want = tx ?? before?.tx ?? null;
      if (want === null || want < horizon) {
        this.awaited.delete(id);
        continue;
      }
      const tries = before && before.tx === want ? before.tries + 1 : 0;
      const delay = HORIZON_RETRY_MS[tries];
      if (delay === undefined) {
        this.awaited.delete(id);
        continue;
      }
      this.awaited.set(id, { tx: want, tries });
      again.push(id);
      wait = wait === null ? delay : Math.min(wait, delay);
    }
    return wait === null ? null : { players: again, waitMs: wait };
  }

  /** One pass over every enabled endpoint whose player has feed events after its cursor. */
  async dispatchAll(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const done = await this.fanOut(null);
      if (done.endpoints < ENDPOINTS && done.most < BATCH) return;
    }
  }

  /**
   * Queues again the pending deliveries of enabled endpoints that are `overdueMs` past their time:
   * a job that failed for good must not leave them pending for ever. Keyed by the endpoint like a
   * retry, so a job of the endpoint not started yet is joined, not doubled. A delivery sent twice
   * in a rare race is what Standard Webhooks receivers expect (the same webhook-id). Returns the
   * endpoints queued.
   */
  async rescueOverdue(overdueMs = OVERDUE_MS): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ queued: number }[]>(Prisma.sql`
      WITH late_endpoints AS (
        SELECT e.id FROM webhook_endpoints e
         WHERE e.enabled
           AND EXISTS (SELECT 1 FROM webhook_deliveries d
                        WHERE d.endpoint_id = e.id AND d.status = 'pending'
                          AND d.next_attempt_at < now() - make_interval(secs => ${overdueMs / 1000}))
         LIMIT ${RESCUE_ENDPOINTS}),
      late AS (
        SELECT le.id AS endpoint_id,
               (SELECT json_agg(json_build_object('endpointId', le.id, 'deliveryId', d.id) ORDER BY d.next_attempt_at, d.event_id)
                  FROM (SELECT d.id, d.next_attempt_at, d.event_id FROM webhook_deliveries d
                         WHERE d.endpoint_id = le.id AND d.status = 'pending'
                           AND d.next_attempt_at < now() - make_interval(secs => ${overdueMs / 1000})
                         ORDER BY d.next_attempt_at, d.event_id
                         LIMIT ${RESCUE_DELIVERIES}) d) AS payload
          FROM late_endpoints le),
      jobs AS (${addDeliverJobs(Prisma.sql`late`, Prisma.sql`now()`, true)})
      SELECT (SELECT count(*) FROM jobs)::int AS queued`);
    if (row.queued > 0) this.log.warn(`webhook deliveries overdue by more than ${Math.round(overdueMs / 1000)} s queued again for ${row.queued} endpoint(s)`);
    return row.queued;
  }

  /** The old secrets whose rotation window is over are dropped (the sender has stopped using them already). */
  async dropExpiredSecrets(): Promise<number> {
    return this.prisma.$executeRaw`
      UPDATE webhook_endpoints SET previous_secret = NULL, previous_secret_expires_at = NULL
       WHERE previous_secret_expires_at <= now()`;
  }

  /** Fans out the endpoints of these players, until their feeds are read up to the horizon; returns the horizon. */
  async dispatchPlayers(playerIds: readonly string[]): Promise<bigint | null> {
    let horizon: bigint | null = null;
    for (;;) {
      if (this.stopped || playerIds.length === 0) return horizon;
      const done = await this.fanOut(playerIds);
      horizon = done.horizon;
      if (done.endpoints < ENDPOINTS && done.most < BATCH) return horizon;
    }
  }

  /**
   * The one statement of the fan-out, for the endpoints of `playerIds` (null: of every player) that
   * have feed events after their cursor. A failure leaves every cursor where it was.
   */
  private async fanOut(playerIds: readonly string[] | null): Promise<FanOut> {
    const players = playerIds === null ? null : [...playerIds];
    const [row] = await this.prisma.$queryRaw<{ endpoints: number; most: number; deliveries: number; horizon: string }[]>(Prisma.sql`
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
         LIMIT ${ENDPOINTS}
         FOR UPDATE OF e SKIP LOCKED),
      ev AS MATERIALIZED (
        SELECT ep.id AS endpoint_id, ep.event_types, p.*
          FROM ep CROSS JOIN LATERAL (
            SELECT p.id, p.tx, p.type, p.game_id, p.lobby_id, p.seq, p.payload, p.created_at
              FROM player_events p, horizon h
             WHERE p.player_id = ep.player_id AND (p.tx, p.id) > (ep.ctx, ep.cid) AND p.tx < h.xmin
             ORDER BY p.tx, p.id
             LIMIT ${BATCH}) p),
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
             (SELECT xmin::text FROM horizon) AS horizon`);
    return { endpoints: row.endpoints, most: row.most, deliveries: row.deliveries, horizon: BigInt(row.horizon) };
  }
}

/** The newer of two noticed transactions; null is unknown, and a known one wins over it. */
function newer(a: bigint | null, b: bigint | null): bigint | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}
