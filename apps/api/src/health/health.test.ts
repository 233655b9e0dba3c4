import { Logger, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { players, startGame } from '../games/games.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /health/ready while not ready', () => {
  it('answers 503 with the health report, logged at info without a stack, never as an error', async () => {
    const report = { status: 'error', info: {}, error: { database: { status: 'down' } }, details: { database: { status: 'down' } } };
    const check = vi.spyOn(t.app.get(HealthCheckService), 'check').mockRejectedValue(new ServiceUnavailableException(report));
    const error = vi.spyOn(Logger.prototype, 'error');
    const info = vi.spyOn(Logger.prototype, 'log');
    try {
      const answer = await fetch(`${t.baseUrl}/health/ready`);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual(report);
      expect(error).not.toHaveBeenCalled();
      const logged = info.mock.calls.find((call) => JSON.stringify(call).includes('not ready'));
      expect(logged).toBeDefined();
      expect(JSON.stringify(logged)).not.toMatch(/\bat .*\.(js|ts):\d+/);
    } finally {
      check.mockRestore();
      error.mockRestore();
      info.mockRestore();
    }
  });
});

describe('the server says its version', () => {
  const version = (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

  it('in /health, GET /api/v1/server-info and GraphQL serverInfo: package.json\'s, and its major as the API version', async () => {
    const health = await t.rest('GET', '/health');
    expect(health.body).toMatchObject({ status: 'ok', version });
    const rest = await t.rest('GET', '/api/v1/server-info');
    expect(rest.body).toEqual({ version, apiVersion: version.split('.')[0] });
    const gql = await t.gql('{ serverInfo { version apiVersion } }');
    expect(gql.data?.serverInfo).toEqual(rest.body);
  });
});

describe('deprecated REST parameters', () => {
  it('GET /games/{id}/events with `limit` (v1\'s old name of `first`) answers with Deprecation, Sunset and Link; without it, plainly', async () => {
    const seated = await players(t, 3, 'dep');
    const id = await startGame(t, seated, 'short');
    const old = await t.rest('GET', `/api/v1/games/${id}/events?limit=1`, undefined, seated[0].token);
    expect(old.status).toBe(200);
    expect(old.body.entries).toHaveLength(1);
    expect(old.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(old.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(old.headers.get('link')).toBe('</api/v1/deprecations>; rel="deprecation"; type="application/json"');
    const current = await t.rest('GET', `/api/v1/games/${id}/events?first=1`, undefined, seated[0].token);
    expect(current.headers.get('deprecation')).toBeNull();

    const listed = await t.rest('GET', '/api/v1/deprecations');
    expect(listed.body.deprecations).toContainEqual({
      route: 'GET /api/v1/games/{id}/events',
      parameter: 'limit',
      since: '2026-12-01',
      sunset: '2027-06-01',
      instead: 'first',
    });
    // Each listed route and parameter is in the committed OpenAPI document, marked deprecated there.
    const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { deprecated?: boolean; parameters?: { name: string; deprecated?: boolean }[] }>>;
    };
    for (const { route, parameter } of listed.body.deprecations as { route: string; parameter: string | null }[]) {
      const [method, path] = route.split(' ');
      const operation = openapi.paths[path]?.[method.toLowerCase()];
      if (parameter === null) expect(operation?.deprecated, route).toBe(true);
      else expect(operation?.parameters?.find((p) => p.name === parameter)?.deprecated, `${route} ${parameter}`).toBe(true);
    }
  });
});
