import { Injectable } from '@nestjs/common';
import { unauthenticated } from '../common/errors.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { AuthenticatedPlayer } from './authenticated-player.js';
import { bearerToken, hashToken } from './tokens.js';

// lastUsedAt is informative; writing it on every request would double the writes of a move.
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

@Injectable()
export class AuthService {
  constructor(private readonly prisma: PrismaService) {}

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
    const found = await this.prisma.apiToken.findUnique({
      where: { tokenHash: hashToken(token) },
      select: { id: true, revokedAt: true, lastUsedAt: true, player: { select: { id: true, name: true } } },
    });
    if (!found) throw unauthenticated('Unknown API token');
    if (found.revokedAt) throw unauthenticated('This API token has been revoked');
    const now = Date.now();
    if (!found.lastUsedAt || now - found.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.prisma.apiToken.update({ where: { id: found.id }, data: { lastUsedAt: new Date(now) } });
    }
    return { id: found.player.id, name: found.player.name, tokenId: found.id };
  }
}
