import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuthService } from '../auth/auth.service.js';
import { clientAddress } from '../common/client-address.js';
import { DomainError } from '../common/errors.js';
import type { AppConfig } from '../config/app-config.js';
import type { RateLimitStore } from './rate-limit-store.js';

export { clientAddress };

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
  /** Whose budget the figures are: the player's (or an anonymous address's), or the whole address's. */
  budget: 'client' | 'address';
}

/** What the limiter needs of a request (an Express request has it). */
export interface LimitedRequest {
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}

export const REGISTRATION_WINDOW_MS = 3_600_000;

/**
 * Two budgets per minute that a request pays into at once. The client's: the authenticated player
 * (all its tokens together), else the IP address. And the address's own, looser one, that every
 * request from it pays, its players' included: registering accounts multiplies the first, never
 * the second. An address is IPv4 as is, IPv6 by its /64 (one machine holds a whole /64). A token
 * that is not valid counts as anonymous, so made-up tokens buy no fresh budget. Keys never hold a
 * token. Registrations have a strict budget of their own per address and hour.
 */
@Injectable()
export class RateLimiter {
  readonly limit: number;
  private readonly perAddress: AppConfig['addressLimits'];
  private readonly passkeyChallenges: number;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly auth: AuthService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limit = config.get('rateLimitPerMinute', { infer: true });
    this.perAddress = config.get('addressLimits', { infer: true });
    this.passkeyChallenges = config.get('passkeys', { infer: true }).challengesPerHour;
  }

  async take(request: LimitedRequest, cost: number): Promise<RateLimitDecision> {
    const address = clientAddress(request.ip);
    const playerId = await this.playerOf(request);
    return this.takeBoth(playerId === null ? `ip:${address}` : `player:${playerId}`, address, cost);
  }

  /** An operation of a player already known (one on its WebSocket): the same budgets as its HTTP requests. */
  takeForPlayer(playerId: string, address: string, cost: number): Promise<RateLimitDecision> {
    return this.takeBoth(`player:${playerId}`, address, cost);
  }

  /**
   * One registration from `address` (clientAddress): throws RATE_LIMITED (with retryAfter) past
   * REGISTRATIONS_PER_IP_PER_HOUR. Returns how to give it back when the registration fails (a
   * name taken), so that a typo does not cost an hour.
   */
  async takeRegistration(address: string): Promise<() => Promise<void>> {
    const key = `register:${address}`;
    const limit = this.perAddress.registrationsPerHour;
    const { count, resetMs } = await this.store.hit(key, 1, REGISTRATION_WINDOW_MS);
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
      throw new DomainError(
        'RATE_LIMITED',
        `At most ${limit} players may be registered from one address an hour (REGISTRATIONS_PER_IP_PER_HOUR); try again in ${retryAfter} s`,
        { retryAfter },
      );
    }
    return async () => {
      await this.store.hit(key, -1, REGISTRATION_WINDOW_MS);
    };
  }

  /**
   * One passkey challenge (a sign-up, sign-in or addition begun) from `address`: throws
   * RATE_LIMITED past PASSKEY_CHALLENGES_PER_IP_PER_HOUR. Each is a row kept for minutes.
   */
  async takePasskeyChallenge(address: string): Promise<void> {
    const limit = this.passkeyChallenges;
    const { count, resetMs } = await this.store.hit(`passkey:${address}`, 1, REGISTRATION_WINDOW_MS);
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
      throw new DomainError(
        'RATE_LIMITED',
        `At most ${limit} passkey sign-ups, sign-ins and additions may begin from one address an hour (PASSKEY_CHALLENGES_PER_IP_PER_HOUR); try again in ${retryAfter} s`,
        { retryAfter },
      );
    }
  }

  private async takeBoth(clientKey: string, address: string, cost: number): Promise<RateLimitDecision> {
    const [client, whole] = await Promise.all([
      this.takeFrom(clientKey, this.limit, cost, 'client'),
      this.takeFrom(`address:${address}`, this.perAddress.requestsPerMinute, cost, 'address'),
    ]);
    // The figures of the budget that binds: the one refusing, else the one with less left.
    if (!client.allowed) return client;
    if (!whole.allowed) return whole;
    return whole.remaining < client.remaining ? whole : client;
  }

  private async takeFrom(key: string, limit: number, cost: number, budget: RateLimitDecision['budget']): Promise<RateLimitDecision> {
    // One request never counts for more than the whole budget and one.
    const { count, resetMs } = await this.store.hit(key, Math.min(Math.max(1, cost), limit + 1), RATE_LIMIT_WINDOW_MS);
    return {
      allowed: count <= limit,
      budget,
      limit,
      remaining: Math.max(0, limit - count),
      reset: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  /** The authenticated player's id, or null for an anonymous request (or a token that is not valid). */
  private async playerOf(request: LimitedRequest): Promise<string | null> {
    if (!request.headers.authorization) return null;
    try {
      // Once per request: the guard that follows gets the same answer.
      return (await this.auth.authenticateRequest(request)).id;
    } catch {
      // Unknown, revoked or malformed: the request will be refused; it still counts, by address.
      return null;
    }
  }
}
