import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestAppsPerTest, type TestApp } from '../../../../test/app.js';
import { createTestDatabase } from '../../../../test/database.js';
import { graphqlCost } from './graphql-cost.js';
import { MemoryRateLimitStore } from './rate-limit-store.js';
import { clientAddress } from './rate-limiter.js';

// Every test here runs with a small limit: nothing is lifted out of reach.
const start = startTestAppsPerTest();
afterEach(() => {
  vi.restoreAllMocks();
});

type Call = { status: number; headers: Headers; body: any };
async function call(t: TestApp, path: string, init: { token?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Call> {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}
const figures = (c: Call) => ({
  limit: Number(c.headers.get('ratelimit-limit')),
  remaining: Number(c.headers.get('ratelimit-remaining')),
});
const gql = (t: TestApp, query: string, token?: string, headers?: Record<string, string>) => call(t, '/graphql', { token, headers, body: { query } });

describe('rate limits through the API', () => {
  it('counts per player on REST, with the headers, and answers 429 RATE_LIMITED past the limit on both surfaces', async () => {
    const t = await start({ rateLimitPerMinute: 5 });
    const ala = await t.register('ala');
    const ola = await t.register('ola');
    for (let i = 1; i <= 5; i++) {
      const ok = await call(t, '/api/v1/me', { token: ala.token });
      expect(ok.status).toBe(200);
      expect(figures(ok)).toEqual({ limit: 5, remaining: 5 - i });
      const reset = Number(ok.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
      expect(ok.headers.get('retry-after')).toBeNull();
    }
    const refused = await call(t, '/api/v1/me', { token: ala.token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(figures(refused)).toEqual({ limit: 5, remaining: 0 });

    const overGraphql = await gql(t, '{ me { id } }', ala.token);
    expect(overGraphql.status).toBe(429);
    expect(overGraphql.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(overGraphql.body.extensions.rateLimit).toMatchObject({ limit: 5, remaining: 0 });
    expect(Number(overGraphql.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another player has a budget of its own.
    const other = await call(t, '/api/v1/me', { token: ola.token });
    expect(other.status).toBe(200);
    expect(figures(other)).toEqual({ limit: 5, remaining: 4 });
  });

  it('counts every root field and alias of a GraphQL request, and reports the figures in extensions.rateLimit', async () => {
    const t = await start({ rateLimitPerMinute: 5 });
    const ala = await t.register('ala');
    const three = await gql(t, '{ a: me { id } b: me { id } c: me { name } }', ala.token);
    expect(three.status).toBe(200);
    expect(three.body.data.a.id).toBe(ala.id);
    expect(three.body.extensions.rateLimit).toEqual({ limit: 5, remaining: 2, reset: expect.any(Number) });
    expect(figures(three)).toEqual({ limit: 5, remaining: 2 });
    // Three more do not fit in the two left: the whole request is refused, nothing runs.
    const refused = await gql(t, 'query Q { ...F me { id } } fragment F on Query { x: me { id } y: me { id } }', ala.token);
    expect(refused.status).toBe(429);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  });

  it('counts anonymous calls per IP, and a made-up token buys no fresh budget', async () => {
    const t = await start({ rateLimitPerMinute: 5 });
    const ala = await t.register('ala'); // 1 of the IP's 5
    expect(figures(await call(t, '/api/v1/lobbies'))).toEqual({ limit: 5, remaining: 3 });
    expect(figures(await call(t, '/api/v1/me', { token: 'mzk_made_up' }))).toEqual({ limit: 5, remaining: 2 });
    expect((await gql(t, '{ __typename }', 'mzk_other')).body.extensions.rateLimit.remaining).toBe(1);
    expect((await gql(t, '{ __typename }')).body.extensions.rateLimit.remaining).toBe(0);
    expect((await call(t, '/api/v1/lobbies')).status).toBe(429);
    expect((await call(t, '/api/v1/me', { token: 'mzk_yet_another' })).status).toBe(429);
    // The player is counted apart from its address.
    expect(figures(await call(t, '/api/v1/me', { token: ala.token }))).toEqual({ limit: 5, remaining: 4 });
    // Health checks are never limited.
    expect((await call(t, '/health')).status).toBe(200);
  });

  it('believes X-Forwarded-For only with TRUST_PROXY', async () => {
    const direct = await start({ rateLimitPerMinute: 2 });
    for (const ip of ['203.0.113.1', '203.0.113.2']) {
      expect((await call(direct, '/api/v1/lobbies', { headers: { 'x-forwarded-for': ip } })).status).toBe(200);
    }
    expect((await call(direct, '/api/v1/lobbies', { headers: { 'x-forwarded-for': '203.0.113.3' } })).status).toBe(429);

    const proxied = await start({ rateLimitPerMinute: 2, trustProxy: ['loopback'] }, direct.databaseUrl);
    for (const ip of ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2']) {
      expect((await call(proxied, '/api/v1/lobbies', { headers: { 'x-forwarded-for': ip } })).status).toBe(200);
    }
    expect((await call(proxied, '/api/v1/lobbies', { headers: { 'x-forwarded-for': '203.0.113.1' } })).status).toBe(429);
    // A hop count trusts that many proxies from the right: the client is the one before them.
    const hops = await start({ rateLimitPerMinute: 1, trustProxy: 1 }, direct.databaseUrl);
    expect((await call(hops, '/api/v1/lobbies', { headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' } })).status).toBe(200);
    expect((await call(hops, '/api/v1/lobbies', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(429);
  });
});

// A Redis on this machine, for the shared store; without one these tests are skipped, saying so.
const REDIS_URL = 'redis://127.0.0.1:6379';
const redisAnswers = await (async () => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
})();
if (!redisAnswers) console.warn(`SKIPPED: no Redis answers at ${REDIS_URL}; the shared rate-limit store is not tested`);

describe.skipIf(!redisAnswers)('rate limits shared through Redis', () => {
  it('counts a player across two instances', async () => {
    const databaseUrl = await createTestDatabase();
    const redisPrefix = `mizerka-test-${randomUUID()}:`; // shared by the two, by nothing else
    const one = await start({ rateLimitPerMinute: 4, redisUrl: REDIS_URL, redisPrefix }, databaseUrl);
    const two = await start({ rateLimitPerMinute: 4, redisUrl: REDIS_URL, redisPrefix }, databaseUrl);
    const ala = await one.register('ala');
    expect(figures(await call(one, '/api/v1/me', { token: ala.token }))).toEqual({ limit: 4, remaining: 3 });
    expect(figures(await call(two, '/api/v1/me', { token: ala.token }))).toEqual({ limit: 4, remaining: 2 });
    expect((await gql(one, '{ me { id } }', ala.token)).body.extensions.rateLimit.remaining).toBe(1);
    expect((await gql(two, '{ a: me { id } b: me { id } }', ala.token)).status).toBe(429);
    expect((await call(one, '/api/v1/me', { token: ala.token })).status).toBe(429);
  });
});

describe('when Redis does not answer', () => {
  it('goes on counting in memory: moves keep working', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn');
    // Port 1 on the loopback: nothing listens, the connection is refused at once.
    const t = await start({ rateLimitPerMinute: 3, redisUrl: 'redis://127.0.0.1:1' });
    const ala = await t.register('ala');
    expect(figures(await call(t, '/api/v1/me', { token: ala.token }))).toEqual({ limit: 3, remaining: 2 });
    expect((await call(t, '/api/v1/me', { token: ala.token })).status).toBe(200);
    expect((await call(t, '/api/v1/me', { token: ala.token })).status).toBe(200);
    expect((await call(t, '/api/v1/me', { token: ala.token })).status).toBe(429);
    expect(warn.mock.calls.some(([message]) => /Redis does not answer/.test(String(message)))).toBe(true);
  });
});

describe('graphqlCost', () => {
  it('is one per root field of the operation run, aliases and fragments included', () => {
    expect(graphqlCost({ query: '{ me { id } }' })).toBe(1);
    expect(graphqlCost({ query: '{ a: me { id } b: me { id } __typename }' })).toBe(3);
    expect(graphqlCost({ query: '{ ...F ... on Query { c: me { id } } } fragment F on Query { a: me { id } b: me { id } }' })).toBe(3);
    const two = 'query A { me { id } } query B { a: me { id } b: me { id } c: me { id } }';
    expect(graphqlCost({ query: two, operationName: 'B' })).toBe(3);
    expect(graphqlCost({ query: two, operationName: 'A' })).toBe(1);
    expect(graphqlCost({ query: two })).toBe(1);
  });

  it('sums a batch and counts what does not parse as 1', () => {
    expect(graphqlCost([{ query: '{ a: me { id } b: me { id } }' }, { query: '{ me { id } }' }, 'junk'])).toBe(4);
    expect(graphqlCost({ query: '{ me { ' })).toBe(1);
    expect(graphqlCost(undefined)).toBe(1);
    expect(graphqlCost({ extensions: { persistedQuery: {} } })).toBe(1);
  });

  it('stays fast on fragments that spread each other many times', () => {
    const levels = 40;
    let query = '{ ...F0 } ';
    for (let i = 0; i < levels; i++) query += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} } `;
    query += `fragment F${levels} on Query { me { id } }`;
    const started = performance.now();
    expect(graphqlCost({ query })).toBe(2 ** levels);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('budgets', () => {
  it('belong to an IPv4 address, or to an IPv6 /64', () => {
    expect(clientAddress('203.0.113.5')).toBe('203.0.113.5');
    expect(clientAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(clientAddress('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:DB8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress(undefined)).toBe('unknown');
  });

  it('start again after their window', () => {
    const store = new MemoryRateLimitStore();
    expect(store.hitNow('k', 2, 60_000, 1000)).toEqual({ count: 2, resetMs: 60_000 });
    expect(store.hitNow('k', 1, 60_000, 31_000)).toEqual({ count: 3, resetMs: 30_000 });
    expect(store.hitNow('k', 1, 60_000, 61_000)).toEqual({ count: 1, resetMs: 60_000 });
  });
});
