import { Injectable } from '@nestjs/common';
import { AuthService } from '../auth/auth.service.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { conflict, notFound } from '../common/errors.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ApiToken, CreateApiTokenPayload, Player, RegisterPayload } from './models/player.model.js';

const PLAYER = { id: true, name: true, createdAt: true } as const;
const TOKEN = { id: true, name: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

@Injectable()
export class PlayersService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly auth: AuthService,
  ) {}

  async register(name: string): Promise<RegisterPayload> {
    const token = newToken();
    try {
      const player = await this.prisma.player.create({
        data: { name, nameKey: name.toLowerCase(), tokens: { create: { name: 'default', tokenHash: hashToken(token) } } },
        select: PLAYER,
      });
      return { player, token };
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw conflict(`The name "${name}" is taken`);
      }
      throw error;
    }
  }

  async get(id: string): Promise<Player> {
    const player = await this.prisma.player.findUnique({ where: { id }, select: PLAYER });
    if (!player) throw notFound('Player');
    return player;
  }

  async createToken(playerId: string, name: string): Promise<CreateApiTokenPayload> {
    const token = newToken();
    const apiToken = await this.prisma.apiToken.create({
      data: { playerId, name, tokenHash: hashToken(token) },
      select: TOKEN,
    });
    return { apiToken, token };
  }

  listTokens(playerId: string): Promise<ApiToken[]> {
    return this.prisma.apiToken.findMany({ where: { playerId }, select: TOKEN, orderBy: { createdAt: 'asc' } });
  }

  /** Revoking twice is harmless; another player's token is reported as not found. */
  async revokeToken(playerId: string, tokenId: string): Promise<ApiToken> {
    const existing = await this.prisma.apiToken.findFirst({ where: { id: tokenId, playerId }, select: TOKEN });
    if (!existing) throw notFound('API token');
    if (existing.revokedAt) return existing;
    const revoked = await this.prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() }, select: TOKEN });
    this.auth.forget(tokenId);
    return revoked;
  }
}
