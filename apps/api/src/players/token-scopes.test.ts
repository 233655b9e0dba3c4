import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';

// Scopes, expiry and the cap on tokens, on both surfaces.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ quotas: { ...loadConfig({}).quotas, tokensPerPlayer: 3 } });
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const fresh = (label: string) => t.register(`${label}${process.pid % 10_000}s${++counter}`);

const CREATE = `mutation($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { token apiToken { id scopes expiresAt } }
}`;

async function token(owner: string, input: Record<string, unknown>): Promise<{ token: string; id: string; scopes: string[]; expiresAt: string | null }> {
  const created = await t.gql(CREATE, { input }, owner);
  if (!created.data?.createApiToken) throw new Error(JSON.stringify(created.errors));
  const { token: secret, apiToken } = created.data.createApiToken;
  return { token: secret, ...apiToken };
}

const GAME = '00000000-0000-0000-0000-000000000000';

describe('token scopes', () => {
  it("gives register's token full access and a new token read and play unless asked", async () => {
    const { token: full } = await fresh('scopeA');
    const list = await t.gql('{ myApiTokens { tokens { name scopes expiresAt } } }', {}, full);
    expect(list.errors).toBeUndefined();
    expect(list.data?.myApiTokens.tokens).toEqual([{ name: 'default', scopes: ['read', 'play', 'admin'], expiresAt: null }]);
    expect((await token(full, { name: 'bot' })).scopes).toEqual(['read', 'play']);
    expect((await token(full, { name: 'ro', scopes: ['read'] })).scopes).toEqual(['read']);
  });

  it('keeps a read-only token from moving, resigning, lobbies and tokens (FORBIDDEN naming the scope), over GraphQL', async () => {
    const { token: full } = await fresh('scopeB');
    const read = (await token(full, { name: 'ro', scopes: ['read'] })).token;
    expect((await t.gql('{ me { name } }', {}, read)).errors).toBeUndefined();
    const denied: [string, Record<string, unknown>, RegExp][] = [
      ['mutation($i: MakeMoveInput!) { makeMove(input: $i) { version } }', { i: { gameId: GAME, kind: 'contract', contract: 'clubs' } }, /"play"/],
      ['mutation($i: ResignInput!) { resign(input: $i) { version } }', { i: { gameId: GAME } }, /"play"/],
      ['mutation { createLobby(input: { preset: "short" }) { id } }', {}, /"play"/],
      ['mutation { joinLobby(input: { inviteCode: "K7QX4M2P" }) { id } }', {}, /"play"/],
      ['mutation { createApiToken(input: { name: "x" }) { token } }', {}, /"admin"/],
      ['{ myApiTokens { tokens { id } } }', {}, /"admin"/],
      [`mutation { revokeApiToken(id: "${GAME}") { id } }`, {}, /"admin"/],
    ];
    for (const [query, variables, scope] of denied) {
      const answer = await t.gql(query, variables, read);
      expect(answer.errors?.[0].extensions?.code, query).toBe('FORBIDDEN');
      expect(answer.errors?.[0].message, query).toMatch(scope);
    }
    // A play token plays, but cannot mint tokens.
    const play = (await token(full, { name: 'bot' })).token;
    expect((await t.gql('mutation { createLobby(input: { preset: "short" }) { id } }', {}, play)).errors).toBeUndefined();
    expect((await t.gql('mutation { createApiToken(input: { name: "x" }) { token } }', {}, play)).errors?.[0].extensions?.code).toBe(
      'FORBIDDEN',
    );
  });

  it('does the same over REST', async () => {
    const { token: full } = await fresh('scopeC');
    const read = (await token(full, { name: 'ro', scopes: ['read'] })).token;
    expect((await t.rest('GET', '/api/v1/me', undefined, read)).status).toBe(200);
    const denied: [string, string, unknown, string][] = [
      ['POST', `/api/v1/games/${GAME}/moves`, { kind: 'contract', contract: 'clubs' }, 'play'],
      ['POST', `/api/v1/games/${GAME}/resign`, {}, 'play'],
      ['POST', '/api/v1/lobbies', { preset: 'short' }, 'play'],
      ['POST', '/api/v1/lobbies/join-by-code', { inviteCode: 'K7QX4M2P' }, 'play'],
      ['POST', `/api/v1/games/${GAME}/play-again`, undefined, 'play'],
      ['GET', '/api/v1/me/tokens', undefined, 'admin'],
      ['POST', '/api/v1/me/tokens', { name: 'x' }, 'admin'],
      ['DELETE', `/api/v1/me/tokens/${GAME}`, undefined, 'admin'],
    ];
    for (const [method, path, body, scope] of denied) {
      const answer = await t.rest(method, path, body, read);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.code).toBe('FORBIDDEN');
      expect(answer.body.detail ?? answer.body.title ?? JSON.stringify(answer.body)).toMatch(new RegExp(`"${scope}"`));
    }
    const made = await t.rest('POST', '/api/v1/me/tokens', { name: 'ro2', scopes: ['read'], expiresInSeconds: 3600 }, full);
    expect(made.status).toBe(201);
    expect(made.body.apiToken.scopes).toEqual(['read']);
    expect(new Date(made.body.apiToken.expiresAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('rejects unknown scopes and bad lifetimes with BAD_INPUT', async () => {
    const { token: full } = await fresh('scopeD');
    const badScope = await t.rest('POST', '/api/v1/me/tokens', { name: 'x', scopes: ['root'] }, full);
    expect(badScope.status).toBe(400);
    const empty = await t.rest('POST', '/api/v1/me/tokens', { name: 'x', scopes: [] }, full);
    expect(empty.status).toBe(400);
    const short = await t.gql(CREATE, { input: { name: 'x', expiresInSeconds: 5 } }, full);
    expect(short.errors?.[0].extensions?.code).toBe('BAD_INPUT');
  });
});

describe('token expiry', () => {
  it('answers UNAUTHENTICATED once a token has expired', async () => {
    const { token: full } = await fresh('exp');
    const made = await token(full, { name: 'short', expiresInSeconds: 60 });
    expect(new Date(made.expiresAt!).getTime()).toBeGreaterThan(Date.now());
    // Not yet used (so not cached): move its expiry into the past.
    await t.app.get(PrismaService).apiToken.update({ where: { id: made.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const gql = await t.gql('{ me { name } }', {}, made.token);
    expect(gql.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(gql.errors?.[0].message).toMatch(/expired/);
    const rest = await t.rest('GET', '/api/v1/me', undefined, made.token);
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('tokens per player', () => {
  it('refuses a token beyond MAX_TOKENS_PER_PLAYER with CONFLICT, counting only usable ones', async () => {
    const { token: full } = await fresh('cap');
    await token(full, { name: 'two' });
    const third = await token(full, { name: 'three' });
    const fourth = await t.gql(CREATE, { input: { name: 'four' } }, full);
    expect(fourth.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(fourth.errors?.[0].message).toMatch(/MAX_TOKENS_PER_PLAYER = 3/);
    const rest = await t.rest('POST', '/api/v1/me/tokens', { name: 'four' }, full);
    expect(rest.status).toBe(409);
    expect(rest.body.code).toBe('CONFLICT');

    await t.rest('DELETE', `/api/v1/me/tokens/${third.id}`, undefined, full);
    expect((await t.gql(CREATE, { input: { name: 'four' } }, full)).errors).toBeUndefined();
  });
});
