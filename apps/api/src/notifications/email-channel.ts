import { Inject, Optional, Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Mailer } from '../accounts/mailer.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { JobQueue } from '../outbox/job-queue.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { NOTICE_CLOCK, systemClock, type NoticeClock } from './clock.js';
import type { Notice, NoticeChannel } from './notice.js';
import { NoticeChannels } from './notice-channels.js';
import { gamePath, timeLeft } from './notices.js';
import {
  finishNoticesSql,
  handedEmailsSql,
  markDigestSql,
  playerNoticeStateSql,
  setJobSql,
  unsubscribeTokenSql,
  waitingGamesSql,
} from './notifications.sql.js';
import { preferencesOf } from './preferences.js';

export const EMAIL_TASK = 'notifications.email';
const emailPayload = z.object({ playerId: z.uuid() });

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A mail as the channel composes it (to, subject, parts, headers). */
interface Composed {
  subject: string;
  text: string;
  html: string;
}

/**
 * The email channel: mails notices to the player's verified address, one mail per notice
 * (`immediate`) or at most one digest per interval (`digest`) listing every game waiting for their
 * move, soonest deadline first. Every mail has plain-text and HTML parts (all text escaped), the
 * game's link, and a one-click unsubscribe (RFC 8058) whose token turns email off for the player.
 *
 * Durable: the notices handed to it are rows of notice_sends (status `handed`); a keyed job per
 * player (`notifications.email`) sends them, locking them (SKIP LOCKED) while it does, and marks
 * them `sent` in the same transaction. A failed send throws: the job queue retries it, and nothing
 * was marked. Registered only when SMTP_URL is set.
 */
@Injectable()
export class EmailChannel implements NoticeChannel, OnModuleInit {
  readonly name = 'email' as const;
  private readonly publicUrl: string;
  private readonly digestDefault: number;
  private readonly activeDefault: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly mailer: Mailer,
    private readonly jobs: JobQueue,
    private readonly channels: NoticeChannels,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(NOTICE_CLOCK) private readonly clock: NoticeClock = systemClock,
  ) {
    const base = config.get('mail', { infer: true }).publicUrl ?? `http://localhost:${config.get('port', { infer: true })}`;
    this.publicUrl = base.replace(/\/+$/, '');
    const n = config.get('notifications', { infer: true });
    this.digestDefault = n.digestMinutes;
    this.activeDefault = n.activeMinutes;
  }

  onModuleInit(): void {
    if (!this.mailer.enabled) return; // without SMTP there is no email channel
    this.channels.register(this);
    this.jobs.task(EMAIL_TASK, async (payload) => {
      await this.send(emailPayload.parse(payload).playerId);
    });
  }

  /** The rows are `handed` already (the router marked them): a job per player sends them. */
  async deliver(notices: Notice[]): Promise<void> {
    for (const playerId of new Set(notices.map((n) => n.playerId))) {
      await this.prisma.$executeRaw(setJobSql(EMAIL_TASK, `email:${playerId}`, { playerId }, new Date()));
    }
  }

  /**
   * Sends what was handed for the player: each notice alone, or a digest when one is due (else the
   * job is set again for when it is). Returns the mails sent.
   */
  async send(playerId: string): Promise<number> {
    return this.prisma.$transaction(
      async (tx) => {
        const rows = await queryRows(tx, handedEmailsSql(playerId));
        if (rows.length === 0) return 0;
        const now = this.clock.now();
        const at = new Date(now);
        const [state] = await queryRows(tx, playerNoticeStateSql(playerId));
        const prefs = preferencesOf(state?.found ? state : undefined, { digestMinutes: this.digestDefault, activeMinutes: this.activeDefault });
        const ids = rows.map((r) => r.id);
        if (!state?.email || prefs.emailMode === 'never') {
          await tx.$executeRaw(finishNoticesSql(ids, 'dropped', 'off', at));
          return 0;
        }
        const [{ token }] = await queryRows(tx, unsubscribeTokenSql(playerId, randomBytes(32).toString('base64url')));
        if (prefs.emailMode === 'digest') {
          const nextAt = state.last_digest_at ? state.last_digest_at.getTime() + prefs.digestMinutes * 60_000 : now;
          if (nextAt > now) {
            // Not yet: the job comes back when the interval is over (by the real clock's measure).
            await tx.$executeRaw(setJobSql(EMAIL_TASK, `email:${playerId}`, { playerId }, new Date(Date.now() + (nextAt - now))));
            return 0;
          }
          const games = await queryRows(tx, waitingGamesSql(playerId));
          const others = rows.map((r) => r.stored.notice).filter((n) => !games.some((g) => g.id === n.gameId) && n.kind !== 'yourTurn' && n.kind !== 'turnReminder');
          if (games.length === 0 && others.length === 0) {
            await tx.$executeRaw(finishNoticesSql(ids, 'dropped', 'superseded', at)); // every turn was played meanwhile
            return 0;
          }
          await this.mailer.sendNow(this.mail(state.email, token, 'digest', this.digest(games, others, now)));
          await tx.$executeRaw(finishNoticesSql(ids, 'sent', 'digest', at));
          await tx.$executeRaw(markDigestSql(playerId, at));
          return 1;
        }
        let sent = 0;
        for (const row of rows) {
          const notice = row.stored.notice;
          // One at a time, each marked after its send: a failure leaves only the unsent ones for the retry.
          await this.mailer.sendNow(this.mail(state.email, token, notice.kind, this.single(notice)));
          await tx.$executeRaw(finishNoticesSql([row.id], 'sent', null, at));
          sent++;
        }
        return sent;
      },
      { timeout: 60_000 },
    );
  }

  private link(path: string): string {
    return `${this.publicUrl}${path}`;
  }

  unsubscribeUrl(token: string): string {
    return `${this.publicUrl}/api/v1/unsubscribe?token=${token}`;
  }

  private mail(to: string, token: string, kind: string, composed: Composed) {
    const unsubscribe = this.unsubscribeUrl(token);
    const settings = this.link('/#/settings');
    return {
      to,
      kind: `notice ${kind}`,
      subject: composed.subject,
      text: `${composed.text}\n\n--\nChoose what you are told, and when: ${settings}\nNo more email: ${unsubscribe}\n`,
      html:
        `${composed.html}<hr><p style="font-size:small">Choose what you are told, and when: <a href="${escapeHtml(settings)}">your settings</a>. ` +
        `<a href="${escapeHtml(unsubscribe)}">No more email</a>.</p>`,
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  private single(notice: Notice): Composed {
    const url = this.link(notice.path);
    return {
      subject: notice.title,
      text: `${notice.body}\n\nOpen the game: ${url}`,
      html: `<p>${escapeHtml(notice.body)}</p><p><a href="${escapeHtml(url)}">Open the game</a></p>`,
    };
  }

  private digest(games: { id: string; preset: string; deadline: Date | null }[], others: Notice[], now: number): Composed {
    const lines = games.map((g) => {
      const left = timeLeft(g.deadline?.toISOString() ?? null, now).trim() || (g.deadline ? 'time is up.' : 'no time limit.');
      return { text: `${g.preset} game: your move, ${left}`, url: this.link(gamePath(g.id)) };
    });
    const news = others.map((n) => ({ text: `${n.title}: ${n.body}`, url: this.link(n.path) }));
    const all = [...lines, ...news];
    const subject = games.length > 0 ? `Mizerka: ${games.length} game${games.length === 1 ? '' : 's'} waiting for your move` : 'Mizerka: news of your games';
    const intro = games.length > 0 ? 'These games wait for your move, the soonest deadline first:' : 'What happened in your games:';
    return {
      subject,
      text: `${intro}\n\n${all.map((l) => `- ${l.text}\n  ${l.url}`).join('\n')}`,
      html: `<p>${escapeHtml(intro)}</p><ul>${all.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.text)}</a></li>`).join('')}</ul>`,
    };
  }
}
