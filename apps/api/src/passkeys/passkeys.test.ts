import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { SoftAuthenticator } from './passkeys.test-kit.js';

// Passkeys: sign up, sign in and add one with a software authenticator; every way an answer can be
// wrong is refused naming what (a used or expired challenge, another origin, an unknown passkey, a
// counter gone backwards, a credential too large).

const ORIGIN = 'http://localhost:5173';
let t: TestApp;
beforeAll(async () => {
  const passkeys = { ...loadConfig({}).passkeys, origins: [ORIGIN], rpId: 'localhost', perPlayer: 2 };
  t = await startTestApp({ passkeys });
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const fresh = (label: string) => `${label}${process.pid % 10_000}p${++counter}`;

const START_SIGN_UP = 'mutation($name: String!) { startPasskeySignUp(input: { name: $name }) { challengeId options } }';
const FINISH_SIGN_UP = `mutation($id: ID!, $r: JSON!) { finishPasskeySignUp(input: { challengeId: $id, response: $r }) {
  accessToken refreshToken player { id name } session { method } } }`;
const START_SIGN_IN = 'mutation { startPasskeySignIn { challengeId options } }';
const FINISH_SIGN_IN = `mutation($id: ID!, $r: JSON!) { finishPasskeySignIn(input: { challengeId: $id, response: $r }) {
  accessToken player { id name } session { method } } }`;

async function start(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const answer = await t.gql(query, variables, token);
  const challenge = answer.data && Object.values(answer.data)[0];
  if (!challenge) throw new Error(JSON.stringify(answer.errors));
  return challenge as { challengeId: string; options: Record<string, unknown> };
}

async function signUp(name: string) {
  const authenticator = new SoftAuthenticator();
  const challenge = await start(START_SIGN_UP, { name });
  const answer = await t.gql(FINISH_SIGN_UP, { id: challenge.challengeId, r: authenticator.create(challenge.options) });
  if (!answer.data?.finishPasskeySignUp) throw new Error(JSON.stringify(answer.errors));
  return { authenticator, tokens: answer.data.finishPasskeySignUp };
}

describe('passkeys', () => {
  it('signs up with a passkey (discoverable, user verification preferred), then signs in with it, no name asked', async () => {
    const name = fresh('pkA');
    const challenge = await start(START_SIGN_UP, { name });
    expect(challenge.options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name },
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    // The same algorithms on every Node version (Node 24's default would add ML-DSA-44).
    expect((challenge.options.pubKeyCredParams as { alg: number }[]).map((p) => p.alg)).toEqual([-8, -7, -257]);
    const authenticator = new SoftAuthenticator();
    const up = await t.gql(FINISH_SIGN_UP, { id: challenge.challengeId, r: authenticator.create(challenge.options) });
    expect(up.errors).toBeUndefined();
    const tokens = up.data!.finishPasskeySignUp;
    expect(tokens).toMatchObject({ player: { name }, session: { method: 'passkey' } });
    // The user handle is the player's id.
    expect(Buffer.from(authenticator.userHandle!, 'base64url').toString('hex')).toBe(tokens.player.id.replace(/-/g, ''));
    expect((await t.gql('{ me { name } }', {}, tokens.accessToken)).data?.me.name).toBe(name);
    const listed = await t.gql('{ myPasskeys { id label lastUsedAt } }', {}, tokens.accessToken);
    expect(listed.data?.myPasskeys).toEqual([{ id: expect.any(String), label: 'Passkey', lastUsedAt: null }]);

    const signIn = await start(START_SIGN_IN);
    expect(signIn.options).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
    expect(signIn.options.allowCredentials ?? []).toEqual([]);
    const inAgain = await t.gql(FINISH_SIGN_IN, { id: signIn.challengeId, r: authenticator.get(signIn.options) });
    expect(inAgain.errors).toBeUndefined();
    expect(inAgain.data?.finishPasskeySignIn).toMatchObject({ player: { id: tokens.player.id, name }, session: { method: 'passkey' } });
    const sessions = await t.gql('{ mySessions { sessions { method } } }', {}, inAgain.data!.finishPasskeySignIn.accessToken);
    expect(sessions.data?.mySessions.sessions).toEqual([{ method: 'passkey' }, { method: 'passkey' }]);
    const used = await t.gql('{ myPasskeys { lastUsedAt } }', {}, tokens.accessToken);
    expect(used.data?.myPasskeys[0].lastUsedAt).not.toBeNull();
  });

  it('answers a challenge once; an expired one or one of another ceremony is BAD_INPUT naming challengeId', async () => {
    const { authenticator } = await signUp(fresh('pkB'));
    const challenge = await start(START_SIGN_IN);
    expect((await t.gql(FINISH_SIGN_IN, { id: challenge.challengeId, r: authenticator.get(challenge.options) })).errors).toBeUndefined();
    const again = await t.gql(FINISH_SIGN_IN, { id: challenge.challengeId, r: authenticator.get(challenge.options) });
    expect(again.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'challengeId' });

    const late = await start(START_SIGN_IN);
    await t.app.get(PrismaService).passkeyChallenge.update({ where: { id: late.challengeId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await t.gql(FINISH_SIGN_IN, { id: late.challengeId, r: authenticator.get(late.options) });
    expect(expired.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'challengeId' });
    expect(expired.errors?.[0].message).toMatch(/expired/);

    const signUpChallenge = await start(START_SIGN_UP, { name: fresh('pkB') });
    const crossed = await t.gql(FINISH_SIGN_IN, { id: signUpChallenge.challengeId, r: authenticator.get(signUpChallenge.options) });
    expect(crossed.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'challengeId' });
    const notId = await t.gql(FINISH_SIGN_IN, { id: 'nope', r: {} });
    expect(notId.errors?.[0].extensions?.code).toBe('BAD_INPUT');
    expect(notId.errors?.[0].message).toMatch(/challengeId/);
  });

  it('refuses an answer from another origin, or to another challenge, naming the field', async () => {
    const name = fresh('pkC');
    const challenge = await start(START_SIGN_UP, { name });
    const authenticator = new SoftAuthenticator();
    const wrong = await t.gql(FINISH_SIGN_UP, { id: challenge.challengeId, r: authenticator.create(challenge.options, { origin: 'https://evil.example' }) });
    expect(wrong.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'response.clientDataJSON.origin' });
    expect(await t.app.get(PrismaService).player.count({ where: { nameKey: name.toLowerCase() } })).toBe(0);

    const other = await start(START_SIGN_UP, { name });
    const swapped = await t.gql(FINISH_SIGN_UP, { id: other.challengeId, r: authenticator.create(other.options, { challenge: 'c29tZXRoaW5nLWVsc2U' }) });
    expect(swapped.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'response.clientDataJSON.challenge' });
  });

  it('refuses an unknown passkey, and one whose counter went backwards (a clone)', async () => {
    const stranger = new SoftAuthenticator();
    const challenge = await start(START_SIGN_IN);
    const unknown = await t.gql(FINISH_SIGN_IN, { id: challenge.challengeId, r: stranger.get(challenge.options) });
    expect(unknown.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(unknown.errors?.[0].message).toMatch(/Unknown passkey/);

    const { authenticator } = await signUp(fresh('pkD'));
    const first = await start(START_SIGN_IN);
    expect((await t.gql(FINISH_SIGN_IN, { id: first.challengeId, r: authenticator.get(first.options, { counter: 10 }) })).errors).toBeUndefined();
    const copy = await start(START_SIGN_IN);
    const cloned = await t.gql(FINISH_SIGN_IN, { id: copy.challengeId, r: authenticator.get(copy.options, { counter: 7 }) });
    expect(cloned.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(cloned.errors?.[0].message).toMatch(/cloned/);
  });

  it('keeps the name rules of register: a taken name is CONFLICT, a bot name or a bad one BAD_INPUT', async () => {
    const taken = fresh('pkE');
    await t.register(taken);
    expect((await t.gql(START_SIGN_UP, { name: taken.toUpperCase() })).errors?.[0].extensions?.code).toBe('CONFLICT');
    expect((await t.gql(START_SIGN_UP, { name: 'bot-strong-2' })).errors?.[0].extensions?.code).toBe('BAD_INPUT');
    const bad = await t.gql(START_SIGN_UP, { name: 'a b' });
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_INPUT');
    expect(bad.errors?.[0].message).toMatch(/name/);

    // Taken between start and finish: CONFLICT, and no half-made player.
    const name = fresh('pkE');
    const challenge = await start(START_SIGN_UP, { name });
    await t.register(name);
    const late = await t.gql(FINISH_SIGN_UP, { id: challenge.challengeId, r: new SoftAuthenticator().create(challenge.options) });
    expect(late.errors?.[0].extensions?.code).toBe('CONFLICT');
  });

  it('bounds the credential: too large, or the wrong shape, is BAD_INPUT naming the field', async () => {
    const challenge = await start(START_SIGN_IN);
    const huge = await t.gql(FINISH_SIGN_IN, { id: challenge.challengeId, r: { id: 'x', padding: 'y'.repeat(40_000) } });
    expect(huge.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'response' });
    const next = await start(START_SIGN_IN);
    const shape = await t.gql(FINISH_SIGN_IN, { id: next.challengeId, r: { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'not base64!' } } });
    expect(shape.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'response.response.clientDataJSON' });
  });

  it('adds, lists and removes passkeys over REST, up to MAX_PASSKEYS_PER_PLAYER; another player cannot remove one', async () => {
    const { tokens, authenticator } = await signUp(fresh('pkF'));
    const token = tokens.accessToken as string;
    const begun = await t.rest('POST', '/api/v1/me/passkeys/start', undefined, token);
    expect(begun.status).toBe(200);
    // The passkey the player holds is excluded: the browser will not make a second one on it.
    expect(begun.body.options.excludeCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal'] }]);
    const laptop = new SoftAuthenticator();
    const added = await t.rest('POST', '/api/v1/me/passkeys', { challengeId: begun.body.challengeId, response: laptop.create(begun.body.options), label: 'Laptop' }, token);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ label: 'Laptop', lastUsedAt: null });
    const listed = await t.rest('GET', '/api/v1/me/passkeys', undefined, token);
    expect(listed.body.map((p: { label: string }) => p.label)).toEqual(['Passkey', 'Laptop']);

    // Two is the most here (MAX_PASSKEYS_PER_PLAYER = 2).
    const third = await t.rest('POST', '/api/v1/me/passkeys/start', undefined, token);
    expect(third.status).toBe(409);

    const stranger = await t.register(fresh('pkG'));
    expect((await t.rest('DELETE', `/api/v1/me/passkeys/${added.body.id}`, undefined, stranger.token)).status).toBe(404);
    const removed = await t.rest('DELETE', `/api/v1/me/passkeys/${added.body.id}`, undefined, token);
    expect(removed.status).toBe(200);
    const signIn = await t.rest('POST', '/api/v1/passkeys/sign-in/start');
    const gone = await t.rest('POST', '/api/v1/passkeys/sign-in/finish', { challengeId: signIn.body.challengeId, response: laptop.get(signIn.body.options) });
    expect(gone.status).toBe(401);
    const badBody = await t.rest('POST', '/api/v1/passkeys/sign-in/finish', { challengeId: signIn.body.challengeId, response: 'text' });
    expect(badBody.status).toBe(400);
    expect(JSON.stringify(badBody.body)).toMatch(/response/);

    // The one passkey left is the account's only way in (no password, no personal token): it stays.
    const only = (await t.rest('GET', '/api/v1/me/passkeys', undefined, token)).body[0].id as string;
    const last = await t.rest('DELETE', `/api/v1/me/passkeys/${only}`, undefined, token);
    expect(last.status).toBe(409);
    expect(last.body.detail ?? last.body.message).toMatch(/only way to sign in/);
    const password = await t.gql('mutation { setPassword(input: { newPassword: "a long enough one" }) { hasPassword } }', {}, token);
    expect(password.data?.setPassword.hasPassword).toBe(true);
    expect((await t.rest('DELETE', `/api/v1/me/passkeys/${only}`, undefined, token)).status).toBe(200);
  });

  it('signs up over REST too', async () => {
    const name = fresh('pkH');
    const begun = await t.rest('POST', '/api/v1/passkeys/sign-up/start', { name });
    expect(begun.status).toBe(200);
    const done = await t.rest('POST', '/api/v1/passkeys/sign-up/finish', { challengeId: begun.body.challengeId, response: new SoftAuthenticator().create(begun.body.options) });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ player: { name }, session: { method: 'passkey' } });
  });
});

describe('the relying party without WEBAUTHN_ORIGINS', () => {
  let dev: TestApp;
  beforeAll(async () => {
    const passkeys = { ...loadConfig({}).passkeys, challengesPerHour: 2 };
    dev = await startTestApp({ passkeys }, t.databaseUrl);
  });
  afterAll(async () => dev?.close());

  const post = (origin: string | null) =>
    fetch(`${dev.baseUrl}/api/v1/passkeys/sign-in/start`, { method: 'POST', headers: origin ? { origin } : {} }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

  it("takes the page's localhost origin outside production, refuses an IP address or none, and limits challenges per address", async () => {
    const local = await post('http://localhost:4000');
    expect(local.status).toBe(200);
    expect(local.body.options.rpId).toBe('localhost');
    const ip = await post('http://127.0.0.1:4000');
    expect(ip.status).toBe(400);
    expect(ip.body.field).toBe('origin');
    expect((await post(null)).status).toBe(400);
    expect((await post('http://localhost:4000')).status).toBe(200);
    const over = await post('http://localhost:4000');
    expect(over.status).toBe(429);
    expect(over.body.detail ?? JSON.stringify(over.body)).toMatch(/PASSKEY_CHALLENGES_PER_IP_PER_HOUR/);
  });
});
