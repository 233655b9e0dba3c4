import { randomBytes, randomUUID } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../../test/wait.js';
import { ConfigError, loadConfig } from '../config/app-config.js';
import type { Notice } from '../notifications/notice.js';
import { NoticeChannels } from '../notifications/notice-channels.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { Device, startPushService } from './push.test-kit.js';
import { VapidKeys } from './vapid-keys.js';

// Web Push end to end, through loopback only: a browser's subscription made here (a P-256 key pair
// and an auth secret), the server's sends to a "push service" on 127.0.0.1 that checks the VAPID
// JWT and decrypts what it got with the subscription's private key, as a browser would.

let t: TestApp;
let service: Awaited<ReturnType<typeof startPushService>>;
const SUBJECT = 'mailto:push-tests@example.com';

beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test', MAIL_FROM: 'Mizerka <push-tests@example.com>' });
  service = await startPushService();
  t = await startTestApp({
    push: { ...base.push, allowHttpLoopback: true, timeoutMs: 2000, devicesPerPlayer: 3 },
    jobs: { ...base.jobs, pollMs: 200 },
  });
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

let counter = 0;
const fresh = (label: string) => `${label}${process.pid % 10_000}q${++counter}`;

const ADD = `mutation($input: AddPushSubscriptionInput!) { addPushSubscription(input: $input) { id label createdAt lastSuccessAt } }`;
const LIST = '{ myPushSubscriptions { id label lastSuccessAt } }';

async function subscribe(token: string, device: Device, label?: string): Promise<string> {
  const added = await t.gql(ADD, { input: { endpoint: device.endpoint, keys: device.keys, ...(label ? { label } : {}) } }, token);
  if (!added.data?.addPushSubscription) throw new Error(JSON.stringify(added.errors));
  return added.data.addPushSubscription.id as string;
}

function notice(playerId: string, over: Partial<Notice> = {}): Notice {
  const gameId = randomUUID();
  return {
    feedEventId: `${Date.now()}-${++counter}`,
    playerId,
    kind: 'yourTurn',
    gameId,
    lobbyId: null,
    title: 'Your move against Ala and Olek',
    body: 'Classic, deal 3 of 18: your turn to play. 7 h left.',
    path: `/#/games/${gameId}`,
    deadline: null,
    at: new Date().toISOString(),
    ...over,
  };
}

const channel = () => t.app.get(NoticeChannels).get('push')!;
const sentTo = (device: Device) => service.requests.filter((r) => `${service.origin}${r.path}` === device.endpoint);

describe('Web Push', () => {
  it('sends a notice encrypted to the device (aes128gcm), signed with the server’s VAPID key, once however often it is handed over', async () => {
    const { id: playerId, token } = await t.register(fresh('push'));
    const device = new Device(`${service.origin}/send/${randomUUID()}`);
    await subscribe(token, device, 'Test phone');

    const first = notice(playerId);
    // Handed over twice at once, and again later: one send.
    await Promise.all([channel().deliver([first, first]), channel().deliver([first])]);
    const [pushed] = await waitFor(() => (sentTo(device).length > 0 ? sentTo(device) : undefined), 'the push request');

    expect(pushed!.headers['content-encoding']).toBe('aes128gcm');
    expect(pushed!.headers['content-type']).toBe('application/octet-stream');
    expect(pushed!.headers.ttl).toBe('86400');
    expect(pushed!.headers.urgency).toBe('high');

    // VAPID (RFC 8292): an ES256 JWT for the push service's origin, with the server's public key.
    const vapid = /^vapid t=([^,\s]+), k=([A-Za-z0-9_-]+)$/.exec(String(pushed!.headers.authorization));
    expect(vapid).not.toBeNull();
    const served = await t.gql('{ pushPublicKey { publicKey } }');
    expect(vapid![2]).toBe(served.data!.pushPublicKey.publicKey);
    const point = Buffer.from(vapid![2]!, 'base64url');
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, 'ES256');
    const { payload, protectedHeader } = await jwtVerify(vapid![1]!, key, { algorithms: ['ES256'], audience: service.origin });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.sub).toBe(SUBJECT);
    const now = Date.now() / 1000;
    expect(payload.exp).toBeGreaterThan(now);
    expect(payload.exp).toBeLessThanOrEqual(now + 24 * 3600);

    // The message: the notice's words and where it opens; nothing else (no card, no deadline).
    const message = device.open(pushed!.body);
    expect(message).toEqual({ title: first.title, body: first.body, url: first.path, gameId: first.gameId, kind: 'yourTurn', tag: `game:${first.gameId}` });
    expect(JSON.stringify(message)).not.toMatch(/[♠♥♦♣]|"cards?"|"hand"/);

    // A later notice as a barrier: once it has arrived, the first was not sent again.
    const second = notice(playerId, { kind: 'gameFinished', title: 'Game over', body: 'Ala won.' });
    await channel().deliver([first, second]);
    await waitFor(() => sentTo(device).length >= 2 || undefined, 'the second notice');
    await channel().deliver([first]);
    const third = notice(playerId, { kind: 'invited', gameId: null, lobbyId: randomUUID(), title: 'Ala invites you', body: 'A table for three.' });
    await channel().deliver([third]);
    await waitFor(() => sentTo(device).length >= 3 || undefined, 'the third notice');
    const messages = sentTo(device).map((r) => device.open(r.body) as { kind: string; tag: string });
    expect(messages.map((m) => m.kind)).toEqual(['yourTurn', 'gameFinished', 'invited']);
    expect(messages[2]!.tag).toBe(`lobby:${third.lobbyId}`);
    expect(sentTo(device)[1]!.headers.urgency).toBe('normal');

    const listed = await t.gql(LIST, {}, token);
    expect(listed.data!.myPushSubscriptions).toEqual([{ id: expect.any(String), label: 'Test phone', lastSuccessAt: expect.any(String) }]);
  });

  it('forgets a device its push service answers 410 or 404 for; retries a 503; drops another 4xx', async () => {
    const { id: playerId, token } = await t.register(fresh('gone'));
    const gone = new Device(`${service.origin}/gone/${randomUUID()}`);
    const missing = new Device(`${service.origin}/missing/${randomUUID()}`);
    const busy = new Device(`${service.origin}/busy/${randomUUID()}`);
    await subscribe(token, gone);
    await subscribe(token, missing);
    const busyId = await subscribe(token, busy);
    service.answer(new URL(gone.endpoint).pathname, 410);
    service.answer(new URL(missing.endpoint).pathname, 404);
    service.answer(new URL(busy.endpoint).pathname, 503);

    await channel().deliver([notice(playerId)]);
    // The queue's backoff: about e¹ seconds before the 2nd try.
    await waitFor(() => sentTo(busy).length >= 2 || undefined, 'the retried send');
    // The push service has the retry before the server has its answer: the success is recorded after.
    const left = await waitFor(async () => {
      const list = await t.gql(LIST, {}, token);
      return list.data?.myPushSubscriptions.some((d: { lastSuccessAt: string | null }) => d.lastSuccessAt !== null) ? list : undefined;
    }, 'the retry’s success recorded');
    expect(left.data!.myPushSubscriptions.map((d: { id: string }) => d.id)).toEqual([busyId]);
    expect(left.data!.myPushSubscriptions[0].lastSuccessAt).not.toBeNull();
    expect(sentTo(gone)).toHaveLength(1);
    expect(sentTo(missing)).toHaveLength(1);

    // A 400 is the push service refusing this message: dropped, the device kept.
    service.answer(new URL(busy.endpoint).pathname, 400);
    const refused = notice(playerId);
    await channel().deliver([refused]);
    await waitFor(() => sentTo(busy).length >= 3 || undefined, 'the refused send');
    const barrier = notice(playerId);
    await channel().deliver([barrier]);
    await waitFor(() => sentTo(busy).length >= 4 || undefined, 'the next send');
    expect(sentTo(busy).map((r) => (busy.open(r.body) as { url: string }).url).slice(2)).toEqual([refused.path, barrier.path]);
  });

  it('refuses endpoints on private addresses, keys of the wrong size, and more devices than allowed; the same endpoint again renews it', async () => {
    const { token } = await t.register(fresh('bad'));
    const keys = new Device('').keys;
    const refusal = async (input: Record<string, unknown>) => {
      const answer = await t.gql(ADD, { input: { endpoint: `${service.origin}/x`, keys, ...input } }, token);
      return answer.errors?.[0]?.extensions;
    };
    expect(await refusal({ endpoint: 'https://10.1.2.3/push' })).toMatchObject({ code: 'BAD_INPUT', field: 'endpoint' });
    expect(await refusal({ endpoint: 'https://[::ffff:169.254.169.254]/push' })).toMatchObject({ code: 'BAD_INPUT', field: 'endpoint' });
    expect(await refusal({ endpoint: 'ftp://127.0.0.1/push' })).toMatchObject({ code: 'BAD_INPUT', field: 'endpoint' });
    expect(await refusal({ endpoint: `https://x.example/${'a'.repeat(2048)}` })).toMatchObject({ code: 'BAD_INPUT' });
    expect(await refusal({ keys: { ...keys, p256dh: keys.p256dh.slice(0, 40) } })).toMatchObject({ code: 'BAD_INPUT', field: 'keys.p256dh' });
    expect(await refusal({ keys: { ...keys, p256dh: Buffer.alloc(65, 2).toString('base64url') } })).toMatchObject({ code: 'BAD_INPUT', field: 'keys.p256dh' });
    expect(await refusal({ keys: { ...keys, auth: randomBytes(12).toString('base64url') } })).toMatchObject({ code: 'BAD_INPUT', field: 'keys.auth' });
    expect(await refusal({ keys: { ...keys, auth: 'not base64!' } })).toMatchObject({ code: 'BAD_INPUT' });

    // Through REST, the label from the User-Agent the test's fetch sends ("node").
    const devices = [1, 2, 3].map((i) => new Device(`${service.origin}/many/${i}/${randomUUID()}`));
    const first = await t.rest('POST', '/api/v1/me/push-subscriptions', { endpoint: devices[0]!.endpoint, keys: devices[0]!.keys }, token);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(String), label: 'Browser', createdAt: expect.any(String), lastSuccessAt: null });
    const again = await t.rest('POST', '/api/v1/me/push-subscriptions', { endpoint: devices[0]!.endpoint, keys: new Device('').keys, label: 'Laptop' }, token);
    expect(again.body).toMatchObject({ id: first.body.id, label: 'Laptop' });
    await subscribe(token, devices[1]!);
    await subscribe(token, devices[2]!);
    expect(await refusal({ endpoint: `${service.origin}/many/4` })).toMatchObject({ code: 'CONFLICT', limit: 3 });

    const listed = await t.rest('GET', '/api/v1/me/push-subscriptions', undefined, token);
    expect(listed.body).toHaveLength(3);
    const removed = await t.rest('DELETE', `/api/v1/me/push-subscriptions/${first.body.id}`, undefined, token);
    expect(removed.status).toBe(200);
    expect((await t.rest('DELETE', `/api/v1/me/push-subscriptions/${first.body.id}`, undefined, token)).status).toBe(404);
    // Another player cannot remove one of them.
    const other = await t.register(fresh('other'));
    const theirs = await t.gql('mutation($id: ID!) { removePushSubscription(id: $id) { id } }', { id: listed.body[1].id }, other.token);
    expect(theirs.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', '/api/v1/push/public-key')).body).toEqual({ publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/) });
  });

  it('keeps one VAPID key pair however many instances make one at once', async () => {
    const prisma = t.app.get(PrismaService);
    const before = await prisma.vapidKeyPair.findMany();
    expect(before).toHaveLength(1);
    await prisma.vapidKeyPair.deleteMany();
    try {
      const pairs = await Promise.all(Array.from({ length: 6 }, () => t.app.get(VapidKeys).stored()));
      expect(new Set(pairs.map((p) => p.publicKey)).size).toBe(1);
      expect(await prisma.vapidKeyPair.count()).toBe(1);
    } finally {
      await prisma.vapidKeyPair.deleteMany();
      await prisma.vapidKeyPair.create({ data: before[0]! });
    }
  });
});

describe('Web Push settings', () => {
  it('take the VAPID subject from MAIL_FROM, else an https PUBLIC_URL; a key pair given whole', () => {
    expect(loadConfig({}).push).toMatchObject({ vapidSubject: 'mailto:no-reply@localhost', vapidKeys: null, allowHttpLoopback: false, devicesPerPlayer: 10 });
    expect(loadConfig({ MAIL_FROM: 'ops@example.com' }).push.vapidSubject).toBe('mailto:ops@example.com');
    expect(loadConfig({ MAIL_FROM: 'Mizerka', PUBLIC_URL: 'https://play.example.com' }).push.vapidSubject).toBe('https://play.example.com');
    expect(loadConfig({ MAIL_FROM: 'Mizerka', PUBLIC_URL: 'http://localhost:3000' }).push.vapidSubject).toBeNull();
    expect(loadConfig({ VAPID_SUBJECT: 'https://example.com/contact' }).push.vapidSubject).toBe('https://example.com/contact');
    const publicKey = Buffer.alloc(65, 4).toString('base64url');
    const privateKey = Buffer.alloc(32, 1).toString('base64url');
    expect(loadConfig({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey }).push.vapidKeys).toEqual({ publicKey, privateKey });
  });

  it.each([
    [{ VAPID_PUBLIC_KEY: Buffer.alloc(65, 4).toString('base64url') }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_PRIVATE_KEY: 'short' }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_SUBJECT: 'http://example.com' }, 'VAPID_SUBJECT'],
    [{ NODE_ENV: 'production', PUSH_ALLOW_HTTP_LOOPBACK: 'true' }, 'PUSH_ALLOW_HTTP_LOOPBACK'],
  ])('refuse %o, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
