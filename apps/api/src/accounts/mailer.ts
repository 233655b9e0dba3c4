import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { AppConfig } from '../config/app-config.js';

/** A mail of the server's: text and HTML parts. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What it is, for the logs (never the address or the link). */
  kind: string;
  /** Extra headers (List-Unsubscribe for notifications). */
  headers?: Record<string, string>;
}

const ATTEMPTS = 3;
const RETRY_MS = [2_000, 10_000];
/** Mails waiting to be sent by this instance; past them, new ones are dropped with a warning. */
const MAX_PENDING = 200;

/**
 * Sends the server's mail through SMTP_URL, after the commit that made it and outside the request,
 * trying three times (now, 2 s, 10 s). Not through the job queue: a link's token would sit in the
 * job's payload in plain text (the database keeps only its hash), and a lost mail costs the player
 * one more request for a link. Nothing is sent, and `enabled` is false, when SMTP_URL is unset.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly log = new Logger('Mailer');
  private readonly transport: Transporter | null;
  private readonly from: string;
  private readonly pending = new Set<Promise<void>>();
  private closed = false;

  constructor(config: ConfigService<AppConfig, true>) {
    const mail = config.get('mail', { infer: true });
    this.from = mail.from;
    this.transport = mail.smtpUrl
      ? createTransport({ url: mail.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as SMTPTransport.Options)
      : null;
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Sends `mail` in the background; the caller does not wait (nor learn whether it went). */
  send(mail: Mail): void {
    if (!this.transport || this.closed) return;
    if (this.pending.size >= MAX_PENDING) {
      this.log.warn(`${MAX_PENDING} mails are waiting already: a ${mail.kind} mail is dropped`);
      return;
    }
    const sending = this.deliver(this.transport, mail).finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /**
   * Sends `mail` now, once, and throws when the server refuses it: for a caller that retries
   * durably itself (notifications, through the job queue).
   */
  async sendNow(mail: Mail): Promise<void> {
    if (!this.transport || this.closed) throw new Error('mail is not configured (SMTP_URL) or the server is stopping');
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers });
    this.log.log(`sent a ${mail.kind} mail`);
  }

  /** Resolves when every mail under way has been sent or given up (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async deliver(transport: Transporter, mail: Mail): Promise<void> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        await transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        this.log.log(`sent a ${mail.kind} mail`);
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (attempt === ATTEMPTS || this.closed) {
          this.log.warn(`a ${mail.kind} mail could not be sent (${message}); given up after ${attempt} attempts`);
          return;
        }
        this.log.warn(`a ${mail.kind} mail could not be sent (${message}); trying again`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt - 1]).unref());
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.idle();
    this.transport?.close();
  }
}
