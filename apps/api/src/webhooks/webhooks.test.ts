import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { cardNamesIn, players, startGame } from '../games/games.test-kit.js';
import { FEED_START, readFeed } from '../player-events/feed.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { deliveryBody, deliveryPayload } from './deliveries.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { addFeedEvents, startReceiver, waitFor, webhookTestConfig, type Receiver } from './webhooks.test-kit.js';
import { quietFor } from '../../../../test/wait.js';

let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestApp(webhookTestConfig({ endpointsPerPlayer: 3 }));
});
afterAll(async () => {
  await t?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(answer?: Receiver['answer']): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

let counter = 0;
async function player(): Promise<{ id: string; token: string }> {
  return t.register(`wh${process.pid % 10_000}x${++counter}`);
}

const ENDPOINT_FIELDS = 'id url description eventTypes enabled disabledReason disabledAt failingSince createdAt updatedAt';
const DELIVERY_FIELDS = 'id eventId type status attempts nextAttemptAt createdAt finishedAt body attemptLog { attempt at statusCode durationMs error }';
const CREATE = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } } }`;
const DELIVERIES = `query($id: ID!, $first: Int, $after: String) {
  webhookDeliveries(endpointId: $id, first: $first, after: $after) { deliveries { ${DELIVERY_FIELDS} } nextCursor hasMore }
}`;

async function createEndpoint(token: string, url: string, eventTypes: string[], description?: string) {
  const result = await t.gql(CREATE, { input: { url, eventTypes, description } }, token);
  if (!result.data?.createWebhookEndpoint) throw new Error(JSON.stringify(result.errors));
  return result.data.createWebhookEndpoint as { secret: string; endpoint: { id: string; [k: string]: unknown } };
}

async function deliveries(token: string, endpointId: string) {
  const result = await t.rest('GET', `/api/v1/me/webhooks/${endpointId}/deliveries?first=100`, undefined, token);
  expect(result.status).toBe(200);
  return result.body.deliveries as { id: string; status: string; attempts: number; type: string; body: string; attemptLog: { attempt: number; statusCode: number | null; error: string | null; at: string }[] }[];
}

describe('managing endpoints', () => {
  it('creates an endpoint with a secret shown once; lists, gets, updates and deletes it on both surfaces', async () => {
    const me = await player();
    const created = await createEndpoint(me.token, 'http://127.0.0.1:9/a', ['yourTurn', 'lobbyJoined', 'yourTurn'], 'my bot');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24);
    expect(created.endpoint).toMatchObject({ url: 'http://127.0.0.1:9/a', eventTypes: ['yourTurn', 'lobbyJoined'], enabled: true, description: 'my bot', disabledReason: null });
    const id = created.endpoint.id;

    const rest = await t.rest('POST', '/api/v1/me/webhooks', { url: 'http://127.0.0.1:9/b', eventTypes: ['gameFinished'] }, me.token);
    expect(rest.status).toBe(201);
    expect(rest.body.secret).toMatch(/^whsec_/);
    expect(rest.body.secret).not.toBe(created.secret);

    const list = await t.rest('GET', '/api/v1/me/webhooks?first=1', undefined, me.token);
    expect(list.status).toBe(200);
    expect(list.body.endpoints.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(list.body.hasMore).toBe(true);
    const next = await t.gql(`query($after: String) { myWebhookEndpoints(first: 5, after: $after) { endpoints { id url } hasMore nextCursor } }`, { after: list.body.nextCursor }, me.token);
    expect(next.data?.myWebhookEndpoints).toEqual({ endpoints: [{ id: rest.body.endpoint.id, url: 'http://127.0.0.1:9/b' }], hasMore: false, nextCursor: null });
    // The secret is never shown again.
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const one = await t.rest('GET', `/api/v1/me/webhooks/${id}`, undefined, me.token);
    expect(one.body).toMatchObject({ id, url: 'http://127.0.0.1:9/a' });
    expect(JSON.stringify(one.body)).not.toContain('whsec_');

    const disabled = await t.rest('PATCH', `/api/v1/me/webhooks/${id}`, { enabled: false, eventTypes: ['gameStarted'], description: null }, me.token);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, eventTypes: ['gameStarted'], description: null, disabledReason: 'Disabled by its owner' });
    const enabled = await t.gql(
      `mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: { enabled: true, url: "http://127.0.0.1:9/c" }) { ${ENDPOINT_FIELDS} } }`,
      { id },
      me.token,
    );
    expect(enabled.data?.updateWebhookEndpoint).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, url: 'http://127.0.0.1:9/c' });

    const deleted = await t.gql(`mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }`, { id }, me.token);
    expect(deleted.data?.deleteWebhookEndpoint).toEqual({ id });
    expect((await t.rest('GET', `/api/v1/me/webhooks/${id}`, undefined, me.token)).status).toBe(404);
    expect((await t.rest('DELETE', `/api/v1/me/webhooks/${rest.body.endpoint.id}`, undefined, me.token)).status).toBe(200);
  });

  it("treats another player's endpoint as not found, everywhere", async () => {
    const owner = await player();
    const other = await player();
    const { endpoint } = await createEndpoint(owner.token, 'http://127.0.0.1:9/x', ['yourTurn']);
    const base = `/api/v1/me/webhooks/${endpoint.id}`;
    for (const [method, path, body] of [
      ['GET', base],
      ['PATCH', base, { enabled: false }],
      ['DELETE', base],
      ['GET', `${base}/deliveries`],
      ['POST', `${base}/deliveries/00000000-0000-4000-8000-000000000000/resend`],
    ] as const) {
      const answer = await t.rest(method, path, body, other.token);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
    const gql = await t.gql(`query($id: ID!) { webhookEndpoint(id: $id) { id } }`, { id: endpoint.id }, other.token);
    expect(gql.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const list = await t.gql('{ myWebhookEndpoints { endpoints { id } } }', {}, other.token);
    expect(list.data?.myWebhookEndpoints.endpoints).toEqual([]);
    expect((await t.rest('GET', base, undefined, owner.token)).status).toBe(200);
  });

  it('needs the webhooks scope (which play grants); a webhooks token manages them and cannot play', async () => {
    const me = await player();
    const token = await t.gql(`mutation { createApiToken(input: { name: "ro", scopes: [read] }) { token } }`, {}, me.token);
    const readOnly = token.data!.createApiToken.token as string;
    const rest = await t.rest('GET', '/api/v1/me/webhooks', undefined, readOnly);
    expect(rest.status).toBe(403);
    expect(rest.body.detail).toMatch(/"webhooks"/);
    const gql = await t.gql(CREATE, { input: { url: 'http://127.0.0.1:9/', eventTypes: ['yourTurn'] } }, readOnly);
    expect(gql.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const made = await t.gql(`mutation { createApiToken(input: { name: "hooks", scopes: [webhooks] }) { token } }`, {}, me.token);
    const hooks = made.data!.createApiToken.token as string;
    expect((await t.rest('GET', '/api/v1/me/webhooks', undefined, hooks)).status).toBe(200);
    const lobby = await t.gql('mutation { createLobby(input: { preset: "short" }) { id } }', {}, hooks);
    expect(lobby.errors?.[0].message).toMatch(/"play"/);
    const playing = await t.gql(`mutation { createApiToken(input: { name: "bot" }) { token } }`, {}, me.token);
    expect((await t.rest('GET', '/api/v1/me/webhooks', undefined, playing.data!.createApiToken.token)).status).toBe(200);
  });

  it('checks its input: event types, and the cap on endpoints per player', async () => {
    const me = await player();
    for (const eventTypes of [[], ['nope']]) {
      const answer = await t.rest('POST', '/api/v1/me/webhooks', { url: 'http://127.0.0.1:9/', eventTypes }, me.token);
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toMatch(/eventTypes/);
    }
    const gql = await t.gql(CREATE, { input: { url: 'http://127.0.0.1:9/', eventTypes: ['nope'] } }, me.token);
    expect(gql.errors?.[0].extensions?.code).toBe('BAD_INPUT');
    for (let i = 0; i < 3; i++) await createEndpoint(me.token, `http://127.0.0.1:9/${i}`, ['yourTurn']);
    const over = await t.rest('POST', '/api/v1/me/webhooks', { url: 'http://127.0.0.1:9/4', eventTypes: ['yourTurn'] }, me.token);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'CONFLICT', limit: 3 });
  });
});

describe('delivering', () => {
  it('POSTs the events of the endpoint’s types from its creation on, signed as Standard Webhooks says', async () => {
    const me = await player();
    const r = await receiver();
    await addFeedEvents(t, me.id, ['lobbyJoined']); // before the endpoint: not replayed
    const { secret, endpoint } = await createEndpoint(me.token, r.url, ['lobbyJoined', 'yourTurn']);
    await addFeedEvents(t, me.id, ['lobbyLeft', 'lobbyJoined', 'lobbyLeft', 'yourTurn']);
    await waitFor(() => r.requests.length >= 2, 10_000, 'two deliveries');

    const verifier = new Webhook(secret);
    const bodies = r.requests.map((request) => {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^Mizerka-Webhooks\//);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      const verified = verifier.verify(request.body, request.headers as Record<string, string>);
      expect(verified).toEqual(JSON.parse(request.body));
      // Tampering is caught.
      expect(() => verifier.verify(request.body.replace('"seat"', '"Seat"'), request.headers as Record<string, string>)).toThrow();
      return JSON.parse(request.body) as { type: string; timestamp: string; data: Record<string, unknown> };
    });
    bodies.sort((a, b) => a.type.localeCompare(b.type));
    expect(bodies.map((b) => b.type)).toEqual(['lobbyJoined', 'yourTurn']);
    expect(Object.keys(bodies[0])).toEqual(['type', 'timestamp', 'data']);
    expect(bodies[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(bodies[0].data).toMatchObject({ eventId: expect.stringMatching(/^\d+-\d+$/), gameId: null, lobbyId: expect.any(String), seq: null, payload: { name: 'ala' } });
    expect(bodies[1].data).toMatchObject({ gameId: expect.any(String), seq: 3, payload: { seq: 3, preset: 'classic' } });

    // Nothing else comes: not the lobbyLeft events, not the one before the endpoint existed.
    await t.app.get(WebhookDispatcher).dispatchAll();
    await quietFor(500); // what the pass just made would be sent within it (the queue polls every 200 ms)
    expect(r.requests).toHaveLength(2);
    const log = await deliveries(me.token, endpoint.id);
    expect(log.map((d) => [d.type, d.status, d.attempts]).sort()).toEqual([
      ['lobbyJoined', 'delivered', 1],
      ['yourTurn', 'delivered', 1],
    ]);
    // The log shows the very body that was sent, and webhook-id is the delivery's id.
    for (const delivery of log) {
      expect(r.requests.find((q) => q.headers['webhook-id'] === delivery.id)?.body).toBe(delivery.body);
      expect(delivery.attemptLog).toMatchObject([{ attempt: 1, statusCode: 204, error: null }]);
    }
  });

  it('queues again a pending delivery whose job was lost, and only one that is overdue', async () => {
    const me = await player();
    const r = await receiver();
    const { endpoint } = await createEndpoint(me.token, r.url, ['lobbyJoined']);
    const prisma = t.app.get(PrismaService);
    // Deliveries as a fan-out wrote them, whose job then failed for good: nothing will send them.
    const body = (eventId: string) => ({ type: 'lobbyJoined', timestamp: new Date().toISOString(), data: { eventId, gameId: null, lobbyId: null, seq: null, payload: {} } });
    const lost = await prisma.webhookDelivery.create({
      data: { endpointId: endpoint.id, eventId: 900_001n, type: 'lobbyJoined', payload: body('0-900001'), nextAttemptAt: new Date(Date.now() - 10 * 60_000) },
    });
    const waiting = await prisma.webhookDelivery.create({
      data: { endpointId: endpoint.id, eventId: 900_002n, type: 'lobbyJoined', payload: body('0-900002'), nextAttemptAt: new Date(Date.now() + 60 * 60_000) },
    });
    expect(await t.app.get(WebhookDispatcher).rescueOverdue()).toBe(1);
    await waitFor(() => r.requests.length >= 1, 10_000, 'the lost delivery');
    await waitFor(async () => (await prisma.webhookDelivery.findUnique({ where: { id: lost.id } }))?.status === 'delivered', 10_000, 'delivered');
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([lost.id]);
    expect((await prisma.webhookDelivery.findUnique({ where: { id: waiting.id } }))?.status).toBe('pending');
    // Nothing overdue any more: the next sweep queues nothing.
    expect(await t.app.get(WebhookDispatcher).rescueOverdue()).toBe(0);
  });

  it('fans each event out once, however often it is woken', async () => {
    const me = await player();
    const r = await receiver();
    await createEndpoint(me.token, r.url, ['lobbyJoined']);
    await addFeedEvents(t, me.id, ['lobbyJoined', 'lobbyJoined', 'lobbyJoined']);
    const dispatcher = t.app.get(WebhookDispatcher);
    await Promise.all([dispatcher.dispatchAll(), dispatcher.dispatchAll(), dispatcher.dispatchAll()]);
    await waitFor(() => r.requests.length >= 3, 10_000, 'three deliveries');
    await quietFor(500); // a duplicate fan-out's delivery would be sent within it (the queue polls every 200 ms)
    expect(new Set(r.requests.map((q) => JSON.parse(q.body).data.eventId)).size).toBe(3);
    expect(r.requests).toHaveLength(3);
  });

  it('stores the body the feed event gives, and sends an endpoint’s deliveries over a few kept-alive connections', async () => {
    const me = await player();
    const r = await receiver();
    const { endpoint } = await createEndpoint(me.token, r.url, ['lobbyJoined']);
    await addFeedEvents(t, me.id, ['lobbyJoined', 'lobbyJoined', 'lobbyJoined', 'lobbyJoined', 'lobbyJoined', 'lobbyJoined', 'lobbyJoined', 'lobbyJoined']);
    await waitFor(() => r.requests.length >= 8, 10_000, 'eight deliveries');
    // The fan-out writes the body in SQL: it is the one deliveryPayload makes of the feed event.
    const events = await readFeed(t.app.get(PrismaService), me.id, FEED_START, 100);
    const bodies = new Map(r.requests.map((q) => [JSON.parse(q.body).data.eventId as string, q.body]));
    // (Below the top level, keys come in jsonb's order, as they always have.)
    expect(events).toHaveLength(8);
    for (const event of events) {
      const body = bodies.get(event.id)!;
      expect(JSON.parse(body)).toEqual(JSON.parse(deliveryBody(deliveryPayload(event))));
      expect(body).toBe(deliveryBody(JSON.parse(body)));
    }
    // Four at a time at most, over connections kept alive: fewer connections than deliveries.
    const ports = new Set(r.requests.map((q) => q.remotePort));
    expect(ports.size).toBeLessThanOrEqual(4);
    await addFeedEvents(t, me.id, ['lobbyJoined']);
    await waitFor(() => r.requests.length >= 9, 10_000, 'a ninth delivery');
    expect(ports.has(r.requests[8].remotePort)).toBe(true);
    expect((await deliveries(me.token, endpoint.id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });

  it('sends no card: the bodies of a real game’s events', async () => {
    const seated = await players(t, 3, 'whg');
    const r = await receiver();
    const { secret } = await createEndpoint(seated[0].token, r.url, ['gameStarted', 'yourTurn']);
    await startGame(t, seated, 'classic');
    await waitFor(() => r.requests.some((q) => JSON.parse(q.body).type === 'gameStarted'), 10_000, 'gameStarted');
    for (const q of r.requests) {
      new Webhook(secret).verify(q.body, q.headers as Record<string, string>);
      expect([...cardNamesIn(JSON.parse(q.body))]).toEqual([]);
      expect(q.body).not.toMatch(/"(hand|hands|talon|deck|cards|discards|seed)"/);
    }
  });

  it('retries a 500 on the schedule, logs each attempt, gives up as failed; a re-send tries again at once', async () => {
    const me = await player();
    const r = await receiver(() => ({ status: 500 }));
    const { endpoint, secret } = await createEndpoint(me.token, r.url, ['yourTurn']);
    await addFeedEvents(t, me.id, ['yourTurn']);
    const [failed] = await waitFor(async () => {
      const log = await deliveries(me.token, endpoint.id);
      return log[0]?.status === 'failed' ? log : undefined;
    }, 15_000, 'the delivery to fail');
    expect(failed.attempts).toBe(3);
    expect(failed.attemptLog.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 500, 'HTTP 500'],
    ]);
    // The schedule (1 s, 1 s) between attempts, the same webhook-id each time.
    const times = r.requests.map((q) => q.at);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(900);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(900);
    expect(new Set(r.requests.map((q) => q.headers['webhook-id']))).toEqual(new Set([failed.id]));
    const endpointNow = await t.rest('GET', `/api/v1/me/webhooks/${endpoint.id}`, undefined, me.token);
    expect(endpointNow.body.failingSince).not.toBeNull();
    expect(endpointNow.body.enabled).toBe(true);

    r.answer = () => ({ status: 200 });
    const resent = await t.rest('POST', `/api/v1/me/webhooks/${endpoint.id}/deliveries/${failed.id}/resend`, undefined, me.token);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ id: failed.id, status: 'pending' });
    const delivered = await waitFor(async () => {
      const log = await deliveries(me.token, endpoint.id);
      return log[0]?.status === 'delivered' ? log[0] : undefined;
    }, 10_000, 'the re-send');
    expect(delivered.attemptLog.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
    new Webhook(secret).verify(r.requests[3].body, r.requests[3].headers as Record<string, string>);
    expect((await t.rest('GET', `/api/v1/me/webhooks/${endpoint.id}`, undefined, me.token)).body.failingSince).toBeNull();

    // A delivered one may be sent again too, over GraphQL.
    const again = await t.gql(
      `mutation($e: ID!, $d: ID!) { resendWebhookDelivery(endpointId: $e, deliveryId: $d) { id status } }`,
      { e: endpoint.id, d: failed.id },
      me.token,
    );
    expect(again.data?.resendWebhookDelivery).toEqual({ id: failed.id, status: 'pending' });
    await waitFor(() => r.requests.length >= 5, 10_000, 'the second re-send');
  });

  it('gives up what is still due when its owner disables the endpoint', async () => {
    const me = await player();
    const r = await receiver(() => ({ status: 500 }));
    const { endpoint } = await createEndpoint(me.token, r.url, ['lobbyJoined']);
    await addFeedEvents(t, me.id, ['lobbyJoined']);
    const retrying = await waitFor(async () => {
      const log = await deliveries(me.token, endpoint.id);
      return log[0]?.attempts === 1 ? log[0] : undefined;
    }, 10_000, 'a first failed attempt');
    expect(retrying).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(String) });
    await t.rest('PATCH', `/api/v1/me/webhooks/${endpoint.id}`, { enabled: false }, me.token);
    const [given] = await deliveries(me.token, endpoint.id);
    expect(given).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    await quietFor(1500); // past the retry that was due 1 s after the first attempt
    expect(r.requests).toHaveLength(1);
  });

  it('times out a receiver that never answers, and retries it', async () => {
    const me = await player();
    const r = await receiver(() => 'hang');
    const { endpoint } = await createEndpoint(me.token, r.url, ['lobbyJoined']);
    await addFeedEvents(t, me.id, ['lobbyJoined']);
    const [failed] = await waitFor(async () => {
      const log = await deliveries(me.token, endpoint.id);
      return log[0]?.status === 'failed' ? log : undefined;
    }, 15_000, 'the delivery to fail');
    expect(r.requests).toHaveLength(3);
    expect(failed.attemptLog).toHaveLength(3);
    for (const a of failed.attemptLog) {
      expect(a.statusCode).toBeNull();
      expect(a.error).toBe('timed out after 500 ms');
    }
  });

  it('shows the delivery log by page, the same over GraphQL and REST', async () => {
    const me = await player();
    const r = await receiver();
    const { endpoint } = await createEndpoint(me.token, r.url, ['lobbyJoined']);
    await addFeedEvents(t, me.id, ['lobbyJoined', 'lobbyJoined', 'lobbyJoined']);
    await waitFor(async () => (await deliveries(me.token, endpoint.id)).every((d) => d.status === 'delivered') && r.requests.length === 3, 10_000, 'deliveries');

    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { data?: { webhookDeliveries: { deliveries: { id: string; status: string; attemptLog: unknown[] }[]; nextCursor: string | null; hasMore: boolean } } | null } = await t.gql(
        DELIVERIES,
        { id: endpoint.id, first: 2, after },
        me.token,
      );
      expect((page as { errors?: unknown }).errors).toBeUndefined();
      const { deliveries: items, nextCursor, hasMore } = page.data!.webhookDeliveries;
      const rest = await t.rest('GET', `/api/v1/me/webhooks/${endpoint.id}/deliveries?first=2${after ? `&after=${after}` : ''}`, undefined, me.token);
      expect(rest.body).toEqual(page.data!.webhookDeliveries);
      seen.push(...items.map((d) => d.id));
      expect(items.every((d) => d.status === 'delivered' && d.attemptLog.length === 1)).toBe(true);
      if (!hasMore) break;
      after = nextCursor;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    const bad = await t.rest('GET', `/api/v1/me/webhooks/${endpoint.id}/deliveries?after=nonsense`, undefined, me.token);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('after');
  });
});

describe('disabling', () => {
  let d: TestApp;
  beforeAll(async () => {
    d = await startTestApp(webhookTestConfig({ retrySchedule: [1, 1, 1, 1], disableAfterMs: 1500 }));
  });
  afterAll(async () => {
    await d?.close();
  });

  it('disables an endpoint failing for longer than the setting, says why, and sends it nothing more', async () => {
    const me = await d.register('disabled1');
    const r = await receiver(() => ({ status: 503 }));
    const created = await d.rest('POST', '/api/v1/me/webhooks', { url: r.url, eventTypes: ['lobbyJoined'] }, me.token);
    const id = created.body.endpoint.id as string;
    await addFeedEvents(d, me.id, ['lobbyJoined']);
    const endpoint = await waitFor(async () => {
      const e = await d.rest('GET', `/api/v1/me/webhooks/${id}`, undefined, me.token);
      return e.body.enabled === false ? e.body : undefined;
    }, 15_000, 'the endpoint to be disabled');
    expect(endpoint.disabledReason).toMatch(/every delivery has failed since .*; the last attempt: HTTP 503/);
    expect(endpoint.disabledAt).not.toBeNull();
    const failing = new Date(endpoint.failingSince as string).getTime();
    expect(new Date(endpoint.disabledAt as string).getTime() - failing).toBeGreaterThanOrEqual(1500);

    // What was still due is given up; new events make no delivery.
    await waitFor(async () => {
      const log = (await d.rest('GET', `/api/v1/me/webhooks/${id}/deliveries`, undefined, me.token)).body.deliveries;
      return log.every((x: { status: string }) => x.status === 'failed') ? log : undefined;
    }, 10_000, 'the pending delivery to be given up');
    const sent = r.requests.length;
    await addFeedEvents(d, me.id, ['lobbyJoined']);
    await d.app.get(WebhookDispatcher).dispatchAll();
    await quietFor(1500); // a delivery made by the pass would be sent, and retried after 1 s, within it
    expect(r.requests).toHaveLength(sent);
    expect((await d.rest('GET', `/api/v1/me/webhooks/${id}/deliveries`, undefined, me.token)).body.deliveries).toHaveLength(1);
    const resend = await d.rest('POST', `/api/v1/me/webhooks/${id}/deliveries/${(await d.rest('GET', `/api/v1/me/webhooks/${id}/deliveries`, undefined, me.token)).body.deliveries[0].id}/resend`, undefined, me.token);
    expect(resend.status).toBe(409);

    // Enabled again: the reason goes, and events from now on are delivered (not those in between).
    r.answer = () => ({ status: 200 });
    const enabled = await d.rest('PATCH', `/api/v1/me/webhooks/${id}`, { enabled: true }, me.token);
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    await addFeedEvents(d, me.id, ['lobbyJoined']);
    await waitFor(() => r.requests.length === sent + 1, 10_000, 'a delivery after enabling');
    await quietFor(300); // an event from while it was disabled, sent late, would follow within it
    expect(r.requests).toHaveLength(sent + 1);
  }, 30_000);
});
