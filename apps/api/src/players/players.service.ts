import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RevocationBus } from '../auth/revocation-bus.js';
import { TOKEN_SCOPES, type TokenScope } from '../auth/scopes.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { badInput, conflict, notFound } from '../common/errors.js';
import { SERVER_BOT_NAME } from '../common/player-names.js';
import type { AppConfig } from '../config/app-config.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { queryRows } from '../common/sql-query.js';
import { lockPlayerSql } from './players.sql.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { ApiToken, ApiTokenPage, CreateApiTokenPayload, Player, RegisterPayload } from './models/player.model.js';

const PLAYER = { id: true, name: true, kind: true, botLevel: true, createdAt: true } as const;
export { SERVER_BOT_NAME };
const TOKEN = { id: true, name: true, scopes: true, expiresAt: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;
/** What a new token may do when the caller does not say: play, not manage tokens. */
const DEFAULT_SCOPES: TokenScope[] = ['read', 'play'];

@Injectable()
export class PlayersService {
  private readonly maxTokens: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly revocations: RevocationBus,
    private readonly limiter: RateLimiter,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxTokens = config.get('quotas', { infer: true }).tokensPerPlayer;
  }

  /**
   * A person, or with `bot` a bot account (kind bot, no level: its own program plays it through
   * the API), registered from `address` (ClientAddress): at most REGISTRATIONS_PER_IP_PER_HOUR of
   * them an hour, or accounts would multiply the address's rate budget. A registration that fails
   * is given back.
   */
  async register(name: string, bot: boolean, address: string): Promise<RegisterPayload> {
    if (SERVER_BOT_NAME.test(name)) throw badInput(`The name "${name}" is kept for the server's bots`, { field: 'name' });
    const giveBack = await this.limiter.takeRegistration(address);
    const token = newToken();
    try {
      const player = await this.prisma.player.create({
        data: {
          name,
          nameKey: name.toLowerCase(),
          kind: bot ? 'bot' : 'human',
          tokens: { create: { name: 'default', tokenHash: hashToken(token) } },
        },
        select: PLAYER,
      });
      return { player, token };
    } catch (error) {
      await giveBack();
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

  /**
   * A further token with the scopes given (default read and play) and an optional lifetime. A
   * player holds at most MAX_TOKENS_PER_PLAYER usable (neither revoked nor expired) tokens: the
   * player's row is locked while counting, so two requests at once cannot both take the last one.
   */
  async createToken(
    playerId: string,
    input: { name: string; scopes?: TokenScope[] | null; expiresInSeconds?: number | null },
  ): Promise<CreateApiTokenPayload> {
    const token = newToken();
    const scopes = TOKEN_SCOPES.filter((s) => (input.scopes ?? DEFAULT_SCOPES).includes(s));
    const expiresAt = input.expiresInSeconds ? new Date(Date.now() + input.expiresInSeconds * 1000) : null;
    const apiToken = await this.prisma.$transaction(async (tx) => {
      await queryRows(tx, lockPlayerSql(playerId));
      const usable = await tx.apiToken.count({
        where: { playerId, sessionId: null, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      });
      if (usable >= this.maxTokens) {
        throw conflict(
          `You have ${usable} usable API tokens, the most allowed (MAX_TOKENS_PER_PLAYER = ${this.maxTokens}); revoke one first`,
          { limit: this.maxTokens },
        );
      }
      return tx.apiToken.create({
        data: { playerId, name: input.name, tokenHash: hashToken(token), scopes, expiresAt },
        select: TOKEN,
      });
    });
    return { apiToken, token };
  }

  /** The player's tokens, oldest first, a page `after` a cursor. */
  async listTokens(playerId: string, first: number, after?: string | null): Promise<ApiTokenPage> {
    const cursor = after ? decodeCursor(after) : null;
    const rows = await this.prisma.apiToken.findMany({
      where: {
        playerId,
        sessionId: null,
        ...(cursor ? { OR: [{ createdAt: { gt: cursor.at } }, { createdAt: cursor.at, id: { gt: cursor.id } }] } : {}),
      },
      select: TOKEN,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: first + 1,
    });
    const page = pageOf(rows, first, (t) => ({ at: t.createdAt, id: t.id }));
    return { tokens: page.items, nextCursor: page.nextCursor, hasMore: page.hasMore };
  }

  /** Revoking twice is harmless; another player's token is reported as not found. */
  async revokeToken(playerId: string, tokenId: string): Promise<ApiToken> {
    const existing = await this.prisma.apiToken.findFirst({ where: { id: tokenId, playerId }, select: TOKEN });
    if (!existing) throw notFound('API token');
    if (existing.revokedAt) return existing;
    const revoked = await this.prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() }, select: TOKEN });
    // After the commit: this instance refuses it and closes its sockets at once, the others before we answer.
    await this.revocations.revoked(tokenId);
    return revoked;
  }
}
