import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { APP_SCOPES, SCOPE_WORDS, TOKEN_SCOPES, type TokenScope } from '../auth/scopes.js';
import { hashToken } from '../auth/tokens.js';
import { badInput, conflict, DomainError, notFound } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { AuthorizedApp, OAuthApp, OAuthAuthorizationRequest, OAuthDecision } from './models/oauth.model.js';
import { grantOfTokenSql, sweepExpiredSql, takeRequestSql, usedCodeSql, useCodeSql } from './oauth.sql.js';
import { redirectUriProblem, validS256Challenge, verifierMatches } from './pkce.js';

/** Apps one player may register. */
export const APPS_PER_PLAYER = 20;
/** How long a player has to answer the consent page. */
const REQUEST_MS = 10 * 60_000;
/** How long an authorization code may wait to be traded (RFC 6749 4.1.2: short, at most 10 minutes). */
export const CODE_MS = 60_000;
const MAX_STATE = 512;
/** Where the web client's consent page is, relative to the server. */
export const CONSENT_PATH = '/oauth/consent';

const APP = { clientId: true, name: true, redirectUris: true, createdAt: true } as const;

/** An OAuth 2 error answered as RFC 6749 5.2 says: `{ error, error_description }` with its status. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** What GET /oauth/authorize answers: a redirect, or (no trustworthy redirect URI) an error shown to the person. */
export type AuthorizeOutcome = { redirect: string } | { error: OAuthError };

/** The token endpoint's answer (RFC 6749 5.1). */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * Third-party apps (OAuth 2.0 authorization code with PKCE, public clients only): apps, the
 * consent step, codes, and the grants — each a session with method `oauth` tied to its app, so
 * refreshing, revoking and ending on every instance are SessionsService's.
 */
@Injectable()
export class OAuthService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly sessions: SessionsService,
  ) {}

  async createApp(owner: AuthenticatedPlayer, input: { name: string; redirectUris: string[] }): Promise<OAuthApp> {
    const name = input.name.trim();
    if (!name) throw badInput('name must not be blank', { field: 'name' });
    const uris = [...new Set(input.redirectUris)];
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw badInput(`redirect URI ${JSON.stringify(uri.slice(0, 100))} ${problem}`, { field: 'redirectUris' });
    }
    return this.prisma.$transaction(async (tx) => {
      // Counted under the player's lock: two registrations at once cannot both pass the limit.
      await tx.$executeRaw`SELECT 1 FROM players WHERE id = ${owner.id}::uuid FOR UPDATE`;
      const count = await tx.oAuthApp.count({ where: { ownerId: owner.id } });
      if (count >= APPS_PER_PLAYER) throw conflict(`A player may register at most ${APPS_PER_PLAYER} apps; delete one first`, { limit: APPS_PER_PLAYER });
      return tx.oAuthApp.create({
        data: { ownerId: owner.id, name, redirectUris: uris, clientId: `mzc_${randomBytes(16).toString('base64url')}` },
        select: APP,
      });
    });
  }

  myApps(owner: AuthenticatedPlayer): Promise<OAuthApp[]> {
    return this.prisma.oAuthApp.findMany({ where: { ownerId: owner.id }, select: APP, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  /** Deletes one of the caller's apps; every grant to it ends at once. */
  async deleteApp(owner: AuthenticatedPlayer, clientId: string): Promise<OAuthApp> {
    const app = await this.prisma.oAuthApp.findFirst({ where: { clientId, ownerId: owner.id }, select: { id: true, ...APP } });
    if (!app) throw notFound('App');
    await this.endGrants({ oauthAppId: app.id });
    await this.prisma.oAuthApp.delete({ where: { id: app.id }, select: { id: true } });
    const { id: _, ...shown } = app;
    return shown;
  }

  /**
   * GET /oauth/authorize. An unknown client or a redirect URI that is not exactly one of its
   * registered ones is answered here, never by a redirect (RFC 6749 4.1.2.1: an open redirector
   * otherwise); every other problem goes back to the app's redirect URI.
   */
  async authorize(query: Record<string, unknown>): Promise<AuthorizeOutcome> {
    const one = (key: string): string | undefined | null => {
      const value = query[key];
      if (value === undefined || value === '') return undefined;
      return typeof value === 'string' ? value : null; // null: repeated or structured, refused
    };
    const clientId = one('client_id');
    const redirectUri = one('redirect_uri');
    if (!clientId) return { error: new OAuthError('invalid_request', 'client_id is required (once)') };
    const app = clientId.length <= 64 ? await this.prisma.oAuthApp.findUnique({ where: { clientId }, select: { id: true, redirectUris: true } }) : null;
    if (!app) return { error: new OAuthError('invalid_client', 'Unknown client_id', 401) };
    if (!redirectUri) return { error: new OAuthError('invalid_request', 'redirect_uri is required (once)') };
    if (!app.redirectUris.includes(redirectUri)) {
      return { error: new OAuthError('invalid_request', 'redirect_uri is not one of the app’s registered redirect URIs (an exact match is required)') };
    }
    const stateValue = one('state');
    const state = typeof stateValue === 'string' && stateValue.length <= MAX_STATE ? stateValue : undefined;
    const back = (error: string, description: string) => ({ redirect: withParams(redirectUri, { error, error_description: description, state }) });
    if (stateValue === null || (typeof stateValue === 'string' && stateValue.length > MAX_STATE)) {
      return back('invalid_request', `state must be one value of at most ${MAX_STATE} characters`);
    }
    const responseType = one('response_type');
    if (responseType !== 'code') {
      return responseType ? back('unsupported_response_type', 'Only response_type=code is supported') : back('invalid_request', 'response_type is required');
    }
    const method = one('code_challenge_method');
    const challenge = one('code_challenge');
    if (!challenge) return back('invalid_request', 'code_challenge is required (PKCE, RFC 7636)');
    if (method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
    if (!validS256Challenge(challenge)) return back('invalid_request', 'code_challenge must be 43 base64url characters (an S256 challenge)');
    const scopeValue = one('scope');
    if (scopeValue === null) return back('invalid_scope', 'scope must be one space-separated list');
    const asked = scopeValue ? [...new Set(scopeValue.split(' ').filter(Boolean))] : ['read'];
    const refused = asked.filter((s) => !(APP_SCOPES as readonly string[]).includes(s));
    if (refused.length > 0 || asked.length === 0) {
      return back('invalid_scope', `An app may ask only for ${APP_SCOPES.join(', ')}; refused: ${refused.join(', ')}`);
    }
    const scopes = TOKEN_SCOPES.filter((s) => asked.includes(s));
    await queryRows(this.prisma, sweepExpiredSql());
    const request = await this.prisma.oAuthRequest.create({
      data: { appId: app.id, redirectUri, scopes, codeChallenge: challenge, state, expiresAt: new Date(Date.now() + REQUEST_MS) },
      select: { id: true },
    });
    return { redirect: `${CONSENT_PATH}?request=${request.id}` };
  }

  /** The consent page's view of a pending request. */
  async request(id: string): Promise<OAuthAuthorizationRequest> {
    const found = await this.prisma.oAuthRequest.findUnique({
      where: { id },
      select: { id: true, redirectUri: true, scopes: true, expiresAt: true, app: { select: { clientId: true, name: true } } },
    });
    if (!found || found.expiresAt.getTime() <= Date.now()) throw notFound('Authorization request');
    return { ...found, scopes: found.scopes.map((scope) => ({ scope, description: SCOPE_WORDS[scope] })) };
  }

  /** The player approves: a one-time code bound to everything the app asked with, sent back to it. */
  async approve(caller: AuthenticatedPlayer, id: string): Promise<OAuthDecision> {
    const code = `mzo_${randomBytes(32).toString('base64url')}`;
    const request = await this.take(id);
    await this.prisma.oAuthCode.create({
      data: {
        codeHash: hashToken(code),
        appId: request.app_id,
        playerId: caller.id,
        redirectUri: request.redirect_uri,
        scopes: request.scopes,
        codeChallenge: request.code_challenge,
        expiresAt: new Date(Date.now() + CODE_MS),
      },
      select: { id: true },
    });
    return { redirectTo: withParams(request.redirect_uri, { code, state: request.state ?? undefined }) };
  }

  /** The player refuses: the app hears access_denied. */
  async deny(id: string): Promise<OAuthDecision> {
    const request = await this.take(id);
    return {
      redirectTo: withParams(request.redirect_uri, { error: 'access_denied', error_description: 'The player refused', state: request.state ?? undefined }),
    };
  }

  /** POST /oauth/token. */
  async token(body: Record<string, unknown>, userAgent: string | undefined): Promise<TokenAnswer> {
    const field = (key: string): string => {
      const value = body[key];
      if (typeof value !== 'string' || value === '') throw new OAuthError('invalid_request', `${key} is required (once)`);
      return value;
    };
    const grantType = field('grant_type');
    if (grantType === 'authorization_code') return this.tradeCode(field('code'), field('redirect_uri'), field('client_id'), field('code_verifier'), userAgent);
    if (grantType === 'refresh_token') return this.refresh(field('refresh_token'), field('client_id'), body.scope);
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  /**
   * POST /oauth/revoke (RFC 7009): ends the grant a refresh or access token belongs to. A token
   * the server does not know, or that is not this client's, is answered the same: done.
   */
  async revokeToken(body: Record<string, unknown>): Promise<void> {
    const token = body.token;
    const clientId = body.client_id;
    if (typeof token !== 'string' || token === '') throw new OAuthError('invalid_request', 'token is required (once)');
    if (typeof clientId !== 'string' || clientId === '') throw new OAuthError('invalid_request', 'client_id is required (once)');
    if (token.length > 200) return;
    const [grant] = await queryRows(this.prisma, grantOfTokenSql(hashToken(token)));
    if (grant && grant.client_id === clientId) await this.sessions.end([grant.session_id]);
  }

  /** The apps the caller has granted access to, each with its live grants' scopes. */
  async authorizedApps(caller: AuthenticatedPlayer): Promise<AuthorizedApp[]> {
    const grants = await this.prisma.authSession.findMany({
      where: { playerId: caller.id, method: 'oauth', oauthAppId: { not: null }, revokedAt: null, expiresAt: { gt: new Date() } },
      select: { scopes: true, createdAt: true, lastUsedAt: true, oauthApp: { select: { clientId: true, name: true } } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: 500,
    });
    const byApp = new Map<string, AuthorizedApp>();
    for (const grant of grants) {
      if (!grant.oauthApp) continue;
      const seen = byApp.get(grant.oauthApp.clientId);
      if (!seen) {
        byApp.set(grant.oauthApp.clientId, { app: grant.oauthApp, scopes: grant.scopes, authorizedAt: grant.createdAt, lastUsedAt: grant.lastUsedAt });
      } else {
        seen.scopes = TOKEN_SCOPES.filter((s) => seen.scopes.includes(s) || grant.scopes.includes(s));
        if (grant.lastUsedAt > seen.lastUsedAt) seen.lastUsedAt = grant.lastUsedAt;
      }
    }
    return [...byApp.values()];
  }

  /** Ends every grant of the caller to an app: its tokens stop at once. */
  async revokeAuthorization(caller: AuthenticatedPlayer, clientId: string): Promise<AuthorizedApp> {
    const app = (await this.authorizedApps(caller)).find((a) => a.app.clientId === clientId);
    if (!app) throw notFound('Authorized app');
    await this.endGrants({ playerId: caller.id, oauthApp: { clientId } });
    return app;
  }

  private async endGrants(where: { oauthAppId?: string; playerId?: string; oauthApp?: { clientId: string } }): Promise<void> {
    const live = await this.prisma.authSession.findMany({ where: { ...where, revokedAt: null }, select: { id: true } });
    await this.sessions.end(live.map((s) => s.id));
  }

  /** Uses a pending request up (one answer only); gone or expired: NOT_FOUND. */
  private async take(id: string) {
    const [request] = await queryRows(this.prisma, takeRequestSql(id));
    if (!request || request.expires_at.getTime() <= Date.now()) throw notFound('Authorization request');
    return request;
  }

  private async tradeCode(code: string, redirectUri: string, clientId: string, verifier: string, userAgent: string | undefined): Promise<TokenAnswer> {
    const app = clientId.length <= 64 ? await this.prisma.oAuthApp.findUnique({ where: { clientId }, select: { id: true } }) : null;
    if (!app) throw new OAuthError('invalid_client', 'Unknown client_id', 401);
    const hash = hashToken(code);
    if (code.length > 200) throw new OAuthError('invalid_grant', 'Unknown authorization code');
    // One transaction from using the code to the grant: a second use at the same moment waits on
    // the code's row, then finds it used and the grant made from it, which it ends.
    const outcome = await this.prisma.$transaction(async (tx) => {
      const [used] = await queryRows(tx, useCodeSql(hash));
      if (!used) return { kind: 'not taken' as const };
      const refusal =
        used.client_id !== clientId
          ? 'This authorization code was issued to another client'
          : used.expires_at.getTime() <= Date.now()
            ? 'This authorization code has expired'
            : used.redirect_uri !== redirectUri
              ? 'redirect_uri differs from the authorization request’s'
              : !verifierMatches(verifier, used.code_challenge)
                ? 'code_verifier does not match the code_challenge (S256)'
                : null;
      // Refused, the code stays used (committed): it was shown to someone it does not belong to.
      if (refusal) return { kind: 'refused' as const, refusal };
      const tokens = await this.sessions.start({ playerId: used.player_id, method: 'oauth', scopes: used.scopes, userAgent }, tx);
      await tx.authSession.update({ where: { id: tokens.session.id }, data: { oauthAppId: used.app_id }, select: { id: true } });
      await tx.oAuthCode.update({ where: { id: used.id }, data: { sessionId: tokens.session.id }, select: { id: true } });
      return { kind: 'granted' as const, tokens };
    });
    if (outcome.kind === 'refused') throw new OAuthError('invalid_grant', outcome.refusal);
    if (outcome.kind === 'not taken') {
      const [known] = await queryRows(this.prisma, usedCodeSql(hash));
      if (known) {
        // A code used twice: someone else holds it. The grant made from it ends (RFC 6749 4.1.2).
        if (known.session_id) await this.sessions.end([known.session_id]);
        throw new OAuthError('invalid_grant', 'This authorization code was used before; the access granted with it has been revoked');
      }
      throw new OAuthError('invalid_grant', 'Unknown authorization code');
    }
    const started = outcome.tokens;
    return answer(started);
  }

  private async refresh(refreshToken: string, clientId: string, scope: unknown): Promise<TokenAnswer> {
    const [grant] = refreshToken.length <= 200 ? await queryRows(this.prisma, grantOfTokenSql(hashToken(refreshToken))) : [];
    // Another client's token, or a person's own session's: as if unknown (and left unused).
    if (!grant || grant.client_id !== clientId) throw new OAuthError('invalid_grant', 'Unknown refresh token for this client');
    if (typeof scope === 'string' && scope.split(' ').some((s) => s && !grant.scopes.includes(s as TokenScope))) {
      // RFC 6749 6: a refresh may narrow nothing here and widen nothing ever.
      throw new OAuthError('invalid_scope', 'A refresh may not ask for scopes beyond the grant’s');
    }
    try {
      const next = await this.sessions.refresh(refreshToken);
      return answer(next);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') throw new OAuthError('invalid_grant', error.message);
      throw error;
    }
  }
}

function answer(tokens: { accessToken: string; accessTokenExpiresAt: Date; refreshToken: string; session: { scopes: TokenScope[] } }): TokenAnswer {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.round((tokens.accessTokenExpiresAt.getTime() - Date.now()) / 1000)),
    refresh_token: tokens.refreshToken,
    scope: tokens.session.scopes.join(' '),
  };
}

/** `uri` with parameters added to its query (its own kept), undefined ones left out. */
function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}
