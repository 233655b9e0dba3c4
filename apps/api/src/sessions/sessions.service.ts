import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { RevocationBus } from '../auth/revocation-bus.js';
import { TOKEN_SCOPES, type TokenScope } from '../auth/scopes.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { badInput, notFound, unauthenticated } from '../common/errors.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import type { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { lockPlayerSql } from '../players/players.sql.js';
import type { Session, SessionPage, SessionTokens, SignInMethod } from './models/session.model.js';
import { endSessionsSql, liveSessionsSql, refreshTokenSql, useRefreshTokenSql } from './sessions.sql.js';

const PLAYER = { id: true, name: true, kind: true, botLevel: true, createdAt: true } as const;
const SESSION = {
  id: true,
  method: true,
  scopes: true,
  userAgent: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;
const USER_AGENT_MAX = 256;

/** What begins a session: who signed in, how, and what its tokens may do. */
export interface SessionStart {
  playerId: string;
  method: SignInMethod;
  scopes: readonly TokenScope[];
  userAgent?: string | null;
}

/**
 * Sessions: what signing in gives a person (and, for OAuth, an app): a short-lived access token
 * (an `api_tokens` row tied to the session, so every check, cache and revoke of tokens applies to
 * it as it is) and a refresh token that is traded once for the next pair. A refresh token used a
 * second time means two holders (a thief, or a client that lost an answer): the whole session ends,
 * as RFC 9700 (OAuth 2.0 Security BCP) 4.14.2 asks.
 */
@Injectable()
export class SessionsService {
  private readonly accessMs: number;
  private readonly idleMs: number;
  private readonly maxSessions: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly revocations: RevocationBus,
    config: ConfigService<AppConfig, true>,
  ) {
    this.accessMs = config.get('accessTokenSeconds', { infer: true }) * 1000;
    this.idleMs = config.get('sessionIdleSeconds', { infer: true }) * 1000;
    this.maxSessions = config.get('sessionsPerPlayer', { infer: true });
  }

  /**
   * A new session for a player who has just proved who they are. Over MAX_SESSIONS_PER_PLAYER,
   * the least recently used sessions of the same kind
   * end (apps' grants and the person's sign-ins are counted apart). `db`: the sign-in's own transaction, when it has one
   * (a one-time code used up in the same commit).
   */
  async start(start: SessionStart, db?: Prisma.TransactionClient): Promise<SessionTokens> {
    const scopes = TOKEN_SCOPES.filter((scope) => start.scopes.includes(scope));
    const write = async (tx: Prisma.TransactionClient) => {
      await queryRows(tx, lockPlayerSql(start.playerId));
      const live = await queryRows(tx, liveSessionsSql(start.playerId, start.method === 'oauth'));
      const over = live.slice(0, Math.max(0, live.length - this.maxSessions + 1)).map((s) => s.id);
      const ended = over.length > 0 ? await queryRows(tx, endSessionsSql(over)) : [];
      const now = Date.now();
      const session = await tx.authSession.create({
        data: {
          playerId: start.playerId,
          method: start.method,
          scopes,
          userAgent: start.userAgent?.slice(0, USER_AGENT_MAX) || null,
          expiresAt: new Date(now + this.idleMs),
        },
        select: { ...SESSION, player: { select: PLAYER } },
      });
      const tokens = await this.issue(tx, session.id, start.playerId, scopes, now);
      return { session, tokens, ended: ended.map((t) => t.id) };
    };
    const { session, tokens, ended } = db ? await write(db) : await this.prisma.$transaction(write);
    await this.announce(ended);
    const { player, ...rest } = session;
    return { player, session: { ...rest, current: true }, ...tokens };
  }

  /** The next pair for a refresh token; the token is used up. */
  async refresh(refreshToken: string): Promise<SessionTokens> {
    const hash = hashToken(refreshToken);
    const outcome = await this.prisma.$transaction(async (tx) => {
      const [used] = await queryRows(tx, useRefreshTokenSql(hash));
      if (!used) {
        const [known] = await queryRows(tx, refreshTokenSql(hash));
        return known ? { kind: 'reused' as const, sessionId: known.session_id } : { kind: 'unknown' as const };
      }
      const now = Date.now();
      if (used.revoked_at || used.expires_at.getTime() <= now) return { kind: 'ended' as const };
      const session = await tx.authSession.update({
        where: { id: used.session_id },
        data: { lastUsedAt: new Date(now), expiresAt: new Date(now + this.idleMs) },
        select: { ...SESSION, player: { select: PLAYER } },
      });
      // The session's old access tokens that have run out: nothing reads them again.
      await tx.apiToken.deleteMany({ where: { sessionId: used.session_id, expiresAt: { lte: new Date(now) } } });
      const tokens = await this.issue(tx, used.session_id, used.player_id, used.scopes, now);
      return { kind: 'next' as const, session, tokens };
    });
    if (outcome.kind === 'unknown') throw unauthenticated('Unknown refresh token');
    if (outcome.kind === 'ended') throw unauthenticated('This session has ended; sign in again');
    if (outcome.kind === 'reused') {
      await this.end([outcome.sessionId]);
      throw unauthenticated('This refresh token was used before, so the session has been ended; sign in again');
    }
    const { player, ...rest } = outcome.session;
    return { player, session: { ...rest, current: true }, ...outcome.tokens };
  }

  /** The player's sessions begun by `methods`, most recently used first, a page `after` a cursor. */
  async list(
    caller: Pick<AuthenticatedPlayer, 'id' | 'sessionId'>,
    first: number,
    after: string | null | undefined,
    methods: readonly SignInMethod[] = ['password', 'passkey'],
  ): Promise<SessionPage> {
    const cursor = after ? decodeCursor(after) : null;
    const rows = await this.prisma.authSession.findMany({
      where: {
        playerId: caller.id,
        method: { in: [...methods] },
        revokedAt: null,
        expiresAt: { gt: new Date() },
        ...(cursor ? { OR: [{ lastUsedAt: { lt: cursor.at } }, { lastUsedAt: cursor.at, id: { lt: cursor.id } }] } : {}),
      },
      select: SESSION,
      orderBy: [{ lastUsedAt: 'desc' }, { id: 'desc' }],
      take: first + 1,
    });
    const page = pageOf(rows, first, (s) => ({ at: s.lastUsedAt, id: s.id }));
    return {
      sessions: page.items.map((s) => ({ ...s, current: s.id === caller.sessionId })),
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    };
  }

  /** Ends one of the player's sessions (again: harmless); another player's is not found. */
  async revoke(caller: Pick<AuthenticatedPlayer, 'id' | 'sessionId'>, sessionId: string): Promise<Session> {
    const found = await this.prisma.authSession.findFirst({ where: { id: sessionId, playerId: caller.id }, select: SESSION });
    if (!found) throw notFound('Session');
    await this.end([sessionId]);
    const session = await this.prisma.authSession.findUniqueOrThrow({ where: { id: sessionId }, select: SESSION });
    return { ...session, current: session.id === caller.sessionId };
  }

  /** Signing out: the caller's own session ends. */
  async signOut(caller: Pick<AuthenticatedPlayer, 'id' | 'sessionId'>): Promise<Session> {
    if (!caller.sessionId) {
      throw badInput('This is a personal API token, not a session; revoke it with revokeApiToken instead', { field: 'authorization' });
    }
    return this.revoke(caller, caller.sessionId);
  }

  /** Ends sessions and their access tokens, then tells every instance (live sockets and streams close). */
  async end(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const tokens = await queryRows(this.prisma, endSessionsSql(sessionIds));
    await this.announce(tokens.map((t) => t.id));
  }

  private async announce(tokenIds: readonly string[]): Promise<void> {
    await Promise.all(tokenIds.map((id) => this.revocations.revoked(id)));
  }

  /** A fresh access token and refresh token for a session. */
  private async issue(tx: Prisma.TransactionClient, sessionId: string, playerId: string, scopes: readonly TokenScope[], now: number) {
    const accessToken = newToken();
    const refreshToken = `mzr_${randomBytes(32).toString('base64url')}`;
    const accessTokenExpiresAt = new Date(now + this.accessMs);
    await tx.apiToken.create({
      data: { playerId, sessionId, name: 'session', tokenHash: hashToken(accessToken), scopes: [...scopes], expiresAt: accessTokenExpiresAt },
      select: { id: true },
    });
    await tx.refreshToken.create({ data: { sessionId, tokenHash: hashToken(refreshToken) }, select: { id: true } });
    return { accessToken, accessTokenExpiresAt, refreshToken };
  }
}
