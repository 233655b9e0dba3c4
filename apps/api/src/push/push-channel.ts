import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type pg from 'pg';
import webpush from 'web-push';
import { z } from 'zod';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { NoticeChannels } from '../notifications/notice-channels.js';
import type { Notice, NoticeChannel, NoticeKind } from '../notifications/notice.js';
import { JobQueue, onQueuePool } from '../outbox/job-queue.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { WebhookTransport } from '../webhooks/webhook-transport.js';
import { forgetSubscriptionSql, markSuccessSql, queueSendsSql, SEND_TASK, subscriptionForSendSql, sweepSendsSql, type QueuedNotice } from './push.sql.js';
import { VapidKeys } from './vapid-keys.js';

/** `push.send` jobs worked at once by an instance; each waits on a push service, not on the CPU. */
const SEND_CONCURRENCY = 8;
/** The bounds of a notice's text: a push message carries about 4 KB, and a notification shows a few lines. */
const TITLE_MAX = 120;
const BODY_MAX = 400;
/** Sends are remembered this long (a notice handed over again sends nothing), then swept, hourly. */
const SENDS_KEPT_DAYS = 7;
const SWEEP_EVERY_MS = 3_600_000;
/** Notices that something waits for the player now: push services wake a sleeping phone for them (RFC 8030 Urgency). */
const URGENT: readonly NoticeKind[] = ['yourTurn', 'turnReminder', 'deadlineNear'];

/**
 * What a device is sent (encrypted to its keys): the notice's words and where it opens, relative
 * to the site the service worker serves (`/#/games/…`). Never a card: the notice has none.
 */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  gameId: string | null;
  kind: NoticeKind;
  /** One notification per game (or lobby) in the tray: a newer one replaces the older. */
  tag: string;
}

const sendJob = z.object({
  subscriptionId: z.string().uuid(),
  feedEventId: z.string(),
  urgency: z.enum(['high', 'normal']),
  message: z.object({ title: z.string(), body: z.string(), url: z.string(), gameId: z.string().nullable(), kind: z.string(), tag: z.string() }),
});

/** A push service's answer that a later try may get past: busy (429) or failing (5xx). */
export class PushServiceBusy extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushServiceBusy';
  }
}

/**
 * The Web Push channel: `deliver` queues a `push.send` job per (device, notice), once; the job
 * encrypts the message to the device's keys (RFC 8291, aes128gcm), signs the request with the
 * server's VAPID key (RFC 8292) and POSTs it to the device's push service as a webhook is sent: the
 * endpoint's addresses judged first and the connection made to the address judged, the whole send
 * within PUSH_TIMEOUT_SECONDS. The push service's answer decides what follows: 2xx done; 404 or 410
 * the device is gone (its subscription removed); 429 and 5xx (and no answer) retried by the job
 * queue with its backoff; any other 4xx logged and dropped.
 */
@Injectable()
export class PushChannel implements NoticeChannel, OnModuleInit, OnApplicationBootstrap {
  readonly name = 'push' as const;
  private readonly log = new Logger('Push');
  private readonly settings: AppConfig['push'];
  private lastSweep = 0;

  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: JobQueue,
    private readonly transport: WebhookTransport,
    private readonly vapid: VapidKeys,
    private readonly channels: NoticeChannels,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('push', { infer: true });
  }

  onModuleInit(): void {
    if (this.settings.vapidSubject === null) {
      this.log.warn('No Web Push: VAPID_SUBJECT is unset and neither MAIL_FROM has an address nor PUBLIC_URL is https:');
      return;
    }
    this.channels.register(this);
    this.jobs.everyPoll((pool) => this.sweep(pool));
  }

  /** The worker of `push.send` jobs, apart from the clocks and the outbox: a send waits on another server. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.settings.vapidSubject === null) return;
    await this.jobs.runApart('push jobs', SEND_CONCURRENCY, { [SEND_TASK]: (payload) => this.send(payload) });
  }

  async deliver(notices: Notice[]): Promise<void> {
    if (notices.length === 0) return;
    const queued = notices.map(
      (notice): QueuedNotice => ({
        playerId: notice.playerId,
        feedEventId: notice.feedEventId,
        urgency: URGENT.includes(notice.kind) ? 'high' : 'normal',
        message: messageOf(notice),
      }),
    );
    await queryRows(this.prisma, queueSendsSql(queued));
  }

  /** One `push.send` job; throws to be retried. */
  async send(payload: unknown): Promise<void> {
    const job = sendJob.parse(payload);
    const [device] = await queryRows(this.prisma, subscriptionForSendSql(job.subscriptionId));
    if (!device) return; // the player stopped notifying it, or its push service forgot it
    const subject = this.settings.vapidSubject;
    if (subject === null) throw new Error('No VAPID subject: push is off on this instance');
    const request = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(job.message), {
      vapidDetails: { subject, ...this.vapid.keys },
      TTL: this.settings.ttlSeconds,
      urgency: job.urgency,
      contentEncoding: 'aes128gcm',
    });
    // The transport counts the body itself.
    const headers = Object.fromEntries(
      Object.entries(request.headers as Record<string, string | number>)
        .filter(([name]) => name.toLowerCase() !== 'content-length')
        .map(([name, value]) => [name, String(value)]),
    );
    const outcome = await this.transport.post(device.endpoint, headers, request.body as Buffer, { allowHttpLoopback: this.settings.allowHttpLoopback }, this.settings.timeoutMs);
    const status = outcome.statusCode;
    if (outcome.ok) {
      await this.prisma.$executeRaw(markSuccessSql(job.subscriptionId));
    } else if (status === 404 || status === 410) {
      await this.prisma.$executeRaw(forgetSubscriptionSql(job.subscriptionId));
      this.log.log(`push device ${job.subscriptionId} removed: its push service answered ${status}`);
    } else if (status === null || status === 429 || status >= 500) {
      throw new PushServiceBusy(`push to device ${job.subscriptionId} failed, tried again later: ${outcome.error ?? `HTTP ${status}`}`);
    } else {
      this.log.warn(`push to device ${job.subscriptionId} refused, not tried again: ${outcome.error ?? `HTTP ${status}`}`);
    }
  }

  /** Forgets old sends, at most hourly, on an instance that works jobs. */
  private async sweep(pool: pg.Pool): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    await onQueuePool(pool, sweepSendsSql(SENDS_KEPT_DAYS, 1000)).catch((error: unknown) => this.log.warn(`sweeping push sends: ${String(error)}`));
  }
}

export function messageOf(notice: Notice): PushMessage {
  return {
    title: clip(notice.title, TITLE_MAX),
    body: clip(notice.body, BODY_MAX),
    url: notice.path,
    gameId: notice.gameId,
    kind: notice.kind,
    tag: notice.gameId ? `game:${notice.gameId}` : notice.lobbyId ? `lobby:${notice.lobbyId}` : notice.kind,
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
