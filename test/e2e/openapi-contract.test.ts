// The REST answers against the committed OpenAPI document (test/openapi-contract.ts): every e2e
// file's answers are checked as they arrive; this file adds representative calls of its own, the
// success statuses and body shapes clients see, and says by name which were checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import { contractChecked, contractProblems } from '../openapi-contract.js';
import { http, registerMany, seatTable, type Http, type Player } from './clients.js';

let t: TestApp;
let h: Http;
let table: Player[];

beforeAll(async () => {
  t = await startTestApp();
  h = http(t.baseUrl);
  table = await registerMany(h, 3, 'oa');
});
afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI document', () => {
  it('documents the status and body of every answer the REST API gives here', async () => {
    const { gameId } = await seatTable(h, table, 'short');
    const [a, b] = table;
    await h.rest('GET', '/health');
    await h.rest('GET', '/api/v1/me', undefined, a.token);
    await h.rest('GET', '/api/v1/me/tokens', undefined, a.token);
    await h.rest('POST', '/api/v1/me/tokens', { name: 'contract', scopes: ['read'] }, a.token);
    await h.rest('GET', `/api/v1/players/${a.name}`);
    await h.rest('GET', `/api/v1/players/${a.name}/stats`);
    await h.rest('GET', '/api/v1/lobbies');
    await h.rest('GET', `/api/v1/games/${gameId}`, undefined, a.token);
    await h.rest('GET', `/api/v1/games/${gameId}/events`, undefined, a.token);
    await h.rest('GET', `/api/v1/games/${gameId}/events?limit=1`, undefined, a.token);
    await h.rest('GET', '/api/v1/me/turns', undefined, a.token);
    await h.rest('GET', '/api/v1/games', undefined, a.token);
    await h.rest('POST', `/api/v1/games/${gameId}/resign`, {}, b.token);
    const record = await h.rest('GET', `/api/v1/games/${gameId}/record`);
    await h.rest('GET', `/api/v1/players/${a.name}/games?status=finished`);
    await h.rest('GET', `/api/v1/players/${a.name}/ratings/history`);
    await h.rest('GET', '/api/v1/leaderboards/contract/3');
    await h.rest('POST', '/api/v1/games/import', record.body, a.token);
    await h.rest('GET', '/api/v1/games/not-an-id');
    await h.rest('GET', `/api/v1/players/${a.name}/games?to=2026-02-30T00:00:00Z`);

    expect(contractProblems()).toEqual([]);
    const checked = contractChecked();
    // The calls above reached their routes, successes among them (the import's 201 included).
    expect(checked.filter((c) => c.status < 300).length).toBeGreaterThanOrEqual(15);
    expect(checked).toContainEqual({ route: '/api/v1/games/import', method: 'POST', status: 201 });
  });
});
