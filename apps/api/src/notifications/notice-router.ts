import { Inject, Optional, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { z } from 'zod';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { JobQueue } from '../outbox/job-queue.js';
import { readFeed } from '../player-events/feed.js';
import { PlayerFeedBus } from '../player-events/player-feed-bus.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { NOTICE_CLOCK, systemClock, type NoticeClock } from './clock.js';
import type { Notice } from './notice.js';
import { NoticeChannels } from './notice-channels.js';
import { noticeOf, TURN_KINDS } from './notices.js';
import {
  dueNoticesSql,
  ensureCursorSql,
  finishNoticesSql,
  holdNoticesSql,
  insertNoticesSql,
  lockCursorSql,
  moveCursorSql,
  nextDueSql,
  playerNoticeStateSql,
  playersBehindSql,
  setJobSql,
  type NoticeRow,
} from './notifications.sql.js';
import { preferencesOf, quietUntil, type ChannelName, type Preferences } from './preferences.js';
import { LIVE_WINDOW_MS, Presence } from './presence.js';

export const SEND_TASK = 'notifications.send';
/** Feed events routed for one player in one transaction, at most; more are read by the next. */
const BATCH = 200;
/** Players worked by one sweep, at most (the next takes the rest). */
const SWEEP_PLAYERS = 1000;
/** A wake-up waits this long, so that the events of many commits are routed in one pass. */
const WAKE_DELAY_MS = 100;

const sendPayload = z.object({ playerId: z.uuid() });

/** What the player's preferences, address and presence are, for routing and sending. */
interface PlayerState {
  prefs: Preferences;
  email: string | null;
  lastActiveAt: Date | null;
}

/**
 * Routing: turns the players' feed events into notices per channel, once, durably, as the
 * webhooks' fan-out does (webhooks/webhook-dispatcher.ts). Each player has a cursor in their feed
 * (notification_settings), read below the horizon, locked with SKIP LOCKED while it moves, so two
 * instances never route one player at once. A routed event becomes one notice_sends row per channel
 * (unique per channel, player and feed event: a repeat writes nothing), due now or when the
 * player's quiet hours end, and a keyed `notifications.send` job per player at the first due time.
 *
 * The job hands the due notices to the channels (NoticeChannels) after weighing them again at that
 * moment: a turn already played (superseded) or a player who is here now (Presence) drops them.
 * Woken by the PlayerFeedBus; a sweep on a timer catches what other instances wrote or a lost notice.
 */
@Injectable()
export class NoticeRouter implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Notifications');
  private readonly settings: AppConfig['notifications'];
  private readonly worker: boolean;
  private readonly pending = new Set<string>();
  private wake: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private unlisten: (() => void) | null = null;

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: PlayerFeedBus,
    private readonly jobs: JobQueue,
    private readonly channels: NoticeChannels,
    private readonly presence: Presence,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(NOTICE_CLOCK) private readonly clock: NoticeClock = systemClock,
  ) {
    this.settings = config.get('notifications', { infer: true });
    this.worker = config.get('jobs', { infer: true }).worker;
  }

  onModuleInit(): void {
    this.jobs.task(SEND_TASK, async (payload) => {
      await this.sendDue(sendPayload.parse(payload).playerId);
    });
  }

  onApplicationBootstrap(): void {
    if (!this.worker) return; // an instance that works no jobs leaves routing to the others
    const { emitter, event } = this.bus.wakesAll();
    const listener = (ids: readonly string[]) => {
      for (const id of ids) this.pending.add(id);
      this.wake ??= setTimeout(() => {
        this.wake = null;
        this.enqueue(() => this.routePending());
      }, WAKE_DELAY_MS).unref();
    };
    emitter.on(event, listener);
    this.unlisten = () => emitter.off(event, listener);
    this.sweep = setInterval(() => this.enqueue(() => this.routeBehind()), this.settings.sweepMs).unref();
    this.enqueue(() => this.routeBehind());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    if (this.wake) clearTimeout(this.wake);
    if (this.sweep) clearInterval(this.sweep);
    await this.running;
  }

  /** Passes never overlap on an instance; a failed one is logged and the sweep comes back to it. */
  private enqueue(pass: () => Promise<unknown>): void {
    this.running = this.running.then(async () => { if (!this.stopped) await pass(); }).catch((error: unknown) => this.log.warn(`routing notices: ${String(error)}`));
  }

  private async routePending(): Promise<void> {
    const ids = [...this.pending];
    this.pending.clear();
    for (const id of ids) if (!this.stopped) await this.routePlayer(id);
  }

  /** Routes every player whose feed is ahead of their cursor (the sweep); old notices are the retention job's (NOTICE_RETENTION_SECONDS). */
  async routeBehind(): Promise<void> {
    const rows = await queryRows(this.prisma, playersBehindSql(SWEEP_PLAYERS));
    for (const row of rows) if (!this.stopped) await this.routePlayer(row.player_id);
  }

  /**
   * Routes the player's feed from their cursor up to the horizon, a batch per transaction. Nothing
   * when another instance holds the player's cursor (it routes the same events).
   */
  async routePlayer(playerId: string): Promise<void> {
    for (;;) {
      const read = await this.prisma.$transaction(async (tx) => {
        await tx.$executeRaw(ensureCursorSql(playerId));
        const [cursor] = await queryRows(tx, lockCursorSql(playerId));
        if (!cursor) return 0;
        const events = await readFeed(tx, playerId, { tx: BigInt(cursor.tx), id: cursor.id }, BATCH);
        if (events.length === 0) return 0;
        const now = this.clock.now();
        const state = await this.state(tx, playerId);
        const rows: NoticeRow[] = [];
        for (const event of events) {
          if (now - event.createdAt.getTime() > this.settings.maxAgeMs) continue; // old news is not sent
          const made = noticeOf(playerId, event, now);
          if (!made) continue;
          const seat = typeof event.payload.seat === 'number' ? event.payload.seat : null;
          for (const channel of this.channels.names()) {
            if (made.only && !made.only.includes(channel)) continue;
            if (!this.wants(state, channel, made.notice)) continue;
            const due = quietUntil(state.prefs, now) ?? now;
            rows.push({ channel, notice: made.notice, seat, seq: event.seq, dueAt: new Date(due).toISOString(), dropped: null });
          }
        }
        if (rows.length > 0) await tx.$executeRaw(insertNoticesSql(playerId, rows, new Date(now)));
        const last = events[events.length - 1].cursor;
        await tx.$executeRaw(moveCursorSql(playerId, last.tx, last.id));
        if (rows.length > 0) await this.scheduleSend(tx, playerId, now);
        return events.length;
      });
      if (read < BATCH || this.stopped) return;
    }
  }

  /** Sets the player's send job at their first pending notice's time (now at the earliest). */
  private async scheduleSend(tx: Parameters<Parameters<PrismaService['$transaction']>[0]>[0], playerId: string, now: number): Promise<void> {
    const [next] = await queryRows(tx, nextDueSql(playerId));
    if (!next?.due_at) return;
    // The job queue runs by the real clock; a fake clock's "now" must not push the job into the future.
    const runAt = next.due_at.getTime() <= now ? new Date() : new Date(Date.now() + (next.due_at.getTime() - now));
    await tx.$executeRaw(setJobSql(SEND_TASK, `notices:${playerId}`, { playerId }, runAt));
  }

  private async state(db: Parameters<typeof queryRows>[0], playerId: string): Promise<PlayerState> {
    const [row] = await queryRows(db, playerNoticeStateSql(playerId));
    const defaults = { digestMinutes: this.settings.digestMinutes, activeMinutes: this.settings.activeMinutes };
    return { prefs: preferencesOf(row?.found ? row : undefined, defaults), email: row?.email ?? null, lastActiveAt: row?.last_active_at ?? null };
  }

  /** Whether the player wants this notice on this channel (their kinds; email on and to a verified address). */
  private wants(state: PlayerState, channel: ChannelName, notice: Notice): boolean {
    if (channel === 'email') return state.prefs.emailMode !== 'never' && state.email !== null && state.prefs.emailKinds.includes(notice.kind);
    return state.prefs.pushKinds.includes(notice.kind);
  }

  /** Whether the player is here: a live connection on this instance, or seen lately on any (Presence). */
  private active(playerId: string, state: PlayerState, now: number): boolean {
    if (this.presence.isLiveHere(playerId)) return true;
    if (!state.lastActiveAt) return false;
    const window = Math.max(state.prefs.activeMinutes * 60_000, LIVE_WINDOW_MS);
    return now - state.lastActiveAt.getTime() < window;
  }

  /**
   * The send job: hands the player's due notices to their channels. Each is weighed again now: a
   * turn played meanwhile, a player who is here, a channel gone or turned off drop it; quiet hours
   * begun meanwhile (the settings changed) hold it again. The rows are marked in the transaction
   * that read them (locked: another instance skips them), and the channels are handed them after
   * it commits; a channel keys its sends by (player, feedEventId), so a repeat sends nothing twice.
   */
  async sendDue(playerId: string): Promise<void> {
    const handed = await this.prisma.$transaction(async (tx) => {
      const now = this.clock.now();
      const at = new Date(now);
      const due = await queryRows(tx, dueNoticesSql(playerId, at, TURN_KINDS));
      if (due.length === 0) return new Map<ChannelName, Notice[]>();
      const state = await this.state(tx, playerId);
      const active = this.active(playerId, state, now);
      const quiet = quietUntil(state.prefs, now);
      const drop = new Map<string, bigint[]>();
      const out = new Map<ChannelName, Notice[]>();
      const handedIds: bigint[] = [];
      const held: bigint[] = [];
      for (const row of due) {
        const channel = row.channel as ChannelName;
        const reason = row.superseded
          ? 'superseded'
          : active
            ? 'active'
            : !this.channels.get(channel)
              ? 'unavailable'
              : !this.wants(state, channel, row.stored.notice)
                ? 'off'
                : null;
        if (reason) {
          drop.set(reason, [...(drop.get(reason) ?? []), row.id]);
        } else if (quiet !== null) {
          held.push(row.id);
        } else {
          out.set(channel, [...(out.get(channel) ?? []), row.stored.notice]);
          handedIds.push(row.id);
        }
      }
      for (const [reason, ids] of drop) await tx.$executeRaw(finishNoticesSql(ids, 'dropped', reason, at));
      if (handedIds.length > 0) await tx.$executeRaw(finishNoticesSql(handedIds, 'handed', null, at));
      if (held.length > 0 && quiet !== null) {
        await tx.$executeRaw(holdNoticesSql(held, new Date(quiet)));
      }
      await this.scheduleSend(tx, playerId, now);
      return out;
    });
    for (const [name, notices] of handed) await this.channels.get(name)?.deliver(notices);
  }
}

