import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { unauthenticated } from '../common/errors.js';
import type { AppConfig } from '../config/app-config.js';
import { HotSql } from '../prisma/hot-sql.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { tokenByHashSql } from './auth.sql.js';
import type { AuthenticatedPlayer } from './authenticated-player.js';
import { IdentityIssuers, isJwt } from './identity-issuers.js';
import { RevocationBus } from './revocation-bus.js';
import { bearerToken, hashToken } from './tokens.js';

// lastUsedAt is informative; writing it on every request would double the writes of a move.
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
const CACHE_LIMIT = 10_000;
// Tokens revoked on this instance, remembered so that a read that began before a revoke cannot
// let the token through after it; far more than can be in flight at once.
const REVOKED_MEMORY = 10_000;

/**
 * Bearer tokens. A token's player is kept for a few seconds (AUTH_CACHE_SECONDS): a move is then
 * one statement fewer. A revoke (RevocationBus) drops the token here at once; another instance
 * may accept it until its own entry expires. An entry never outlives its token's expiry.
 *
 * A read racing a revoke: every revoke bumps `epoch`, and a read caches its answer only if no
 * revoke happened while it ran; a read of a token revoked meanwhile is refused outright.
 */
@Injectable()
export class AuthService {
  private readonly cache = new Map<string, { player: AuthenticatedPlayer; until: number }>();
  private readonly byRequest = new WeakMap<object, { authorization: unknown; player: Promise<AuthenticatedPlayer> }>();
  private readonly revokedHere = new Set<string>();
  private readonly ttlMs: number;
  private epoch = 0;

  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: HotSql,
    revocations: RevocationBus,
    config: ConfigService<AppConfig, true>,
    private readonly identities: IdentityIssuers,
  ) {
    this.ttlMs = config.get('authCacheSeconds', { infer: true }) * 1000;
    revocations.listen((tokenId) => this.forget(tokenId));
  }

  /**
   * `authenticate` once per HTTP request: the rate limit keys its budget by the player and the guard
   * then checks the same header, which would otherwise hash the token and look it up twice.
   */
  authenticateRequest(request: { headers: Record<string, string | string[] | undefined> }): Promise<AuthenticatedPlayer> {
    const authorization = request.headers.authorization;
    const known = this.byRequest.get(request);
    if (known && known.authorization === authorization) return known.player;
    const player = this.authenticate(authorization);
    this.byRequest.set(request, { authorization, player });
    return player;
  }

  /**
   * The player of an Authorization header: an API token (`mzk_…`) or a trusted issuer's JWT
   * (IdentityIssuers). Throws UNAUTHENTICATED for a missing, unknown, revoked or expired token.
   */
  async authenticate(authorization: unknown): Promise<AuthenticatedPlayer> {
    const token = bearerToken(authorization);
    if (token === null) {
      throw unauthenticated(
        authorization === undefined || authorization === null || authorization === ''
          ? undefined
          : 'Malformed Authorization header; expected "Bearer <token>"',
      );
    }
    const hash = hashToken(token);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached.player;

    const epoch = this.epoch;
    if (isJwt(token)) {
      // With no issuer trusted, a JWT is a token like any other this server never made.
      if (!this.identities.any) throw unauthenticated('Unknown API token');
      const player = await this.identities.authenticate(token);
      this.remember(hash, player, now, epoch);
      return player;
    }
    // On the hot path's pool: in correspondence play nearly every move comes after its cache entry expired.
    const rows = await this.sql.rows(tokenByHashSql(hash));
    const found = rows[0];
    if (!found) throw unauthenticated('Unknown API token');
    if (found.revoked_at || this.isRevoked(found.token_id)) throw unauthenticated('This API token has been revoked');
    const expiresAt = found.expires_at;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw unauthenticated('This API token has expired');
    if (!found.last_used_at || now - found.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.prisma.apiToken.update({ where: { id: found.token_id }, data: { lastUsedAt: new Date(now) } });
    }
    const player: AuthenticatedPlayer = {
      id: found.player_id,
      name: found.name,
      tokenId: found.token_id,
      sessionId: found.session_id,
      scopes: found.scopes,
      expiresAt,
    };
    this.remember(hash, player, now, epoch);
    return player;
  }

  /** Caches a token's player for AUTH_CACHE_SECONDS, never past its expiry. */
  private remember(hash: string, player: AuthenticatedPlayer, now: number, epoch: number): void {
    // A revoke while this read ran (of this token or another): answer, but do not cache.
    if (this.ttlMs > 0 && this.epoch === epoch) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { player, until: Math.min(now + this.ttlMs, player.expiresAt?.getTime() ?? Infinity) });
    }
  }

  /** Whether this instance has seen the token revoked (its own revokes and, later, the bus's). */
  isRevoked(tokenId: string): boolean {
    return this.revokedHere.has(tokenId);
  }

  /** Called (through the RevocationBus) when a token is revoked, so that this instance refuses it from now on. */
  private forget(tokenId: string): void {
    this.epoch++;
    if (this.revokedHere.size >= REVOKED_MEMORY) this.revokedHere.delete(this.revokedHere.values().next().value!);
    this.revokedHere.add(tokenId);
    for (const [hash, entry] of this.cache) if (entry.player.tokenId === tokenId) this.cache.delete(hash);
  }
}
