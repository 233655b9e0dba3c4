import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { SessionsService } from './sessions.service.js';

// Sessions: an access token and a refresh token traded once for the next pair; a second use of a
// refresh token ends the session; sessions are listed and ended, and ending one stops its tokens.

let t: TestApp;
let sessions: SessionsService;
beforeAll(async () => {
  // No token cache: a test reads the database's answer at once (the revoke path is tested with the cache elsewhere).
  t = await startTestApp({ sessionsPerPlayer: 3 });
  sessions = t.app.get(SessionsService);
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const fresh = (label: string) => t.register(`${label}${process.pid % 10_000}s${++counter}`);
const signIn = (playerId: string, userAgent = 'test browser') =>
  sessions.start({ playerId, method: 'password', scopes: ['read', 'play', 'admin'], userAgent });

const REFRESH = `mutation($t: String!) { refreshSession(input: { refreshToken: $t }) {
  accessToken refreshToken accessTokenExpiresAt player { name } session { id method current } } }`;
const LIST = '{ mySessions { sessions { id method userAgent current } hasMore } }';

describe('sessions', () => {
  it('gives an access token that works and a session listed as current; personal tokens do not list it', async () => {
    const { id, token } = await fresh('sesA');
    const started = await signIn(id, 'Firefox on a phone');
    expect(started.accessToken).toMatch(/^mzk_/);
    expect(started.refreshToken).toMatch(/^mzr_/);
    const me = await t.gql('{ me { id } }', {}, started.accessToken);
    expect(me.data?.me.id).toBe(id);
    const listed = await t.gql(LIST, {}, started.accessToken);
    expect(listed.data?.mySessions.sessions).toEqual([
      { id: started.session.id, method: 'password', userAgent: 'Firefox on a phone', current: true },
    ]);
    // Seen from the personal token, the session is not current; the personal token list holds only it.
    const other = await t.gql(LIST, {}, token);
    expect(other.data?.mySessions.sessions[0].current).toBe(false);
    const tokens = await t.gql('{ myApiTokens { tokens { name } } }', {}, started.accessToken);
    expect(tokens.data?.myApiTokens.tokens).toEqual([{ name: 'default' }]);
  });

  it('trades a refresh token once for a working pair; a second use ends the whole session', async () => {
    const { id } = await fresh('sesB');
    const first = await signIn(id);
    const next = await t.gql(REFRESH, { t: first.refreshToken });
    expect(next.errors).toBeUndefined();
    const pair = next.data!.refreshSession;
    expect(pair.session).toEqual({ id: first.session.id, method: 'password', current: true });
    expect(pair.refreshToken).not.toBe(first.refreshToken);
    expect((await t.gql('{ me { id } }', {}, pair.accessToken)).data?.me.id).toBe(id);

    // The first refresh token again: someone else holds it. Everything of the session stops.
    const reused = await t.gql(REFRESH, { t: first.refreshToken });
    expect(reused.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(reused.errors?.[0].message).toMatch(/used before/);
    expect((await t.gql('{ me { id } }', {}, pair.accessToken)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.gql('{ me { id } }', {}, first.accessToken)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const after = await t.gql(REFRESH, { t: pair.refreshToken });
    expect(after.errors?.[0].message).toMatch(/ended/);
  });

  it('answers two refreshes with one token at once with one pair, and ends the session for the other', async () => {
    const { id } = await fresh('sesC');
    const first = await signIn(id);
    const answers = await Promise.all([t.gql(REFRESH, { t: first.refreshToken }), t.gql(REFRESH, { t: first.refreshToken })]);
    expect(answers.filter((a) => a.data?.refreshSession).length).toBe(1);
    expect(answers.filter((a) => a.errors?.[0].extensions?.code === 'UNAUTHENTICATED').length).toBe(1);
  });

  it('refuses an unknown refresh token, and a bad body naming the field (REST)', async () => {
    const unknown = await t.rest('POST', '/api/v1/sessions/refresh', { refreshToken: 'mzr_nothing' });
    expect(unknown.status).toBe(401);
    const bad = await t.rest('POST', '/api/v1/sessions/refresh', { refreshToken: 42 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/refreshToken/);
  });

  it('ends a session from another one: its tokens stop at once; another player cannot see or end it', async () => {
    const { id } = await fresh('sesD');
    const phone = await signIn(id, 'phone');
    const laptop = await signIn(id, 'laptop');
    const ended = await t.rest('DELETE', `/api/v1/me/sessions/${phone.session.id}`, undefined, laptop.accessToken);
    expect(ended.status).toBe(200);
    expect(ended.body.revokedAt).not.toBeNull();
    expect((await t.rest('GET', '/api/v1/me', undefined, phone.accessToken)).status).toBe(401);
    expect((await t.gql(REFRESH, { t: phone.refreshToken })).errors?.[0].message).toMatch(/ended/);
    const listed = await t.rest('GET', '/api/v1/me/sessions', undefined, laptop.accessToken);
    expect(listed.body.sessions.map((s: { userAgent: string }) => s.userAgent)).toEqual(['laptop']);

    const stranger = await fresh('sesE');
    const theirs = await t.rest('DELETE', `/api/v1/me/sessions/${laptop.session.id}`, undefined, stranger.token);
    expect(theirs.status).toBe(404);
    expect((await t.rest('GET', '/api/v1/me', undefined, laptop.accessToken)).status).toBe(200);
  });

  it('signs out the caller’s own session; a personal token is told it is not one', async () => {
    const { id, token } = await fresh('sesF');
    const started = await signIn(id);
    const personal = await t.gql('mutation { signOut { id } }', {}, token);
    expect(personal.errors?.[0].extensions?.code).toBe('BAD_INPUT');
    const out = await t.gql('mutation { signOut { id revokedAt } }', {}, started.accessToken);
    expect(out.data?.signOut.id).toBe(started.session.id);
    expect((await t.gql('{ me { id } }', {}, started.accessToken)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('ends the least recently used session past MAX_SESSIONS_PER_PLAYER', async () => {
    const { id } = await fresh('sesG');
    const all = [];
    for (let i = 0; i < 4; i++) all.push(await signIn(id, `device ${i}`));
    expect((await t.gql('{ me { id } }', {}, all[0].accessToken)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const listed = await t.gql(LIST, {}, all[3].accessToken);
    expect(listed.data?.mySessions.sessions.map((s: { userAgent: string }) => s.userAgent).sort()).toEqual(['device 1', 'device 2', 'device 3']);
    // Apps' grants are counted apart: authorizing apps signs no browser out.
    for (let i = 0; i < 4; i++) await sessions.start({ playerId: id, method: 'oauth', scopes: ['read'] });
    const still = await t.gql(LIST, {}, all[3].accessToken);
    expect(still.data?.mySessions.sessions).toHaveLength(3);
  });

  it('refuses an access token past its expiry, and refreshing then gives a working one', async () => {
    const { id } = await fresh('sesH');
    const started = await signIn(id);
    await t.app.get(PrismaService).apiToken.updateMany({ where: { sessionId: started.session.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // The token cache keeps an entry no longer than the token's expiry; this token was never cached.
    const expired = await t.gql('{ me { id } }', {}, started.accessToken);
    expect(expired.errors?.[0].message).toMatch(/expired/);
    const next = await t.gql(REFRESH, { t: started.refreshToken });
    expect((await t.gql('{ me { id } }', {}, next.data!.refreshSession.accessToken)).data?.me.id).toBe(id);
    // The run-out access token is gone from the table: a session keeps only its working ones.
    expect(await t.app.get(PrismaService).apiToken.count({ where: { sessionId: started.session.id } })).toBe(1);
  });
});
