import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { closeWsClients, wsClient } from '../../../../test/graphql-ws.js';
import { quietFor, waitFor } from '../../../../test/wait.js';
import { loadConfig } from '../config/app-config.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY } from '../games/games.test-kit.js';
import { openSse } from '../inbox/sse.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import type { HotSql } from '../prisma/hot-sql.js';
import { IdentityIssuers } from './identity-issuers.js';
import { LiveConnections } from './live-connections.js';

// Integrators' players: JWTs of trusted issuers (IDENTITY_ISSUERS) as bearer tokens, against a
// JWKS server of the test's own on 127.0.0.1, with keys made here.

const A = 'https://a.example/';
const B = 'https://b.example/';
const R = 'https://rotating.example/';
const S = 'https://static.example/';
const DOWN = 'https://down.example/';

interface Key {
  kid: string;
  alg: 'RS256' | 'ES256' | 'EdDSA';
  privateKey: CryptoKey;
  jwk: JWK;
  pem: string;
}

async function makeKey(kid: string, alg: Key['alg']): Promise<Key> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }, pem: await exportSPKI(publicKey) };
}

/** The JWKS each path serves (changed by the tests to rotate keys), and the requests each path got. */
const published = new Map<string, Key[]>();
const fetches = new Map<string, number>();
let jwksServer: Server;
let jwksBase: string;

let keyA: Key; // A's RS256 key, kid k1
let keyA2: Key; // A's ES256 key, kid e1
let keyB: Key; // B's key, also named k1
let stranger: Key; // published by nobody
let rotOld: Key;
let rotNew: Key;
let staticKey: Key;
let t: TestApp;

function sign(key: Key, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 600, jti: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey);
}

/** A token of issuer A for `sub`, valid for 10 minutes unless `claims` say otherwise. */
const tokenA = (sub: string, claims: JWTPayload = {}, key = keyA) => sign(key, { iss: A, aud: 'mizerka-a', sub, ...claims });

const ME = '{ me { id name } }';

async function me(token: string) {
  const answer = await t.gql<{ me: { id: string; name: string } }>(ME, {}, token);
  return answer;
}

async function refused(token: string, message: RegExp): Promise<void> {
  const answer = await me(token);
  expect(answer.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  expect(answer.errors?.[0].message).toMatch(message);
  // Nothing of the token comes back.
  expect(JSON.stringify(answer)).not.toContain(token.split('.')[1].slice(0, 20));
  const rest = await t.rest('GET', '/api/v1/me', undefined, token);
  expect(rest.status).toBe(401);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  [keyA, keyA2, keyB, stranger, rotOld, rotNew, staticKey] = await Promise.all([
    makeKey('k1', 'RS256'),
    makeKey('e1', 'ES256'),
    makeKey('k1', 'RS256'),
    makeKey('k-stranger', 'RS256'),
    makeKey('old', 'ES256'),
    makeKey('new', 'ES256'),
    makeKey('s1', 'EdDSA'),
  ]);
  published.set('/a/jwks.json', [keyA, keyA2]);
  published.set('/b/jwks.json', [keyB]);
  published.set('/r/jwks.json', [rotOld, rotNew]);
  jwksServer = createServer((req, res) => {
    const path = req.url ?? '';
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    const keys = published.get(path);
    if (!keys) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  jwksBase = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;

  // Through the variable, as an operator writes it.
  const issuers = [
    { issuer: A, audience: 'mizerka-a', jwksUrl: `${jwksBase}/a/jwks.json`, algorithms: ['RS256', 'ES256'], nameClaim: 'name', jwksCooldownSeconds: 1 },
    { issuer: B, audience: ['mizerka-b'], jwksUrl: `${jwksBase}/b/jwks.json` },
    { issuer: R, audience: 'mizerka-r', jwksUrl: `${jwksBase}/r/jwks.json`, algorithms: ['ES256'], jwksCacheSeconds: 1, jwksCooldownSeconds: 1 },
    { issuer: DOWN, audience: 'mizerka-d', jwksUrl: `${jwksBase}/down/jwks.json` },
    { issuer: S, audience: 'mizerka-s', publicKey: staticKey.pem, algorithms: ['EdDSA'], subjectClaim: 'uid', nameClaim: 'preferred_username', scopes: ['read'] },
  ];
  const { identityIssuers } = loadConfig({ IDENTITY_ISSUERS: JSON.stringify(issuers) });
  // AUTH_CACHE_SECONDS 5: live tokens are re-checked every 5 s (the least).
  t = await startTestApp({ identityIssuers, authCacheSeconds: 5 });
});

afterAll(async () => {
  await closeWsClients();
  await t?.close();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

describe('a trusted issuer’s JWT', () => {
  it('plays a move as a new player: made on first use, named from the claim, the same player on the next use', async () => {
    const first = await me(await tokenA('auth0|ala', { name: 'Ala Żółć' }));
    expect(first.errors).toBeUndefined();
    expect(first.data!.me.name).toBe('Ala-Zolc');
    // Another token of the same user (not the cached one): the same player, its name kept.
    const token = await tokenA('auth0|ala', { name: 'Someone Else' });
    const again = await me(token);
    expect(again.data!.me).toEqual(first.data!.me);
    const ala = { ...first.data!.me, token };

    const others = await players(t, 2, 'jwtg');
    const gameId = await startGame(t, [ala, ...others], 'short');
    const seated = [ala, ...others];
    const random = rng(11);
    // Moves until Ala has made one with her JWT.
    for (let moves = 0; ; moves++) {
      expect(moves).toBeLessThan(20);
      let mover: (typeof seated)[number] | undefined;
      let game: any;
      for (const p of seated) {
        game = (await t.gql(TURN_QUERY, { id: gameId }, p.token)).data!.game;
        if (game.view.legalMoves) {
          mover = p;
          break;
        }
      }
      const moved = await t.gql(MAKE_MOVE, { input: { gameId, expectedVersion: game.version, ...pickMove(game.view.legalMoves, random) } }, mover!.token);
      expect(moved.errors).toBeUndefined();
      if (mover === ala) break;
    }
    const events = await t.app.get(PrismaService).gameEvent.findMany({ where: { gameId, playerId: ala.id }, select: { actor: true } });
    expect(events.length).toBeGreaterThan(0);
    const identity = await t.app.get(PrismaService).externalIdentity.findMany({ where: { playerId: ala.id } });
    expect(identity).toMatchObject([{ issuer: A, subject: 'auth0|ala' }]);
  });

  it('gets the next free name on a collision, `user-<hash>` without a usable name, and never admin', async () => {
    await t.register('Zenon');
    const zenon = await me(await tokenA('auth0|zenon', { name: 'zenon' }));
    expect(zenon.data!.me.name).toBe('zenon-2');
    const bot = await me(await tokenA('auth0|bot', { name: 'bot-strong' }));
    expect(bot.data!.me.name).toMatch(/^user-[0-9a-f]{8}$/);
    const token = await tokenA('auth0|nameless');
    const nameless = await me(token);
    expect(nameless.data!.me.name).toMatch(/^user-[0-9a-f]{8}$/);
    expect(nameless.data!.me.name).not.toBe(bot.data!.me.name);
    // read and play by default; never admin.
    expect((await t.gql('mutation { createLobby(input: { preset: "short" }) { id } }', {}, token)).errors).toBeUndefined();
    const mint = await t.gql('mutation { createApiToken(input: { name: "x" }) { token } }', {}, token);
    expect(mint.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('makes one player of concurrent first uses', async () => {
    const tokens = await Promise.all(Array.from({ length: 6 }, () => tokenA('auth0|racer', { name: 'Racer' })));
    const answers = await Promise.all(tokens.map((token) => me(token)));
    expect(answers.map((a) => a.errors)).toEqual(tokens.map(() => undefined));
    expect(new Set(answers.map((a) => a.data!.me.id)).size).toBe(1);
    expect(answers[0].data!.me.name).toBe('Racer');
    const prisma = t.app.get(PrismaService);
    expect(await prisma.player.count({ where: { nameKey: { startsWith: 'racer' } } })).toBe(1);
    expect(await prisma.externalIdentity.count({ where: { issuer: A, subject: 'auth0|racer' } })).toBe(1);
  });

  it('is accepted on REST too', async () => {
    const token = await tokenA('auth0|rest', { name: 'Resty' });
    const rest = await t.rest('GET', '/api/v1/me', undefined, token);
    expect(rest.status).toBe(200);
    expect(rest.body.name).toBe('Resty');
  });
});

describe('refused with UNAUTHENTICATED', () => {
  it('alg none, without fetching any key', async () => {
    const before = fetches.get('/a/jwks.json') ?? 0;
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: A, aud: 'mizerka-a', sub: 'auth0|ala', exp: now + 600 })}.`;
    await refused(unsigned, /algorithm is not allowed/);
    expect(fetches.get('/a/jwks.json') ?? 0).toBe(before);
  });

  it('HS256 signed with the public key’s bytes as the secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const secret of [keyA.pem, JSON.stringify(keyA.jwk)]) {
      const forged = await new SignJWT({ iss: A, aud: 'mizerka-a', sub: 'auth0|ala', exp: now + 600 })
        .setProtectedHeader({ alg: 'HS256', kid: keyA.kid })
        .sign(new TextEncoder().encode(secret));
      await refused(forged, /algorithm is not allowed/);
    }
  });

  it('expired, and not yet valid (beyond the clock tolerance)', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(await tokenA('auth0|ala', { iat: now - 700, exp: now - 120 }), /expired/);
    await refused(await tokenA('auth0|ala', { nbf: now + 120 }), /not yet valid/);
    await refused(await tokenA('auth0|ala', { exp: undefined }), /"exp" claim/);
  });

  it('for another audience, or from an untrusted issuer', async () => {
    await refused(await tokenA('auth0|ala', { aud: 'someone-else' }), /another audience/);
    const before = fetches.get('/a/jwks.json') ?? 0;
    await refused(await sign(keyA, { iss: 'https://evil.example/', aud: 'mizerka-a', sub: 'auth0|ala' }), /untrusted issuer/);
    expect(fetches.get('/a/jwks.json') ?? 0).toBe(before);
  });

  it('one issuer’s token against another issuer’s config', async () => {
    // A's key and issuer, B's audience.
    await refused(await sign(keyA, { iss: A, aud: 'mizerka-b', sub: 'auth0|ala' }), /another audience/);
    // A's key claiming to be B (B publishes a key of the same kid): B's key does not verify it.
    await refused(await sign(keyA, { iss: B, aud: 'mizerka-b', sub: 'auth0|ala' }), /signature is not valid/);
    // B's own token is fine, and is B's user, not A's.
    const own = await me(await sign(keyB, { iss: B, aud: 'mizerka-b', sub: 'auth0|ala' }));
    expect(own.errors).toBeUndefined();
    const ofA = await me(await tokenA('auth0|ala'));
    expect(own.data!.me.id).not.toBe(ofA.data!.me.id);
  });

  it('an unknown kid: one JWKS refetch, then refused; another within the cooldown fetches nothing', async () => {
    // Keys known and the cooldown (1 s) over since they were fetched.
    expect((await me(await tokenA('auth0|ala'))).errors).toBeUndefined();
    await quietFor(1100); // A's jwksCooldownSeconds is 1
    const before = fetches.get('/a/jwks.json') ?? 0;
    await refused(await tokenA('auth0|ala', {}, stranger), /key its issuer does not publish/);
    expect(fetches.get('/a/jwks.json')).toBe(before + 1);
    await refused(await tokenA('auth0|ala', {}, { ...stranger, kid: 'k-other' }), /key its issuer does not publish/);
    expect(fetches.get('/a/jwks.json')).toBe(before + 1);
    // The other key of A's set still verifies, from the cache.
    expect((await me(await tokenA('auth0|ala', {}, keyA2))).errors).toBeUndefined();
    expect(fetches.get('/a/jwks.json')).toBe(before + 1);
  });

  it('a key removed from the JWKS, once the cache refreshes (rotation)', async () => {
    const tokenR = (key: Key) => sign(key, { iss: R, aud: 'mizerka-r', sub: 'kc-user' });
    expect((await me(await tokenR(rotOld))).errors).toBeUndefined();
    published.set('/r/jwks.json', [rotNew]);
    // R's keys are kept for 1 s (jwksCacheSeconds); then the old kid is gone and the new one works.
    await waitFor(async () => (await me(await tokenR(rotOld))).errors !== undefined, 'the old key to be dropped', { timeout: 5000, every: 200 });
    await refused(await tokenR(rotOld), /key its issuer does not publish/);
    expect((await me(await tokenR(rotNew))).errors).toBeUndefined();
  });

  it('a static-key issuer: its key verifies, another does not', async () => {
    const good = await sign(staticKey, { iss: S, aud: 'mizerka-s', uid: 'u-42', preferred_username: 'stat_ic' });
    const answer = await me(good);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.me.name).toBe('stat_ic');
    // Its scopes are read only.
    const lobby = await t.gql('mutation { createLobby(input: { preset: "short" }) { id } }', {}, good);
    expect(lobby.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const other = await makeKey('s1', 'EdDSA');
    await refused(await sign(other, { iss: S, aud: 'mizerka-s', uid: 'u-42' }), /signature is not valid/);
    // No subject claim (uid): refused.
    await refused(await sign(staticKey, { iss: S, aud: 'mizerka-s', sub: 'u-42' }), /"uid" claim/);
  });

  it('when the issuer’s keys cannot be fetched', async () => {
    await refused(await sign(keyA, { iss: DOWN, aud: 'mizerka-d', sub: 'auth0|ala' }), /signing keys could not be fetched/);
    expect(fetches.get('/down/jwks.json')).toBeGreaterThanOrEqual(1);
  });

  it('malformed tokens, as unknown ones', async () => {
    await refused('abc.def.ghi', /Malformed token/);
    await refused('abc.def', /Unknown API token/);
  });
});

describe('a static key at start', () => {
  it('stops the start when it is not a key for one of its algorithms, naming the issuer', async () => {
    const issuers = loadConfig({
      IDENTITY_ISSUERS: JSON.stringify([{ issuer: S, audience: 'x', publicKey: keyA.pem, algorithms: ['RS256', 'ES256'] }]),
    }).identityIssuers;
    const config = { get: () => issuers } as unknown as ConfigService<AppConfig, true>;
    const identities = new IdentityIssuers({} as PrismaService, {} as HotSql, config);
    await expect(identities.onModuleInit()).rejects.toThrow(/IDENTITY_ISSUERS: \[0\]\.publicKey \(https:\/\/static\.example\/\) is not a ES256 public key/);
  });
});

describe('live connections of a JWT', () => {
  it('close when the JWT expires: a graphql-ws socket (4401) and an event stream', async () => {
    const { data } = await me(await tokenA('auth0|live', { name: 'Lively' }));
    const player = data!.me.id;
    const live = t.app.get(LiveConnections);
    // Long enough to open both on a slow machine; each closes at `exp`, not `exp` + the clock tolerance.
    const soon = Math.floor(Date.now() / 1000) + 5;
    const token = await tokenA('auth0|live', { exp: soon });
    const socket = wsClient(t.baseUrl, token);
    const events: unknown[] = [];
    socket.subscribe({ query: 'subscription { myEvents { type } }' }, { next: (e) => events.push(e), error: (e) => Array.isArray(e) && events.push(e), complete: () => undefined });
    const stream = await openSse(`${t.baseUrl}/api/v1/me/events`, { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);
    await waitFor(() => live.socketsOf(player) === 2, 'the socket and the stream to open');

    await waitFor(() => socket.closes.length > 0, 'the socket to close at expiry');
    expect(socket.closes[0].code).toBe(4401);
    expect(socket.closes[0].reason).toMatch(/expired/);
    expect(Date.now()).toBeGreaterThanOrEqual(soon * 1000 - 50);
    const last = await stream.next(3000);
    expect(last?.event).toBe('error');
    expect(JSON.parse(last!.data!)).toEqual({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/expired/) });
    await stream.ended;
    expect(live.socketsOf(player)).toBe(0);
    // The subscription ran until then, without errors (GraphQL's; the close ends it).
    expect(events).toEqual([]);
  });

  it('leave the re-check of live API tokens working: a token revoked in the database (elsewhere) still closes its socket', async () => {
    const jwtSocket = wsClient(t.baseUrl, await tokenA('auth0|rechecked', { name: 'Rechecked' }));
    jwtSocket.subscribe({ query: 'subscription { myEvents { type } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    const [p] = await players(t, 1, 'jwtr');
    const apiSocket = wsClient(t.baseUrl, p.token);
    apiSocket.subscribe({ query: 'subscription { myEvents { type } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    const live = t.app.get(LiveConnections);
    await waitFor(() => live.socketsOf(p.id) === 1, 'the API token socket to open');
    const jwtPlayer = (await me(await tokenA('auth0|rechecked'))).data!.me.id;
    await waitFor(() => live.socketsOf(jwtPlayer) === 1, 'the JWT socket to open');
    // As another instance's revoke whose notice was lost: only the periodic re-check can find it.
    await t.app.get(PrismaService).apiToken.updateMany({ where: { playerId: p.id }, data: { revokedAt: new Date() } });
    await waitFor(() => apiSocket.closes.length > 0, 'the re-check to close the revoked token’s socket', { timeout: 12_000 });
    expect(apiSocket.closes[0]).toMatchObject({ code: 4401, reason: expect.stringMatching(/revoked/) });
    expect(jwtSocket.closes).toEqual([]);
    expect(live.socketsOf(jwtPlayer)).toBe(1);
  }, 20_000);
});
