import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { badInput, conflict, notFound } from '../common/errors.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { FEED_EVENT_TYPES, type FeedEventType } from '../player-events/feed-events.js';
import { feedEventId, feedTail } from '../player-events/feed.js';
import { lockPlayerSql } from '../players/players.sql.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { deliveryBody, queueDeliverJobs, type DeliveryPayload } from './deliveries.js';
import { PREVIOUS_SECRET_DEFAULT_SECONDS } from './dto/webhook.inputs.js';
import { giveUpPendingSql, lockEndpointSql, rotateSecretSql } from './webhooks.sql.js';
import type {
  CreateWebhookEndpointPayload,
  RotateWebhookSecretPayload,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointPage,
} from './models/webhook.model.js';
import { newSecret } from './signature.js';
import { UrlRefused, UrlUnresolved } from './url-safety.js';
import { WebhookTransport } from './webhook-transport.js';

const ENDPOINT = {
  id: true,
  url: true,
  description: true,
  eventTypes: true,
  enabled: true,
  disabledReason: true,
  disabledAt: true,
  failingSince: true,
  previousSecretExpiresAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

const DELIVERY = {
  id: true,
  type: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  createdAt: true,
  finishedAt: true,
  payload: true,
  attemptsLog: {
    select: { attempt: true, at: true, statusCode: true, durationMs: true, error: true },
    orderBy: { attempt: 'asc' },
  },
} as const satisfies Prisma.WebhookDeliverySelect;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof DELIVERY }>;

/** The caller's webhook endpoints and their delivery logs; another player's are not found. */
@Injectable()
export class WebhooksService {
  private readonly settings: AppConfig['webhooks'];

  constructor(
    private readonly prisma: PrismaService,
    private readonly transport: WebhookTransport,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('webhooks', { infer: true });
  }

  /**
   * A new endpoint, with its signing secret (shown this once). It receives the events from now on,
   * not the feed's past. A player holds at most WEBHOOK_MAX_ENDPOINTS_PER_PLAYER: the player's row
   * is locked while counting, so two requests at once cannot both take the last place.
   */
  async create(
    playerId: string,
    input: { url: string; eventTypes: FeedEventType[]; description?: string | null },
  ): Promise<CreateWebhookEndpointPayload> {
    const url = await this.checkUrl(input.url);
    const secret = newSecret();
    const max = this.settings.endpointsPerPlayer;
    const endpoint = await this.prisma.$transaction(async (tx) => {
      await queryRows(tx, lockPlayerSql(playerId));
      const count = await tx.webhookEndpoint.count({ where: { playerId } });
      if (count >= max) {
        throw conflict(`You have ${count} webhook endpoints, the most allowed (WEBHOOK_MAX_ENDPOINTS_PER_PLAYER = ${max}); delete one first`, {
          limit: max,
        });
      }
      const cursor = feedEventId(await feedTail(tx, playerId));
      return tx.webhookEndpoint.create({
        data: { playerId, url, eventTypes: eventTypes(input.eventTypes), description: input.description ?? null, secret, cursor },
        select: ENDPOINT,
      });
    });
    return { endpoint: view(endpoint), secret };
  }

  /** The player's endpoints, oldest first, a page `after` a cursor. */
  async list(playerId: string, first: number, after?: string | null): Promise<WebhookEndpointPage> {
    const cursor = after ? decodeCursor(after) : null;
    const rows = await this.prisma.webhookEndpoint.findMany({
      where: {
        playerId,
        ...(cursor ? { OR: [{ createdAt: { gt: cursor.at } }, { createdAt: cursor.at, id: { gt: cursor.id } }] } : {}),
      },
      select: ENDPOINT,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: first + 1,
    });
    const page = pageOf(rows, first, (e) => ({ at: e.createdAt, id: e.id }));
    return { endpoints: page.items.map(view), nextCursor: page.nextCursor, hasMore: page.hasMore };
  }

  async get(playerId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.prisma.webhookEndpoint.findFirst({ where: { id, playerId }, select: ENDPOINT });
    if (!endpoint) throw notFound('Webhook endpoint');
    return view(endpoint);
  }

  /**
   * Changes what is given. Disabling stops deliveries, gives up those still due, and says the
   * owner did it; enabling again clears the reason and the failing period, and starts from the
   * events of now on: what happened while it was disabled is not sent.
   */
  async update(
    playerId: string,
    id: string,
    input: { url?: string | null; eventTypes?: FeedEventType[] | null; description?: string | null; enabled?: boolean | null },
  ): Promise<WebhookEndpoint> {
    const url = input.url !== undefined && input.url !== null ? await this.checkUrl(input.url) : undefined;
    const endpoint = await this.prisma.$transaction(async (tx) => {
      const [current] = await queryRows(tx, lockEndpointSql(id, playerId));
      if (!current) throw notFound('Webhook endpoint');
      const data: Prisma.WebhookEndpointUpdateInput = {};
      if (url !== undefined) data.url = url;
      if (input.eventTypes) data.eventTypes = eventTypes(input.eventTypes);
      if (input.description !== undefined) data.description = input.description;
      if (input.enabled === true && !current.enabled) {
        Object.assign(data, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null, cursor: feedEventId(await feedTail(tx, playerId)) });
      } else if (input.enabled === false && current.enabled) {
        Object.assign(data, { enabled: false, disabledReason: 'Disabled by its owner', disabledAt: new Date() });
        await tx.$executeRaw(giveUpPendingSql(id));
      }
      return tx.webhookEndpoint.update({ where: { id }, data, select: ENDPOINT });
    });
    return view(endpoint);
  }

  /**
   * A new signing secret (shown this once). The old one signs too, as a second signature, for
   * `previousSecretValidSeconds` (0: not at all), so that receivers can change over without losing
   * a delivery; then it is dropped. A rotation during another's window drops the older secret.
   */
  async rotateSecret(playerId: string, id: string, previousSecretValidSeconds?: number | null): Promise<RotateWebhookSecretPayload> {
    const seconds = previousSecretValidSeconds ?? PREVIOUS_SECRET_DEFAULT_SECONDS;
    const secret = newSecret();
    const [row] = await queryRows(this.prisma, rotateSecretSql(id, playerId, secret, seconds));
    if (!row) throw notFound('Webhook endpoint');
    return { endpoint: await this.get(playerId, id), secret };
  }

  /** Deletes the endpoint with its deliveries; their queued attempts then find nothing to do. */
  async delete(playerId: string, id: string): Promise<WebhookEndpoint> {
    return this.prisma.$transaction(async (tx) => {
      const endpoint = await tx.webhookEndpoint.findFirst({ where: { id, playerId }, select: ENDPOINT });
      if (!endpoint) throw notFound('Webhook endpoint');
      await tx.webhookEndpoint.delete({ where: { id } });
      return view(endpoint);
    });
  }

  /** An endpoint's deliveries, newest first, each with its attempts. */
  async deliveries(playerId: string, endpointId: string, first: number, after?: string | null): Promise<WebhookDeliveryPage> {
    const cursor = after ? decodeCursor(after) : null;
    await this.get(playerId, endpointId);
    const rows = await this.prisma.webhookDelivery.findMany({
      where: {
        endpointId,
        ...(cursor ? { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] } : {}),
      },
      select: DELIVERY,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: first + 1,
    });
    const page = pageOf(rows, first, (d) => ({ at: d.createdAt, id: d.id }));
    return { deliveries: page.items.map(deliveryView), nextCursor: page.nextCursor, hasMore: page.hasMore };
  }

  /**
   * A new attempt now, whatever the delivery's state (a pending retry is replaced by it). If it
   * fails, the retry schedule goes on from the attempts already made. A disabled endpoint must
   * be enabled first (CONFLICT).
   */
  async resend(playerId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.prisma.$transaction(async (tx) => {
      const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, playerId }, select: { enabled: true } });
      if (!endpoint) throw notFound('Webhook endpoint');
      if (!endpoint.enabled) throw conflict('This webhook endpoint is disabled; enable it before re-sending');
      const updated = await tx.webhookDelivery.updateManyAndReturn({
        where: { id: deliveryId, endpointId },
        data: { status: 'pending', nextAttemptAt: new Date(), finishedAt: null },
        select: { id: true },
      });
      if (updated.length === 0) throw notFound('Webhook delivery');
      // Joins the endpoint's waiting job, or makes one, to run now.
      await queueDeliverJobs(tx, [{ endpointId, payload: [{ endpointId, deliveryId }], runAt: null }], false);
      return tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: DELIVERY });
    });
    return deliveryView(delivery);
  }

  /** The URL as stored, once its form and its addresses pass; else BAD_INPUT naming `url`. */
  private async checkUrl(raw: string): Promise<string> {
    try {
      const { url } = await this.transport.vet(raw, this.settings, this.settings.timeoutMs);
      return url.href;
    } catch (error) {
      if (error instanceof UrlRefused || error instanceof UrlUnresolved) {
        throw badInput(`url ${error.message}${error instanceof UrlRefused ? '; webhooks are sent only to public addresses' : ''}`, {
          field: 'url',
        });
      }
      throw error;
    }
  }
}

/** Each type once, in the feed's own order. */
function eventTypes(types: readonly FeedEventType[]): FeedEventType[] {
  return FEED_EVENT_TYPES.filter((t) => types.includes(t));
}

function view(row: Prisma.WebhookEndpointGetPayload<{ select: typeof ENDPOINT }>): WebhookEndpoint {
  const previous = row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > Date.now() ? row.previousSecretExpiresAt : null;
  return { ...row, eventTypes: row.eventTypes as FeedEventType[], previousSecretExpiresAt: previous };
}

function deliveryView(row: DeliveryRow): WebhookDelivery {
  const payload = row.payload as unknown as DeliveryPayload;
  return {
    id: row.id,
    eventId: payload.data.eventId,
    type: row.type as FeedEventType,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    body: deliveryBody(payload),
    attemptLog: row.attemptsLog,
  };
}
