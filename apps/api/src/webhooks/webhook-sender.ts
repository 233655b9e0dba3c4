import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { Outbox } from '../outbox/outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { addDeliverJobs, deliveryBody, DELIVER_TASK, giveUpPendingSql } from './deliveries.js';
import { sign } from './signature.js';
import { USER_AGENT, WebhookTransport, type AttemptOutcome } from './webhook-transport.js';

/**
 * The `webhook.deliver` job: one attempt of one delivery. A failure does not throw (the queue's
 * own backoff is not the schedule): it is recorded, and the next attempt is queued at the time the
 * retry schedule gives, under the delivery's job key. After the last, the delivery is `failed`.
 * An endpoint whose deliveries have all failed for longer than the setting is disabled.
 */
@Injectable()
export class WebhookSender implements OnModuleInit {
  private readonly log = new Logger('Webhooks');
  private readonly settings: AppConfig['webhooks'];

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: Outbox,
    private readonly transport: WebhookTransport,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('webhooks', { infer: true });
  }

  onModuleInit(): void {
    this.outbox.task(DELIVER_TASK, (payload) => this.deliver(deliveryIdOf(payload)));
  }

  /** Makes one attempt, if the delivery is still pending and its endpoint enabled. */
  async deliver(deliveryId: string): Promise<void> {
    const [row] = await this.prisma.$queryRaw<{ status: string; payload: unknown; endpoint_id: string; url: string; secret: string; enabled: boolean }[]>`
      SELECT d.status::text AS status, d.payload, e.id::text AS endpoint_id, e.url, e.secret, e.enabled
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.id = ${deliveryId}::uuid`;
    if (!row || row.status !== 'pending') return; // deleted, done, or given up
    if (!row.enabled) {
      await this.prisma.$executeRaw(giveUpPendingSql(row.endpoint_id)); // disabled meanwhile
      return;
    }
    const at = new Date();
    const timestamp = Math.floor(at.getTime() / 1000);
    const body = deliveryBody(row.payload);
    const outcome = await this.transport.post(
      row.url,
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': deliveryId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(row.secret, deliveryId, timestamp, body),
      },
      body,
      this.settings,
      this.settings.timeoutMs,
    );
    await this.record(deliveryId, row.endpoint_id, at, outcome);
  }

  /** The attempt, the delivery's new state, its next job and the endpoint's health, in one transaction. */
  private async record(deliveryId: string, endpointId: string, at: Date, outcome: AttemptOutcome): Promise<void> {
    const schedule = this.settings.retrySchedule;
    await this.prisma.$transaction(async (tx) => {
      const [delivery] = await tx.$queryRaw<{ attempts: number }[]>`
        SELECT attempts FROM webhook_deliveries WHERE id = ${deliveryId}::uuid FOR UPDATE`;
      if (!delivery) return; // deleted with its endpoint meanwhile
      const attempt = delivery.attempts + 1;
      await tx.$executeRaw`
        INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, duration_ms, error)
        VALUES (${deliveryId}::uuid, ${attempt}::int, ${at}, ${outcome.statusCode}::smallint, ${outcome.durationMs}::int, ${outcome.error?.slice(0, 512) ?? null})`;
      if (outcome.ok) {
        await tx.$executeRaw`
          UPDATE webhook_deliveries SET status = 'delivered', attempts = ${attempt}::int, next_attempt_at = NULL, finished_at = now()
           WHERE id = ${deliveryId}::uuid`;
        await tx.$executeRaw`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${endpointId}::uuid AND failing_since IS NOT NULL`;
        return;
      }
      // The n-th failed attempt waits schedule[n - 1] for the next; past the schedule it is over.
      const wait = schedule[attempt - 1];
      if (wait !== undefined) {
        const next = new Date(Date.now() + wait * 1000);
        await tx.$executeRaw`
          UPDATE webhook_deliveries SET status = 'pending', attempts = ${attempt}::int, next_attempt_at = ${next}, finished_at = NULL
           WHERE id = ${deliveryId}::uuid`;
        await tx.$queryRaw(addDeliverJobs(Prisma.sql`(SELECT ${deliveryId}::uuid AS id) AS d`, Prisma.sql`d.id`, Prisma.sql`${next}::timestamptz`));
      } else {
        await tx.$executeRaw`
          UPDATE webhook_deliveries SET status = 'failed', attempts = ${attempt}::int, next_attempt_at = NULL, finished_at = now()
           WHERE id = ${deliveryId}::uuid`;
      }
      // Failing since the first failure after a success; failing for too long, disabled, saying why.
      const [endpoint] = await tx.$queryRaw<{ failing_since: Date; enabled: boolean }[]>`
        UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ${at})
         WHERE id = ${endpointId}::uuid
         RETURNING failing_since, enabled`;
      if (endpoint?.enabled && Date.now() - endpoint.failing_since.getTime() >= this.settings.disableAfterMs) {
        const reason =
          `Disabled at ${new Date().toISOString()}: every delivery has failed since ${endpoint.failing_since.toISOString()}; ` +
          `the last attempt: ${outcome.error ?? 'failed'}`;
        await tx.$executeRaw`
          UPDATE webhook_endpoints SET enabled = false, disabled_at = now(), disabled_reason = ${reason.slice(0, 512)}, updated_at = now()
           WHERE id = ${endpointId}::uuid`;
        await tx.$executeRaw(giveUpPendingSql(endpointId));
        this.log.warn(`webhook endpoint ${endpointId} disabled: ${reason}`);
      }
    });
  }
}

function deliveryIdOf(payload: unknown): string {
  const id = (payload as { deliveryId?: unknown } | null)?.deliveryId;
  if (typeof id !== 'string') throw new Error(`A webhook job without a delivery id: ${JSON.stringify(payload)}`);
  return id;
}
