import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { APPS_PER_PLAYER } from './oauth.service.js';
import { redirectUriProblem, s256, verifierMatches } from './pkce.js';

// Third-party apps: a registered public client goes through authorize → consent → code → token
// with PKCE, plays with its access token within its scopes, refreshes, and stops at once when the
// player takes its access away; every way to get it wrong is refused as RFC 6749/7636/7009 say.

let t: TestApp;
let prisma: PrismaService;
beforeAll(async () => {
  t = await startTestApp({ jobs: { ...loadConfig({}).jobs, worker: false } });
  prisma = t.app.get(PrismaService);
});
afterAll(async () => {
  await t?.close();
});

const REDIRECT = 'https://stats.example/callback';
const CREATE = `mutation($input: CreateOAuthAppInput!) { createOAuthApp(input: $input) { clientId name redirectUris } }`;
const REQUEST = `query($id: ID!) { oauthAuthorizationRequest(id: $id) { id app { name clientId } scopes { scope description } redirectUri } }`;
const APPROVE = `mutation($id: ID!) { approveOAuthRequest(id: $id) { redirectTo } }`;
const DENY = `mutation($id: ID!) { denyOAuthRequest(id: $id) { redirectTo } }`;

/** A person signed in the way the web client is (a session with every scope). */
async function person(label: string) {
  const [p] = await players(t, 1, label);
  return p;
}

async function registerApp(token: string, redirectUris = [REDIRECT]) {
  const made = await t.gql(CREATE, { input: { name: 'Stats', redirectUris } }, token);
  expect(made.errors).toBeUndefined();
  return made.data!.createOAuthApp.clientId as string;
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

async function authorize(params: Record<string, string>) {
  const url = new URL('/oauth/authorize', t.baseUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const response = await fetch(url, { redirect: 'manual' });
  const json = response.headers.get('content-type')?.startsWith('application/json');
  return { status: response.status, location: response.headers.get('location'), body: json ? await response.json() : null };
}

async function post(path: string, form: Record<string, string>, json = false) {
  const response = await fetch(new URL(path, t.baseUrl), {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
    body: json ? JSON.stringify(form) : new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** authorize → the consent page's request → approve: the code the app receives. */
async function codeFor(userToken: string, clientId: string, challenge: string, scope = 'read play', state = 'xyz') {
  const asked = await authorize({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope, state });
  expect(asked.status).toBe(302);
  const consent = new URL(asked.location!, t.baseUrl);
  expect(consent.pathname).toBe('/oauth/consent');
  const requestId = consent.searchParams.get('request')!;
  const approved = await t.gql(APPROVE, { id: requestId }, userToken);
  expect(approved.errors).toBeUndefined();
  const back = new URL(approved.data!.approveOAuthRequest.redirectTo);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe(state);
  return back.searchParams.get('code')!;
}

const trade = (clientId: string, code: string, verifier: string, redirectUri = REDIRECT) =>
  post('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier });

describe('PKCE', () => {
  it('makes RFC 7636 Appendix B’s challenge from its verifier, and matches only that verifier', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(s256(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(verifierMatches(`${verifier}x`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(verifierMatches('short', s256('short'))).toBe(false); // under 43 characters: not a verifier
  });

  it('registers https redirect URIs and http only to loopback hosts', () => {
    expect(redirectUriProblem('https://app.example/cb?x=1')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:8123/cb')).toBeNull();
    expect(redirectUriProblem('http://[::1]:8123/cb')).toBeNull();
    expect(redirectUriProblem('http://app.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://app.example/cb#frag')).toMatch(/fragment/);
    expect(redirectUriProblem('javascript:alert(1)')).toMatch(/https/);
    expect(redirectUriProblem('/relative')).toMatch(/absolute/);
  });
});

describe('OAuth apps', () => {
  it('goes the whole way: code, token, a move within scope, FORBIDDEN beyond it, refresh, and revoked at once', async () => {
    const seated = await players(t, 3, 'oaG');
    const gameId = await startGame(t, seated, 'short');
    const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    const user = seated[toMove];
    const developer = await person('oaDev');
    const clientId = await registerApp(developer.token);
    expect(clientId).toMatch(/^mzc_/);
    expect((await t.gql('{ myOAuthApps { clientId name } }', {}, developer.token)).data!.myOAuthApps).toEqual([{ clientId, name: 'Stats' }]);

    // The consent page sees the app and each scope in words.
    const { verifier, challenge } = pkce();
    const asked = await authorize({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'read play', state: 's1' });
    const requestId = new URL(asked.location!, t.baseUrl).searchParams.get('request')!;
    const shown = await t.gql(REQUEST, { id: requestId }, user.token);
    expect(shown.data!.oauthAuthorizationRequest).toMatchObject({ app: { name: 'Stats', clientId }, redirectUri: REDIRECT });
    expect(shown.data!.oauthAuthorizationRequest.scopes.map((s: { scope: string }) => s.scope)).toEqual(['read', 'play']);
    expect(shown.data!.oauthAuthorizationRequest.scopes[1].description).toMatch(/move/);
    const approved = await t.gql(APPROVE, { id: requestId }, user.token);
    const code = new URL(approved.data!.approveOAuthRequest.redirectTo).searchParams.get('code')!;
    // The request is answered once.
    expect((await t.gql(APPROVE, { id: requestId }, user.token)).errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const granted = await trade(clientId, code, verifier);
    expect(granted.status).toBe(200);
    expect(granted.headers.get('cache-control')).toBe('no-store');
    expect(granted.body).toMatchObject({ token_type: 'Bearer', scope: 'read play' });
    expect(granted.body.expires_in).toBeGreaterThan(800);
    const access = granted.body.access_token as string;

    // It plays a move for the player.
    const mine = (await t.gql(TURN_QUERY, { id: gameId }, access)).data!.game;
    const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, rng(3)) } }, access);
    expect(moved.errors).toBeUndefined();
    // Not granted: the account, and (a separate scope) nothing beyond read/play.
    const beyond = await t.gql('{ mySessions { hasMore } }', {}, access);
    expect(beyond.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(beyond.errors?.[0].message).toMatch(/"admin"/);
    expect((await t.gql('{ myOAuthApps { clientId } }', {}, access)).errors?.[0].message).toMatch(/"admin"/);

    // The player sees the app among their authorized apps; the app's grant is not among their sessions.
    const listed = await t.gql('{ myAuthorizedApps { app { clientId name } scopes } }', {}, user.token);
    expect(listed.data!.myAuthorizedApps).toEqual([{ app: { clientId, name: 'Stats' }, scopes: ['read', 'play'] }]);

    // Refresh (rotating), in JSON this time.
    const refreshed = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: granted.body.refresh_token, client_id: clientId }, true);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(granted.body.refresh_token);
    expect((await t.gql('{ me { id } }', {}, refreshed.body.access_token)).data!.me.id).toBe(user.id);
    // Another client may not use it.
    const otherClient = await registerApp(developer.token);
    const stolen = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: otherClient });
    expect(stolen).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // The player takes its access away: the access token stops at once, and so does the refresh token.
    const revoked = await t.gql('mutation($c: String!) { revokeAppAuthorization(clientId: $c) { app { clientId } } }', { c: clientId }, user.token);
    expect(revoked.errors).toBeUndefined();
    expect((await t.gql('{ me { id } }', {}, refreshed.body.access_token)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const after = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: clientId });
    expect(after).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await t.gql('{ myAuthorizedApps { app { clientId } } }', {}, user.token)).data!.myAuthorizedApps).toEqual([]);
  });

  it('never redirects for an unknown client or a redirect_uri not registered exactly; sends other errors back with state', async () => {
    const developer = await person('oaErr');
    const clientId = await registerApp(developer.token);
    const { challenge } = pkce();
    const base = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st' };

    const unknown = await authorize({ ...base, client_id: 'mzc_nobody' });
    expect(unknown).toMatchObject({ status: 401, location: null, body: { error: 'invalid_client' } });
    for (const redirect_uri of ['https://evil.example/callback', `${REDIRECT}/`, `${REDIRECT}?x=1`]) {
      const wrong = await authorize({ ...base, redirect_uri });
      expect(wrong).toMatchObject({ status: 400, location: null, body: { error: 'invalid_request' } });
    }
    const errorOf = (location: string | null) => {
      const url = new URL(location!);
      expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
      expect(url.searchParams.get('state')).toBe('st');
      return [url.searchParams.get('error'), url.searchParams.get('error_description')];
    };
    const plain = await authorize({ ...base, code_challenge_method: 'plain' });
    expect(plain.status).toBe(302);
    expect(errorOf(plain.location)).toEqual(['invalid_request', expect.stringMatching(/S256/)]);
    expect(errorOf((await authorize({ ...base, code_challenge_method: '' })).location)[0]).toBe('invalid_request');
    expect(errorOf((await authorize({ ...base, code_challenge: '' })).location)[0]).toBe('invalid_request');
    expect(errorOf((await authorize({ ...base, response_type: 'token' })).location)[0]).toBe('unsupported_response_type');
    expect(errorOf((await authorize({ ...base, scope: 'read admin' })).location)).toEqual(['invalid_scope', expect.stringMatching(/admin/)]);
    expect(errorOf((await authorize({ ...base, scope: 'everything' })).location)[0]).toBe('invalid_scope');
    // No scope: read.
    const plainRead = await authorize(base);
    const id = new URL(plainRead.location!, t.baseUrl).searchParams.get('request')!;
    expect((await t.gql(REQUEST, { id }, developer.token)).data!.oauthAuthorizationRequest.scopes.map((s: { scope: string }) => s.scope)).toEqual(['read']);
    // Refused by the player: access_denied, once.
    const denied = await t.gql(DENY, { id }, developer.token);
    expect(errorOf(denied.data!.denyOAuthRequest.redirectTo)[0]).toBe('access_denied');
    expect((await t.gql(APPROVE, { id }, developer.token)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('answers the consent only to the person: an app’s token (never admin) cannot approve', async () => {
    const user = await person('oaCon');
    const clientId = await registerApp(user.token);
    const { verifier, challenge } = pkce();
    const granted = await trade(clientId, await codeFor(user.token, clientId, challenge), verifier);
    const asked = await authorize({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' });
    const id = new URL(asked.location!, t.baseUrl).searchParams.get('request')!;
    const byApp = await t.gql(APPROVE, { id }, granted.body.access_token);
    expect(byApp.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await t.gql(REQUEST, { id }, granted.body.access_token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');

    // Granted read and webhooks only: it reads and manages webhooks, and may not play.
    const narrow = pkce();
    const hooks = await trade(clientId, await codeFor(user.token, clientId, narrow.challenge, 'webhooks read'), narrow.verifier);
    expect(hooks.body.scope).toBe('read webhooks');
    expect((await t.gql('{ me { id } }', {}, hooks.body.access_token)).data?.me.id).toBe(user.id);
    const lobby = await t.gql('mutation { createLobby(input: { preset: "short" }) { id } }', {}, hooks.body.access_token);
    expect(lobby.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(lobby.errors?.[0].message).toMatch(/"play"/);
    expect((await t.gql('{ myWebhookEndpoints { hasMore } }', {}, hooks.body.access_token)).errors).toBeUndefined();
  });

  it('refuses a wrong verifier, another redirect_uri, an expired code, and a code used twice (revoking its grant)', async () => {
    const user = await person('oaCode');
    const clientId = await registerApp(user.token, [REDIRECT, 'http://127.0.0.1:9000/cb']);
    const { verifier, challenge } = pkce();

    const wrongVerifier = await trade(clientId, await codeFor(user.token, clientId, challenge), pkce().verifier);
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) } });
    const otherUri = await trade(clientId, await codeFor(user.token, clientId, challenge), verifier, 'http://127.0.0.1:9000/cb');
    expect(otherUri).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const unknownClient = await trade('mzc_nobody', await codeFor(user.token, clientId, challenge), verifier);
    expect(unknownClient).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    const late = await codeFor(user.token, clientId, challenge);
    await prisma.oAuthCode.updateMany({ where: { usedAt: null, playerId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await trade(clientId, late, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/expired/) } });

    const code = await codeFor(user.token, clientId, challenge);
    const first = await trade(clientId, code, verifier);
    expect(first.status).toBe(200);
    const second = await trade(clientId, code, verifier);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/used before/) } });
    // The grant made with it ends.
    expect((await t.gql('{ me { id } }', {}, first.body.access_token)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');

    // Two trades of one code at once: one pair, and the other use ends it.
    const raced = await codeFor(user.token, clientId, challenge);
    const both = await Promise.all([trade(clientId, raced, verifier), trade(clientId, raced, verifier)]);
    const won = both.find((b) => b.status === 200);
    expect(won).toBeDefined();
    expect(both.filter((b) => b.body.error === 'invalid_grant')).toHaveLength(1);
    expect((await t.gql('{ me { id } }', {}, won!.body.access_token)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');

    expect(await post('/oauth/token', { grant_type: 'password', client_id: clientId })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect(await post('/oauth/token', { grant_type: 'authorization_code', client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringMatching(/code/) } });
  });

  it('revokes by refresh or access token (RFC 7009), answers 200 for an unknown token, and deleting the app ends its grants', async () => {
    const user = await person('oaRev');
    const clientId = await registerApp(user.token);
    const { verifier, challenge } = pkce();
    const grant = async () => (await trade(clientId, await codeFor(user.token, clientId, challenge), verifier)).body;

    const byRefresh = await grant();
    expect((await post('/oauth/revoke', { token: byRefresh.refresh_token, token_type_hint: 'refresh_token', client_id: clientId })).status).toBe(200);
    expect((await t.gql('{ me { id } }', {}, byRefresh.access_token)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');

    const byAccess = await grant();
    // Another client's revocation does nothing (and says nothing).
    const other = await registerApp(user.token);
    expect((await post('/oauth/revoke', { token: byAccess.access_token, client_id: other })).status).toBe(200);
    expect((await t.gql('{ me { id } }', {}, byAccess.access_token)).data?.me.id).toBe(user.id);
    expect((await post('/oauth/revoke', { token: byAccess.access_token, client_id: clientId }, true)).status).toBe(200);
    expect((await t.gql('{ me { id } }', {}, byAccess.access_token)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const refreshAfter = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: byAccess.refresh_token, client_id: clientId });
    expect(refreshAfter.body.error).toBe('invalid_grant');

    expect((await post('/oauth/revoke', { token: 'mzr_nothing', client_id: clientId })).status).toBe(200);
    expect(await post('/oauth/revoke', { client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    // A person's own session is not an app's to revoke.
    const own = await t.app.get(SessionsService).start({ playerId: user.id, method: 'password', scopes: ['read'] });
    expect((await post('/oauth/revoke', { token: own.refreshToken, client_id: clientId })).status).toBe(200);
    expect((await t.gql('{ me { id } }', {}, own.accessToken)).data?.me.id).toBe(user.id);

    const kept = await grant();
    const deleted = await t.gql('mutation($c: String!) { deleteOAuthApp(clientId: $c) { clientId } }', { c: clientId }, user.token);
    expect(deleted.data?.deleteOAuthApp.clientId).toBe(clientId);
    expect((await t.gql('{ me { id } }', {}, kept.access_token)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await authorize({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' })).status).toBe(401);
  });

  it('refuses a redirect URI that is not https or loopback http, naming the field', async () => {
    const user = await person('oaReg');
    const bad = await t.gql(CREATE, { input: { name: 'X', redirectUris: ['http://app.example/cb'] } }, user.token);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'redirectUris' });
    const none = await t.gql(CREATE, { input: { name: 'X', redirectUris: [] } }, user.token);
    expect(none.errors?.[0].extensions?.code).toBe('BAD_INPUT');
  });

  it('keeps each player’s apps their own, at most APPS_PER_PLAYER of them', async () => {
    const [owner, other] = [await person('oaLim'), await person('oaOth')];
    const first = await registerApp(owner.token);
    for (let i = 1; i < APPS_PER_PLAYER; i++) await registerApp(owner.token);
    const over = await t.gql(CREATE, { input: { name: 'One more', redirectUris: [REDIRECT] } }, owner.token);
    expect(over.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', limit: APPS_PER_PLAYER });
    expect((await t.gql('{ myOAuthApps { clientId } }', {}, other.token)).data!.myOAuthApps).toEqual([]);
    const stranger = await t.gql('mutation($c: String!) { deleteOAuthApp(clientId: $c) { clientId } }', { c: first }, other.token);
    expect(stranger.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql('{ myOAuthApps { clientId } }', {}, owner.token)).data!.myOAuthApps).toHaveLength(APPS_PER_PLAYER);
  });
});
