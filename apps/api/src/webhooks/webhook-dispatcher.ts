import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { FEED_START, feedEventId, parseFeedEventId, readFeed } from '../player-events/feed.js';
import { PlayerFeedBus } from '../player-events/player-feed-bus.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { addDeliverJobs, deliveryPayload } from './deliveries.js';

/** Feed events read for one endpoint in one transaction, at most; more are read by the next. */
const BATCH = 500;
/** A wake-up waits this long, so that the events of many commits go out in one pass. */
const WAKE_DELAY_MS = 10;

/**
 * Fan-out: turns the players' feed events into deliveries, once, durably. Each enabled endpoint
 * keeps a cursor in its player's feed; one transaction locks the endpoint row (SKIP LOCKED: two
 * instances never work the same endpoint at once), reads the feed after the cursor, inserts a
 * delivery and queues a `webhook.deliver` job for each event of the endpoint's types, and moves
 * the cursor past every event read. A crash before the commit leaves the cursor where it was; a
 * repeat is harmless (one delivery per endpoint and event). It runs when a feed grows on this
 * instance, on a timer for what other instances wrote, and at start-up.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Webhooks');
  private readonly settings: AppConfig['webhooks'];
  private readonly worker: boolean;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private unlisten: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: PlayerFeedBus,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('webhooks', { infer: true });
    this.worker = config.get('jobs', { infer: true }).worker;
  }

  onApplicationBootstrap(): void {
    if (!this.worker) return; // an instance that works no jobs leaves fan-out to the others
    this.unlisten = this.bus.listenAll(() => this.wake());
    this.sweep = setInterval(() => this.wake(), this.settings.sweepMs).unref();
    this.wake(); // what was written while no instance ran
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    if (this.sweep) clearInterval(this.sweep);
    if (this.timer) clearTimeout(this.timer);
    this.sweep = this.timer = null;
    await this.running;
  }

  /** Some feed grew: fan out soon. Cheap to call often; passes never overlap. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.dispatchAll()
        .catch((error: unknown) => this.log.warn(`webhook fan-out: ${String(error)}`))
        .finally(() => {
          this.running = null;
          if (this.again) {
            this.again = false;
            this.wake();
          }
        });
    }, WAKE_DELAY_MS);
  }

  /** One pass over the enabled endpoints whose player has feed events after their cursor. */
  async dispatchAll(): Promise<void> {
    const endpoints = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT e.id::text AS id FROM webhook_endpoints e
       WHERE e.enabled
         AND EXISTS (
               SELECT 1 FROM player_events p
                WHERE p.player_id = e.player_id
                  AND (p.tx, p.id) > (split_part(coalesce(e.cursor, '0-0'), '-', 1)::xid8, split_part(coalesce(e.cursor, '0-0'), '-', 2)::bigint)
                  AND p.tx < pg_snapshot_xmin(pg_current_snapshot()))`;
    for (const { id } of endpoints) {
      if (this.stopped) return;
      try {
        while ((await this.dispatch(id)) === BATCH && !this.stopped);
      } catch (error) {
        this.log.warn(`webhook fan-out for endpoint ${id}: ${String(error)}`); // the cursor stays; the next pass retries
      }
    }
  }

  /** Fans out one batch of an endpoint's feed; returns the number of events read (0 when locked or disabled). */
  async dispatch(endpointId: string): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const [endpoint] = await tx.$queryRaw<{ player_id: string; event_types: string[] | null; cursor: string | null }[]>`
        SELECT player_id::text, event_types, cursor FROM webhook_endpoints
         WHERE id = ${endpointId}::uuid AND enabled
         FOR UPDATE SKIP LOCKED`;
      if (!endpoint) return 0;
      const after = endpoint.cursor ? parseFeedEventId(endpoint.cursor, 'cursor') : FEED_START;
      const events = await readFeed(tx, endpoint.player_id, after, BATCH);
      const last = events.at(-1);
      if (!last) return 0;
      const wanted = new Set(endpoint.event_types ?? []);
      const matching = events.filter((e) => wanted.has(e.type));
      if (matching.length > 0) {
        const rows = JSON.stringify(matching.map((e) => ({ event_id: e.cursor.id.toString(), type: e.type, payload: deliveryPayload(e) })));
        await tx.$queryRaw(
          Prisma.sql`WITH d AS (
              INSERT INTO webhook_deliveries (id, endpoint_id, event_id, type, payload, next_attempt_at)
              SELECT gen_random_uuid(), ${endpointId}::uuid, r.event_id, r.type, r.payload, now()
                FROM jsonb_to_recordset(${rows}::jsonb) AS r(event_id bigint, type varchar, payload jsonb)
              ON CONFLICT (endpoint_id, event_id) DO NOTHING
              RETURNING id)
            ${addDeliverJobs(Prisma.sql`d`, Prisma.sql`d.id`)}`,
        );
      }
      // Past every event read, of the endpoint's types or not.
      await tx.$executeRaw`UPDATE webhook_endpoints SET cursor = ${feedEventId(last.cursor)} WHERE id = ${endpointId}::uuid`;
      return events.length;
    });
  }
}
