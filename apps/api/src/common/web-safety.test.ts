import { Logger } from '@nestjs/common';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startTestAppsPerTest, type TestApp } from '../../../../test/app.js';
import { createTestDatabase } from '../../../../test/database.js';
import { createApp } from '../app.js';
import { loadConfig } from '../config/app-config.js';
import { LobbiesService } from '../lobbies/lobbies.service.js';
import { createPino } from './logger.js';
import { originAllowed } from './web-safety.js';

const start = startTestAppsPerTest();
afterEach(() => {
  vi.restoreAllMocks();
});
const get = (t: TestApp, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${t.baseUrl}${path}`, { method, headers });

describe('security headers', () => {
  it('come with every response (helmet)', async () => {
    const t = await start();
    for (const path of ['/api/v1/lobbies', '/health', '/api/v1/nowhere']) {
      const response = await get(t, path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      expect(response.headers.get('strict-transport-security'), path).toMatch(/max-age=/);
      expect(response.headers.get('content-security-policy'), path).toMatch(/default-src 'self'/);
      expect(response.headers.get('x-powered-by'), path).toBeNull();
    }
  });

  it('let the GraphiQL and Swagger UI pages load what they need', async () => {
    const t = await start();
    const graphiql = await get(t, '/graphql', { accept: 'text/html' });
    expect(graphiql.status).toBe(200);
    const page = await graphiql.text();
    const policy = graphiql.headers.get('content-security-policy')!;
    const directive = (name: string) => policy.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
    // Every script and stylesheet the page loads, and its inline script, are allowed.
    const sources = [...page.matchAll(/(?:src|href)="(https:\/\/[^/"]+)\//g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const origin of new Set(sources)) {
      expect(directive('script-src')).toContain(origin);
      expect(directive('style-src')).toContain(origin);
    }
    expect(page).toMatch(/<script>\s*const fetcher/);
    expect(directive('script-src')).toContain("'unsafe-inline'");
    expect(directive('script-src-attr')).toBe("script-src-attr 'none'");

    // Swagger UI loads only its own files, under helmet's default policy.
    const docs = await get(t, '/api/docs');
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(docs.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(html).not.toMatch(/<script>/); // no inline script: 'self' is enough
    const assets = [...html.matchAll(/(?:src|href)=['"]([^'"]+\.(?:js|css))['"]/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset, asset).not.toMatch(/^(https?:)?\/\//);
      const loaded = await get(t, new URL(asset, `${t.baseUrl}/api/docs/`).pathname);
      await loaded.arrayBuffer(); // read it all, as a browser does: an unread body holds its connection
      expect(loaded.status, asset).toBe(200);
    }
  });
});

describe('CORS', () => {
  const preflight = (t: TestApp, origin: string) =>
    get(t, '/graphql', { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' }, 'OPTIONS');

  it('allows the configured origins and no other', async () => {
    const t = await start({ corsOrigins: ['https://play.mizerka.example', 'http://localhost:*'] });
    for (const origin of ['https://play.mizerka.example', 'http://localhost:5173']) {
      const response = await preflight(t, origin);
      expect(response.status, origin).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    }
    const simple = await get(t, '/api/v1/lobbies', { origin: 'https://play.mizerka.example' });
    expect(simple.headers.get('access-control-allow-origin')).toBe('https://play.mizerka.example');
    expect(simple.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);
    for (const origin of ['https://evil.example', 'https://play.mizerka.example.evil.example', 'http://localhost.evil.example:80']) {
      expect((await preflight(t, origin)).headers.get('access-control-allow-origin'), origin).toBeNull();
      expect((await get(t, '/api/v1/lobbies', { origin })).headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('allows nothing in production by default, and local pages in development', async () => {
    const production = loadConfig({ NODE_ENV: 'production' }).corsOrigins;
    expect(originAllowed('http://localhost:3000', production)).toBe(false);
    const development = loadConfig({}).corsOrigins;
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:5173', 'http://localhost']) {
      expect(originAllowed(origin, development), origin).toBe(true);
    }
    for (const origin of ['https://localhost.example', 'http://localhost:3000.evil.example', 'http://10.0.0.1:3000']) {
      expect(originAllowed(origin, development), origin).toBe(false);
    }
    const t = await start({ corsOrigins: production });
    expect((await preflight(t, 'http://localhost:3000')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('developer tools in production', () => {
  it('are off: no GraphiQL, no Swagger UI, no introspection', async () => {
    const production = loadConfig({ NODE_ENV: 'production' });
    const t = await start({ graphiql: production.graphiql, apiDocs: production.apiDocs, introspection: production.introspection });
    const graphiql = await get(t, '/graphql', { accept: 'text/html' });
    expect(await graphiql.text()).not.toMatch(/GraphiQL/);
    expect((await get(t, '/api/docs')).status).toBe(404);
    expect((await get(t, '/api/docs/json')).status).toBe(404);
    const introspection = await t.gql('{ __schema { types { name } } }');
    expect(introspection.data ?? undefined).toBeUndefined();
    expect(introspection.errors?.[0].extensions?.code).toBe('BAD_INPUT');
    expect((await t.gql('{ __typename }')).data).toEqual({ __typename: 'Query' });
  });
});

describe('request ids', () => {
  it('keep a short, well-formed x-request-id and replace any other', async () => {
    const t = await start();
    const echoed = async (id?: string) => (await get(t, '/api/v1/lobbies', id === undefined ? {} : { 'x-request-id': id })).headers.get('x-request-id');
    expect(await echoed('trace-42.a_b')).toBe('trace-42.a_b');
    expect(await echoed('a'.repeat(64))).toBe('a'.repeat(64));
    for (const bad of ['a'.repeat(65), 'x y', 'id"}{"admin":true', 'a/b', '<script>', '']) {
      const id = await echoed(bad);
      expect(id, bad).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(await echoed()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is on every log line of the request: services and errors too', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    });
    const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' }) };
    const app = await createApp(config, await createTestDatabase(), createPino(config, sink));
    onTestFinished(() => app.close());
    await app.listen(0, '127.0.0.1');
    const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const lobbies = app.get(LobbiesService);
    vi.spyOn(lobbies, 'list').mockImplementation(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      new Logger('LobbiesService').log('listing lobbies');
      throw new Error('the database fell over');
    });
    const rest = await fetch(`${baseUrl}/api/v1/lobbies`, { headers: { 'x-request-id': 'rest-1' } });
    expect(rest.status).toBe(500);
    const graphql = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'gql-1' },
      body: JSON.stringify({ query: '{ lobbies { __typename } }' }),
    });
    expect(((await graphql.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('INTERNAL');
    // pino-http's access line, written when each response is finished.
    await vi.waitFor(() => expect(lines.filter((l) => /^request (completed|errored)$/.test(String(l.msg)))).toHaveLength(2));
    for (const reqId of ['rest-1', 'gql-1']) {
      const service = lines.filter((l) => l.msg === 'listing lobbies' && l.reqId === reqId);
      expect(service, reqId).toHaveLength(1);
      const errors = lines.filter((l) => l.context === 'Errors' && l.level === 50);
      expect(errors.filter((l) => l.reqId === reqId), reqId).toHaveLength(1);
    }
  });
});
