import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { badInput, conflict, notFound } from '../common/errors.js';
import { queryRows, type RowOf } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { UrlRefused, UrlUnresolved } from '../webhooks/url-safety.js';
import { WebhookTransport } from '../webhooks/webhook-transport.js';
import type { AddPushSubscriptionInput } from './dto/push-subscription.inputs.js';
import type { PushDevice, PushPublicKey } from './models/push-subscription.model.js';
import { addSubscriptionSql, listSubscriptionsSql, removeSubscriptionSql } from './push.sql.js';
import { deviceLabel } from './device-label.js';
import { VapidKeys } from './vapid-keys.js';

/** A P-256 public key, uncompressed (0x04, x, y), and an auth secret, as RFC 8291 has them. */
const P256DH_BYTES = 65;
const AUTH_BYTES = 16;

/** The browsers a player is notified on: adding one (its endpoint judged as a webhook's URL is), listing, removing. */
@Injectable()
export class PushService {
  private readonly settings: AppConfig['push'];

  constructor(
    private readonly prisma: PrismaService,
    private readonly transport: WebhookTransport,
    private readonly vapid: VapidKeys,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('push', { infer: true });
  }

  publicKey(): PushPublicKey {
    return { publicKey: this.vapid.keys.publicKey };
  }

  /**
   * Adds the browser's subscription to the player's devices; the same endpoint again (a browser
   * that subscribed anew) renews its keys and label. The endpoint is a URL the server will POST to:
   * an https URL whose every address is public (no private, loopback or link-local address).
   */
  async add(playerId: string, input: AddPushSubscriptionInput, userAgent: string | null): Promise<PushDevice> {
    const p256dh = keyOf(input.keys.p256dh, 'keys.p256dh', P256DH_BYTES);
    if (p256dh[0] !== 0x04) throw badInput('keys.p256dh must be an uncompressed P-256 public key (its first byte 0x04)', { field: 'keys.p256dh' });
    keyOf(input.keys.auth, 'keys.auth', AUTH_BYTES);
    const endpoint = await this.checkEndpoint(input.endpoint);
    const label = input.label?.trim() || deviceLabel(userAgent);
    const max = this.settings.devicesPerPlayer;
    const [row] = await queryRows(this.prisma, addSubscriptionSql(playerId, endpoint, input.keys.p256dh.replace(/=+$/, ''), input.keys.auth.replace(/=+$/, ''), label, max));
    if (!row) {
      throw conflict(`You are notified on ${max} devices, the most allowed (PUSH_MAX_DEVICES_PER_PLAYER = ${max}); stop notifying one first`, { limit: max });
    }
    return view(row);
  }

  async list(playerId: string): Promise<PushDevice[]> {
    return (await queryRows(this.prisma, listSubscriptionsSql(playerId))).map(view);
  }

  async remove(playerId: string, id: string): Promise<PushDevice> {
    const [row] = await queryRows(this.prisma, removeSubscriptionSql(playerId, id));
    if (!row) throw notFound('Push device');
    return view(row);
  }

  private async checkEndpoint(raw: string): Promise<string> {
    try {
      const { url } = await this.transport.vet(raw, { allowHttpLoopback: this.settings.allowHttpLoopback }, this.settings.timeoutMs);
      return url.href;
    } catch (error) {
      if (error instanceof UrlRefused || error instanceof UrlUnresolved) {
        throw badInput(`endpoint ${error.message}${error instanceof UrlRefused ? '; notices are sent only to push services on public addresses' : ''}`, {
          field: 'endpoint',
        });
      }
      throw error;
    }
  }
}

/** The bytes of a base64url key, which must be `bytes` long. */
function keyOf(text: string, field: string, bytes: number): Buffer {
  const key = Buffer.from(text.replace(/=+$/, ''), 'base64url');
  if (key.length !== bytes) throw badInput(`${field} must be ${bytes} bytes in base64url (it is ${key.length})`, { field });
  return key;
}

function view(row: RowOf<typeof listSubscriptionsSql>): PushDevice {
  return { id: row.id, label: row.label, createdAt: row.created_at, lastSuccessAt: row.last_success_at };
}
