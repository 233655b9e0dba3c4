import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { unauthenticated } from '../common/errors.js';
import type { AppConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { AuthenticatedPlayer } from './authenticated-player.js';
import { bearerToken, hashToken } from './tokens.js';

// lastUsedAt is informative; writing it on every request would double the writes of a move.
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
const CACHE_LIMIT = 10_000;

interface TokenRow {
  token_id: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  player_id: string;
  name: string;
}

/**
 * Bearer tokens. A token's player is kept for a few seconds (AUTH_CACHE_SECONDS): a move is then
 * one statement fewer. Revoking drops the token here at once; another instance may accept it
 * until its own entry expires.
 */
@Injectable()
export class AuthService {
  private readonly cache = new Map<string, { player: AuthenticatedPlayer; until: number }>();
  private readonly ttlMs: number;

  constructor(
    private readonly prisma: PrismaService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.ttlMs = config.get('authCacheSeconds', { infer: true }) * 1000;
  }

  /** The player of an Authorization header; throws UNAUTHENTICATED for a missing, unknown or revoked token. */
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

    const rows = await this.prisma.$queryRaw<TokenRow[]>`
      SELECT t.id AS token_id, t.revoked_at, t.last_used_at, p.id AS player_id, p.name
        FROM api_tokens t JOIN players p ON p.id = t.player_id
       WHERE t.token_hash = ${hash}::char(64)`;
    const found = rows[0];
    if (!found) throw unauthenticated('Unknown API token');
    if (found.revoked_at) throw unauthenticated('This API token has been revoked');
    if (!found.last_used_at || now - new Date(found.last_used_at).getTime() > LAST_USED_RESOLUTION_MS) {
      await this.prisma.apiToken.update({ where: { id: found.token_id }, data: { lastUsedAt: new Date(now) } });
    }
    const player = { id: found.player_id, name: found.name, tokenId: found.token_id };
    if (this.ttlMs > 0) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { player, until: now + this.ttlMs });
    }
    return player;
  }

  /** Called when a token is revoked, so that this instance refuses it from now on. */
  forget(tokenId: string): void {
    for (const [hash, entry] of this.cache) if (entry.player.tokenId === tokenId) this.cache.delete(hash);
  }
}
