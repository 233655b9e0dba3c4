import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as sleep } from 'node:timers/promises';
import { HORIZON_RETRY_MS, wakeUps } from '../common/live-tail.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { PlayerFeedBus } from '../player-events/player-feed-bus.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { dropExpiredSecretsSql, fanOutSql, rescueOverdueSql } from './webhooks.sql.js';

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
    const [row] = await queryRows(this.prisma, rescueOverdueSql(overdueMs, RESCUE_ENDPOINTS, RESCUE_DELIVERIES));
    if (row.queued > 0) this.log.warn(`webhook deliveries overdue by more than ${Math.round(overdueMs / 1000)} s queued again for ${row.queued} endpoint(s)`);
    return row.queued;
  }

  /** The old secrets whose rotation window is over are dropped (the sender has stopped using them already). */
  async dropExpiredSecrets(): Promise<number> {
    return this.prisma.$executeRaw(dropExpiredSecretsSql());
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
    const [row] = await queryRows(this.prisma, fanOutSql(players, ENDPOINTS, BATCH));
    return { endpoints: row.endpoints, most: row.most, deliveries: row.deliveries, horizon: BigInt(row.horizon) };
  }
}

/** The newer of two noticed transactions; null is unknown, and a known one wins over it. */
function newer(a: bigint | null, b: bigint | null): bigint | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}
