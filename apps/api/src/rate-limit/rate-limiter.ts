import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuthService } from '../auth/auth.service.js';
import type { AppConfig } from '../config/app-config.js';
import type { RateLimitStore } from './rate-limit-store.js';

export const RATE_LIMIT_STORE = Symbol('RateLimitStore');
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** The figures a response carries: as headers on both surfaces, and in GraphQL's `extensions.rateLimit`. */
export interface RateLimitFigures {
  /** Requests (GraphQL root fields) allowed per window. */
  limit: number;
  /** What is left of them in this window. */
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
}

export interface RateLimitDecision extends RateLimitFigures {
  allowed: boolean;
}

/** What the limiter needs of a request (an Express request has it). */
export interface LimitedRequest {
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One budget per client and minute: the authenticated player (all its tokens together), else the
 * IP address (IPv6 by its /64: one machine holds a whole /64). A token that is not valid counts
 * against its IP, so made-up tokens buy no fresh budget. Keys never hold a token.
 */
@Injectable()
export class RateLimiter {
  readonly limit: number;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly auth: AuthService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limit = config.get('rateLimitPerMinute', { infer: true });
  }

  async take(request: LimitedRequest, cost: number): Promise<RateLimitDecision> {
    return this.takeFrom(await this.keyOf(request), cost);
  }

  /** An operation of a player already known (one on its WebSocket): the same budget as its HTTP requests. */
  takeForPlayer(playerId: string, cost: number): Promise<RateLimitDecision> {
    return this.takeFrom(`player:${playerId}`, cost);
  }

  private async takeFrom(key: string, cost: number): Promise<RateLimitDecision> {
    // One request never counts for more than the whole budget and one.
    const { count, resetMs } = await this.store.hit(key, Math.min(Math.max(1, cost), this.limit + 1), RATE_LIMIT_WINDOW_MS);
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      reset: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  async keyOf(request: LimitedRequest): Promise<string> {
    const authorization = request.headers.authorization;
    if (authorization) {
      try {
        // Once per request: the guard that follows gets the same answer.
        return `player:${(await this.auth.authenticateRequest(request)).id}`;
      } catch {
        // Unknown, revoked or malformed: the request will be refused; it still counts, by address.
      }
    }
    return `ip:${clientAddress(request.ip)}`;
  }
}

/** The address a budget belongs to: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 prefix. */
export function clientAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const left = head === '' ? [] : head.split(':');
  const right = ip.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g.replace(/^0+/, '') || '0').toLowerCase())
    .join(':')}::/64`;
}
