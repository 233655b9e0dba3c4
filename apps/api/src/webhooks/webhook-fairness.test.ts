import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { addFeedEvents, startReceiver, waitFor, webhookTestConfig, type Receiver } from './webhooks.test-kit.js';
import { quietFor } from '../../../../test/wait.js';

// Isolation between endpoints and between players, the retry timing, the circuit breaker, the
// rotation of a secret, and shutdown with an attempt in flight. Every receiver is on loopback; a
// hanging one accepts and never answers (closed in afterAll).

// A hanging receiver holds an attempt for the whole time-out: long here, so that waiting behind one
// stands out from the noise of a loaded machine (other tests run beside these).
const TIMEOUT_MS = 20_000;
/** Under it, a delivery did not wait for a hanging receiver's time-out. */
const UNDELAYED_MS = 8_000;
const SCHEDULE = [1, 1, 2];

let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestApp(webhookTestConfig({ retrySchedule: SCHEDULE, timeoutMs: TIMEOUT_MS, endpointsPerPlayer: 10 }, { pollMs: 100 }));
});
afterAll(async () => {
  // The receivers first: their hanging attempts end at once, and the app need not wait for them.
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

async function receiver(answer?: Receiver['answer']): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

let counter = 0;
async function player(app = t): Promise<{ id: string; token: string }> {
  return app.register(`whf${process.pid % 10_000}x${++counter}`);
}

async function endpoint(token: string, url: string, app = t): Promise<{ id: string; secret: string }> {
  const created = await app.rest('POST', '/api/v1/me/webhooks', { url, eventTypes: ['lobbyJoined'] }, token);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return { id: created.body.endpoint.id, secret: created.body.secret };
}

/** From a feed event's commit to its arrival at the receiver (ms). */
async function latency(r: Receiver, playerId: string): Promise<number> {
  const before = r.requests.length;
  const started = Date.now();
  await addFeedEvents(t, playerId, ['lobbyJoined']);
  await waitFor(() => r.requests.length > before, 2 * TIMEOUT_MS, 'a delivery to the healthy receiver');
  return r.requests[before]!.at - started;
}

describe('isolation', () => {
  it('records each endpoint’s attempt from its own end: a hanging receiver delays neither a healthy endpoint nor another’s retries', async () => {
    const healthy = await receiver();
    const a = await player();
    await endpoint(a.token, healthy.url);
    await latency(healthy, a.id); // warm-up
    const alone = [await latency(healthy, a.id), await latency(healthy, a.id)];

    // The same player's other endpoints: one hangs, one answers 500. An event goes to all three in
    // one job of the fan-out.
    const hanging = await receiver(() => 'hang');
    const failing = await receiver(() => ({ status: 500 }));
    await endpoint(a.token, hanging.url);
    await endpoint(a.token, failing.url);
    const beside = await latency(healthy, a.id);
    // The next event, while the hanging attempt is in flight.
    await waitFor(() => hanging.requests.length >= 1, 2 * TIMEOUT_MS, 'the hanging receiver to be called');
    const besideHanging = await latency(healthy, a.id);

    const first = () => failing.requests.filter((q) => q.headers['webhook-id'] === failing.requests[0]!.headers['webhook-id']);
    await waitFor(() => first().length >= 4, 2 * TIMEOUT_MS, 'four attempts at the failing receiver');
    const attempts = first();
    const gaps = attempts.slice(1).map((q, i) => q.at - attempts[i]!.at);
    console.log(`healthy receiver: ${alone.join(', ')} ms alone; ${beside}, ${besideHanging} ms beside a hanging one; retry gaps ${gaps.join(', ')} ms (schedule ${SCHEDULE.join(', ')} s)`);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(SCHEDULE[i]! * 1000 - 50);
      expect(gap).toBeLessThan(SCHEDULE[i]! * 1000 + 300);
    });
    // Unchanged by the hanging receiver: well under its time-out, which it used to add.
    for (const ms of [beside, besideHanging]) expect(ms).toBeLessThan(UNDELAYED_MS);
  }, 120_000);

  it('gives a fourth player’s delivery its usual latency while three players’ thirty endpoints hang', async () => {
    const healthy = await receiver();
    const d = await player();
    await endpoint(d.token, healthy.url);
    const alone = [await latency(healthy, d.id), await latency(healthy, d.id)];

    const hanging = await receiver(() => 'hang');
    const owners = [await player(), await player(), await player()];
    for (const owner of owners) {
      for (let i = 0; i < 10; i++) await endpoint(owner.token, `${hanging.url}?n=${i}`);
    }
    // One event at a time, each fanned out before the next: thirty passes of the fan-out, thirty jobs.
    const prisma = t.app.get(PrismaService);
    for (let i = 0; i < 10; i++) {
      for (const o of owners) {
        await addFeedEvents(t, o.id, ['lobbyJoined']);
        const want = 10 * (i + 1);
        await waitFor(async () => (await prisma.webhookDelivery.count({ where: { endpoint: { playerId: o.id } } })) >= want, 20_000, 'the fan-out');
      }
    }
    await waitFor(() => hanging.requests.length >= 12, 2 * TIMEOUT_MS, 'the hanging receivers to be called');
    const during: number[] = [];
    for (let i = 0; i < 3; i++) during.push(await latency(healthy, d.id));
    console.log(`fourth player's delivery: ${alone.join(', ')} ms alone; ${during.join(', ')} ms beside 30 hanging endpoints (${hanging.requests.length} hanging requests)`);
    for (const ms of during) expect(ms).toBeLessThan(UNDELAYED_MS);
  }, 120_000);

  it('trips the breaker on a time-out: the endpoint’s other deliveries wait for the pause instead of each timing out', async () => {
    const hanging = await receiver(() => 'hang');
    const app = await startTestApp(webhookTestConfig({ retrySchedule: SCHEDULE, timeoutMs: 2000 }, { pollMs: 100 }));
    try {
    const p = await player(app);
    const { id } = await endpoint(p.token, hanging.url, app);
    await addFeedEvents(app, p.id, Array<'lobbyJoined'>(10).fill('lobbyJoined'));
    const paused = await waitFor(async () => {
      const answer = await app.rest('GET', `/api/v1/me/webhooks/${id}/deliveries?first=100`, undefined, p.token);
      const list = answer.body.deliveries as { attempts: number }[];
      return list.length === 10 && list.some((x) => x.attempts > 0) ? list : undefined;
    }, 20_000, 'a first run');
    // At most IN_FLIGHT (4) attempts timed out; the others were not tried and wait for the pause.
    expect(paused.filter((x) => x.attempts > 0).length).toBeLessThanOrEqual(4);
    expect(paused.filter((x) => x.attempts === 0).length).toBeGreaterThanOrEqual(6);
    // After the pause a single probe goes first.
    const first = hanging.requests.length;
    await waitFor(() => hanging.requests.length > first, 20_000, 'the probe');
    await quietFor(300); // the other lanes, were they not held back, would start within it
    expect(hanging.requests.length).toBe(first + 1);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('rotating the secret', () => {
  it('signs with both secrets during the window, then with the new one only', async () => {
    const r = await receiver();
    const p = await player();
    const { id, secret: old } = await endpoint(p.token, r.url);
    const bad = await t.rest('POST', `/api/v1/me/webhooks/${id}/rotate-secret`, { previousSecretValidSeconds: -1 }, p.token);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/previousSecretValidSeconds/);

    const rotated = await t.rest('POST', `/api/v1/me/webhooks/${id}/rotate-secret`, { previousSecretValidSeconds: 600 }, p.token);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    const until = new Date(rotated.body.endpoint.previousSecretExpiresAt as string).getTime();
    expect(until).toBeGreaterThan(Date.now());

    await addFeedEvents(t, p.id, ['lobbyJoined']);
    await waitFor(() => r.requests.length >= 1, 10_000, 'a delivery in the window');
    const during = r.requests[0]!;
    expect(during.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const key of [secret, old]) new Webhook(key).verify(during.body, during.headers as Record<string, string>);

    // The window ends (moved into the past rather than waited for).
    await t.app.get(PrismaService).webhookEndpoint.update({ where: { id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    await addFeedEvents(t, p.id, ['lobbyJoined']);
    await waitFor(() => r.requests.length >= 2, 10_000, 'a delivery after the window');
    const after = r.requests[1]!;
    new Webhook(secret).verify(after.body, after.headers as Record<string, string>);
    expect(() => new Webhook(old).verify(after.body, after.headers as Record<string, string>)).toThrow();
    expect((await t.rest('GET', `/api/v1/me/webhooks/${id}`, undefined, p.token)).body.previousSecretExpiresAt).toBeNull();
    // And then it is dropped.
    await t.app.get(WebhookDispatcher).dropExpiredSecrets(); // (or the sweep did already)
    expect(await t.app.get(PrismaService).webhookEndpoint.findUnique({ where: { id }, select: { previousSecret: true } })).toEqual({ previousSecret: null });

    // Over GraphQL, with no window: the secret before is dropped at once.
    const now = await t.gql(
      `mutation($id: ID!) { rotateWebhookSecret(id: $id, input: { previousSecretValidSeconds: 0 }) { secret endpoint { id previousSecretExpiresAt } } }`,
      { id },
      p.token,
    );
    expect(now.data?.rotateWebhookSecret.endpoint).toEqual({ id, previousSecretExpiresAt: null });
    await addFeedEvents(t, p.id, ['lobbyJoined']);
    await waitFor(() => r.requests.length >= 3, 10_000, 'a delivery after the second rotation');
    const last = r.requests[2]!;
    new Webhook(now.data!.rotateWebhookSecret.secret as string).verify(last.body, last.headers as Record<string, string>);
    expect(() => new Webhook(secret).verify(last.body, last.headers as Record<string, string>)).toThrow();
    // Another player's endpoint is not found.
    const other = await player();
    expect((await t.rest('POST', `/api/v1/me/webhooks/${id}/rotate-secret`, {}, other.token)).status).toBe(404);
  }, 30_000);
});

describe('shutdown', () => {
  it('waits for an attempt in flight and records it before the pools close', async () => {
    const hanging = await receiver(() => 'hang');
    const app = await startTestApp(webhookTestConfig({ timeoutMs: 2000 }));
    let closed = false;
    try {
      const p = await player(app);
      await endpoint(p.token, hanging.url, app);
      await addFeedEvents(app, p.id, ['lobbyJoined']);
      await waitFor(() => hanging.requests.length >= 1, 10_000, 'the attempt to be in flight');
      await app.close();
      closed = true;
    } finally {
      if (!closed) await app.close();
    }
    const client = new pg.Client({ connectionString: app.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.url = $1`,
        [hanging.url],
      );
      expect(rows).toEqual([{ error: 'timed out after 2000 ms' }]);
    } finally {
      await client.end();
    }
  }, 30_000);
});
