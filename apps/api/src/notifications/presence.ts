import { type CallHandler, type ExecutionContext, Inject, Optional, Injectable, Logger, type NestInterceptor, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { LiveConnections } from '../auth/live-connections.js';
import { requestOf } from '../auth/request-context.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { NOTICE_CLOCK, systemClock, type NoticeClock } from './clock.js';
import { touchPresenceSql } from './notifications.sql.js';

/** A player's presence is written at most this often by an instance. */
export const PRESENCE_WRITE_MS = 60_000;
/** The live connections of this instance are written this often, so other instances see them. */
const LIVE_REFRESH_MS = 30_000;
/**
 * A player whose presence was written this recently counts as connected even with "not while
 * active" at 0 minutes: a live connection elsewhere is refreshed every LIVE_REFRESH_MS.
 */
export const LIVE_WINDOW_MS = 3 * LIVE_REFRESH_MS;
/** Players remembered by the write throttle; past it the memory starts again (a few extra writes). */
const REMEMBERED = 50_000;

/**
 * Whether a player is here: "not while active" holds back notices while they use the server. Known
 * across instances through `notification_settings.last_active_at`, written off the request's path
 * (never awaited) at most once a minute per player and instance on an authenticated request, and
 * every 30 s for the players with a live connection (graphql-ws or an event stream) here. The
 * hot path's cost is a Map lookup.
 */
@Injectable()
export class Presence implements OnModuleInit, OnModuleDestroy {
  private readonly log = new Logger('Presence');
  private readonly written = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly prisma: PrismaService,
    private readonly live: LiveConnections,
    @Optional() @Inject(NOTICE_CLOCK) private readonly clock: NoticeClock = systemClock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.refreshLive(), LIVE_REFRESH_MS).unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The player made an authenticated request. */
  seen(playerId: string): void {
    const now = this.clock.now();
    const last = this.written.get(playerId);
    if (last !== undefined && now - last < PRESENCE_WRITE_MS && now >= last) return;
    if (this.written.size >= REMEMBERED) this.written.clear();
    this.written.set(playerId, now);
    this.write([playerId], now).catch(() => undefined);
  }

  /** Whether the player holds a live connection on this instance. */
  isLiveHere(playerId: string): boolean {
    return this.live.isLive(playerId);
  }

  /** Writes the presence of every player with a live connection here. */
  async refreshLive(): Promise<void> {
    const players = this.live.players();
    if (players.length > 0) await this.write(players, this.clock.now()).catch(() => undefined);
  }

  private async write(playerIds: string[], at: number): Promise<void> {
    try {
      for (let i = 0; i < playerIds.length; i += 1000) await this.prisma.$executeRaw(touchPresenceSql(playerIds.slice(i, i + 1000), new Date(at)));
    } catch (error) {
      this.log.warn(`writing presence: ${String(error)}`);
      throw error;
    }
  }
}

/** Tells Presence of every authenticated request (REST and GraphQL operations alike). */
@Injectable()
export class PresenceInterceptor implements NestInterceptor {
  constructor(private readonly presence: Presence) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { request, gql } = requestOf(context);
    const player = gql?.player ?? request?.player;
    if (player) this.presence.seen(player.id);
    return next.handle();
  }
}
