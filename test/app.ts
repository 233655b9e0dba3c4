import { randomUUID } from 'node:crypto';
import type { INestApplication, Provider } from '@nestjs/common';
import { afterEach } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../apps/api/src/app.js';
import { loadConfig, type AppConfig } from '../apps/api/src/config/app-config.js';
import { createTestDatabase } from './database.js';
import { failOnContractProblems, noteAnswer } from './openapi-contract.js';

// Every answer of `rest` is checked against the OpenAPI document; a file whose answers contradict
// it fails after its tests.
failOnContractProblems();

export interface GraphQLResult<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; [key: string]: unknown } }[];
}

export interface TestApp {
  app: INestApplication;
  baseUrl: string;
  databaseUrl: string;
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GraphQLResult<T>>;
  rest(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any; headers: Headers }>;
  register(name: string): Promise<{ id: string; token: string }>;
  close(): Promise<void>;
}

/**
 * The real application on a fresh database of its own, listening on a free port. `seams` replace
 * an injected default (a resolver, a network) as createApp says.
 */
export async function startTestApp(overrides: Partial<AppConfig> = {}, databaseUrl?: string, seams: Provider[] = []): Promise<TestApp> {
  const url = databaseUrl ?? (await createTestDatabase());
  // Redis keys and channels of its own: counts and notices of other tests (or of an earlier run
  // within the minute) must not leak in; apps of one test that share Redis pass one prefix.
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', REGISTRATIONS_PER_IP_PER_HOUR: '1000000', WS_MAX_SOCKETS_PER_IP: '100000' }),
    redisPrefix: `mizerka-test-${randomUUID()}:`,
    ...overrides,
  };
  const app = await createApp(config, url, pino({ level: 'silent' }), seams);
  await app.listen(0, '127.0.0.1');
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');

  const gql: TestApp['gql'] = async (query, variables, token) => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphQLResult<any>;
  };
  const rest: TestApp['rest'] = async (method, path, body, token) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON; keep the text
    }
    noteAnswer({ method, path, status: response.status, type: response.headers.get('content-type') ?? '', body: parsed });
    return { status: response.status, body: parsed, headers: response.headers };
  };
  const register = async (name: string) => {
    const result = await gql<{ register: { player: { id: string }; token: string } }>(
      'mutation($name: String!) { register(input: { name: $name }) { player { id } token } }',
      { name },
    );
    if (!result.data?.register) throw new Error(`register failed: ${JSON.stringify(result.errors)}`);
    return { id: result.data.register.player.id, token: result.data.register.token };
  };
  return { app, baseUrl, databaseUrl: url, gql, rest, register, close: () => app.close() };
}

/** startTestApp for a test file whose tests start apps of their own: each is closed after its test. */
export function startTestAppsPerTest(): typeof startTestApp {
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });
  return async (...args) => {
    const t = await startTestApp(...args);
    apps.push(t);
    return t;
  };
}
