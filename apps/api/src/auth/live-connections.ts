import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DomainError, unauthenticated } from '../common/errors.js';
import type { AppConfig } from '../config/app-config.js';
import { queryRows } from '../common/sql-query.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { goneTokensSql } from './auth.sql.js';
import { AuthService } from './auth.service.js';
import type { AuthenticatedPlayer } from './authenticated-player.js';
import { RevocationBus } from './revocation-bus.js';
import { watchLive } from '../metrics/metrics.js';

/** graphql-ws close codes used here (4400–4499: the client should not retry as is). */
export const CLOSE = {
  /** The token was revoked or expired. */
  unauthorized: 4401,
  /** Too many sockets for one player or one address. */
  tooMany: 4429,
  /** No subscription for WS_IDLE_SECONDS. */
  idle: 4408,
} as const;

/** What LiveConnections needs of a socket. */
export interface SocketHandle {
  close(code: number, reason: string): void;
  /** Subscriptions running on the socket, the one being started included. */
  subscriptions(): number;
}

/** One authenticated graphql-ws socket. */
export interface LiveConnection {
  readonly player: AuthenticatedPlayer;
  /** Where it comes from (clientAddress). */
  readonly address: string;
  /** Aborted when the socket closes or is closed: every stream of the socket ends at once. */
  readonly signal: AbortSignal;
}

interface Connection extends LiveConnection {
  readonly socket: SocketHandle;
  readonly controller: AbortController;
  lastActive: number;
  idleTimer: NodeJS.Timeout | null;
  expiryTimer: NodeJS.Timeout | null;
}

// setTimeout's longest delay; a later expiry is caught by the periodic re-check.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The authenticated graphql-ws sockets of this instance, by player and by token: the caps on
 * sockets per player and per address and subscriptions per socket and per player, the idle time-out, and
 * revocation. A revoked token's sockets close at once (RevocationBus), their streams end with them
 * (the connection's signal) and nothing more is sent on them. Revokes made on other instances are
 * found by a re-check of the live tokens every AUTH_CACHE_SECONDS (at least every 5 s), until the
 * bus carries them; an expiring token's sockets close when it expires.
 */
@Injectable()
export class LiveConnections implements OnModuleDestroy {
  private readonly logger = new Logger(LiveConnections.name);
  private readonly byPlayer = new Map<string, Set<Connection>>();
  private readonly byToken = new Map<string, Set<Connection>>();
  private readonly byAddress = new Map<string, Set<Connection>>();
  private readonly perAddress: number;
  private readonly unwatch: () => void;
  private readonly limits: AppConfig['live'];
  private readonly recheck: NodeJS.Timeout;
  private readonly stopListening: () => void;

  constructor(
    private readonly prisma: PrismaService,
    private readonly auth: AuthService,
    revocations: RevocationBus,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('live', { infer: true });
    this.perAddress = config.get('addressLimits', { infer: true }).liveConnections;
    this.unwatch = watchLive({
      sockets: () => [...this.byPlayer.values()].reduce((n, set) => n + set.size, 0),
      subscriptions: () =>
        [...this.byPlayer.values()].reduce((n, set) => n + [...set].reduce((k, c) => k + c.socket.subscriptions(), 0), 0),
    });
    this.stopListening = revocations.listen((tokenId) =>
      this.closeToken(tokenId, CLOSE.unauthorized, 'UNAUTHENTICATED: this API token has been revoked'),
    );
    const every = Math.max(config.get('authCacheSeconds', { infer: true }), 5) * 1000;
    this.recheck = setInterval(() => void this.recheckTokens(), every).unref();
  }

  /** The players with a live connection (graphql-ws socket or event stream) on this instance. */
  players(): string[] {
    return [...this.byPlayer.keys()];
  }

  /** Whether the player has a live connection on this instance. */
  isLive(playerId: string): boolean {
    return (this.byPlayer.get(playerId)?.size ?? 0) > 0;
  }

  /**
   * Registers a socket whose token was just checked, from `address` (clientAddress). Throws
   * UNAUTHENTICATED when the token was revoked meanwhile and RATE_LIMITED when the player has
   * WS_MAX_SOCKETS_PER_PLAYER open, or the address WS_MAX_SOCKETS_PER_IP (its players together:
   * registering accounts does not multiply what one address holds open). Call it
   * synchronously after the check: a revoke then either comes before (refused here) or after
   * (closes this socket).
   */
  open(player: AuthenticatedPlayer, address: string, socket: SocketHandle): LiveConnection {
    if (this.auth.isRevoked(player.tokenId)) throw unauthenticated('This API token has been revoked');
    const mine = this.byPlayer.get(player.id);
    if ((mine?.size ?? 0) >= this.limits.socketsPerPlayer) {
      throw new DomainError(
        'RATE_LIMITED',
        `At most ${this.limits.socketsPerPlayer} open subscription sockets per player (WS_MAX_SOCKETS_PER_PLAYER); close one first`,
      );
    }
    if ((this.byAddress.get(address)?.size ?? 0) >= this.perAddress) {
      throw new DomainError(
        'RATE_LIMITED',
        `At most ${this.perAddress} open subscription sockets and event streams per address (WS_MAX_SOCKETS_PER_IP); close one first`,
      );
    }
    const controller = new AbortController();
    const connection: Connection = {
      player,
      address,
      socket,
      controller,
      signal: controller.signal,
      lastActive: Date.now(),
      idleTimer: null,
      expiryTimer: null,
    };
    add(this.byPlayer, player.id, connection);
    add(this.byToken, player.tokenId, connection);
    add(this.byAddress, address, connection);
    this.armIdle(connection);
    if (player.expiresAt) {
      const ms = player.expiresAt.getTime() - Date.now();
      if (ms <= MAX_TIMER_MS) {
        connection.expiryTimer = setTimeout(
          () => this.end(connection, CLOSE.unauthorized, 'UNAUTHENTICATED: this API token has expired'),
          Math.max(ms, 0),
        ).unref();
      }
    }
    return connection;
  }

  /**
   * A subscription is starting on the socket: throws when the socket is closing (a message sent
   * after a revoke) or a cap is reached.
   */
  admit(live: LiveConnection): void {
    const connection = live as Connection;
    if (connection.signal.aborted) throw unauthenticated('This connection is closing');
    connection.lastActive = Date.now();
    const onSocket = connection.socket.subscriptions();
    if (onSocket > this.limits.subscriptionsPerSocket) {
      throw new DomainError(
        'RATE_LIMITED',
        `At most ${this.limits.subscriptionsPerSocket} subscriptions per socket (WS_MAX_SUBSCRIPTIONS_PER_SOCKET); complete one first`,
      );
    }
    let ofPlayer = 0;
    for (const other of this.byPlayer.get(connection.player.id) ?? []) ofPlayer += other.socket.subscriptions();
    if (ofPlayer > this.limits.subscriptionsPerPlayer) {
      throw new DomainError(
        'RATE_LIMITED',
        `At most ${this.limits.subscriptionsPerPlayer} subscriptions per player (WS_MAX_SUBSCRIPTIONS_PER_PLAYER); complete one first`,
      );
    }
  }

  /** A subscription of the socket ended: the idle time counts from now. */
  settled(live: LiveConnection): void {
    (live as Connection).lastActive = Date.now();
  }

  /** The socket closed (either side): its streams end, and it no longer counts. */
  closed(live: LiveConnection): void {
    const connection = live as Connection;
    connection.controller.abort();
    if (connection.idleTimer) clearTimeout(connection.idleTimer);
    if (connection.expiryTimer) clearTimeout(connection.expiryTimer);
    remove(this.byPlayer, connection.player.id, connection);
    remove(this.byToken, connection.player.tokenId, connection);
    remove(this.byAddress, connection.address, connection);
  }

  /** Open sockets of a player on this instance. */
  socketsOf(playerId: string): number {
    return this.byPlayer.get(playerId)?.size ?? 0;
  }

  onModuleDestroy(): void {
    this.unwatch();
    clearInterval(this.recheck);
    this.stopListening();
  }

  private closeToken(tokenId: string, code: number, reason: string): void {
    for (const connection of [...(this.byToken.get(tokenId) ?? [])]) this.end(connection, code, reason);
  }

  /** Closes a socket from this side: its streams end now, not when the client answers the close. */
  private end(connection: Connection, code: number, reason: string): void {
    this.closed(connection);
    try {
      connection.socket.close(code, reason);
    } catch (error) {
      this.logger.warn(`closing a socket failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private armIdle(connection: Connection): void {
    const idleMs = this.limits.idleSeconds * 1000;
    if (idleMs <= 0) return;
    const check = () => {
      connection.idleTimer = null;
      if (connection.signal.aborted) return;
      const quietFor = Date.now() - connection.lastActive;
      if (connection.socket.subscriptions() === 0 && quietFor >= idleMs) {
        this.end(connection, CLOSE.idle, `Idle: no subscription for ${this.limits.idleSeconds} s (WS_IDLE_SECONDS)`);
        return;
      }
      connection.idleTimer = setTimeout(check, connection.socket.subscriptions() === 0 ? idleMs - quietFor : idleMs).unref();
    };
    connection.idleTimer = setTimeout(check, idleMs).unref();
  }

  /**
   * Tokens revoked or expired elsewhere (another instance) close their sockets here too. A trusted
   * issuer's JWT has no row to re-check: its sockets close when it expires (the timer of `open`).
   */
  private async recheckTokens(): Promise<void> {
    const ids = [...this.byToken].filter(([, held]) => !first(held).player.issuer).map(([id]) => id);
    if (ids.length === 0) return;
    try {
      const gone = await queryRows(this.prisma, goneTokensSql(ids));
      for (const token of gone) {
        this.closeToken(
          token.id,
          CLOSE.unauthorized,
          token.revoked ? 'UNAUTHENTICATED: this API token has been revoked' : 'UNAUTHENTICATED: this API token has expired',
        );
      }
    } catch (error) {
      this.logger.warn(`re-checking live tokens failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Any one of a set that is never empty (the maps drop empty sets). */
function first<V>(set: Set<V>): V {
  return set.values().next().value!;
}

function add<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function remove<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
