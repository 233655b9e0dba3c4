import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRules } from '@mizerka/rules';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { playRandomGame } from '../../../../libs/rules/test-kit/driver.js';
import { makeRng } from '../../../../libs/rules/test-kit/rng.js';
import { loadConfig } from '../config/app-config.js';
import { players, type TestPlayer } from '../games/games.test-kit.js';

// The import's settings: records per player per hour, and deals per record.
let t: TestApp;
let importer: TestPlayer;

beforeAll(async () => {
  t = await startTestApp({ imports: { ...loadConfig({}).imports, perPlayerPerHour: 2, maxDeals: 4 } });
  [importer] = await players(t, 1, 'lim');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function finished(preset: string, seed: number, maxDeals: number) {
  const rules = makeRules(preset);
  if (!rules.ok) throw new Error(rules.error.message);
  const game = playRandomGame(rules.value, makeRng(seed), { keepSteps: false, maxDeals, players: [importer.name, 'x', 'y'] });
  return game.over ? game.record : { ...game.record, end: { seat: 1, reason: 'resigned' as const } };
}

describe('import limits', () => {
  it('refuses a record of more deals than IMPORT_MAX_DEALS, naming the limit, before replaying it', async () => {
    const long = finished('bidding', 1, 5);
    const r = await t.rest('POST', '/api/v1/games/import', long, importer.token);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BAD_INPUT', field: 'record.deals', limit: 'deals', max: 4 });
  });

  it('takes IMPORTS_PER_PLAYER_PER_HOUR records from a player an hour, then RATE_LIMITED; a repeat is still answered', async () => {
    const first = await t.rest('POST', '/api/v1/games/import', finished('bidding', 2, 3), importer.token);
    expect(first.status).toBe(201);
    expect((await t.rest('POST', '/api/v1/games/import', finished('bidding', 3, 3), importer.token)).status).toBe(201);
    const over = await t.rest('POST', '/api/v1/games/import', finished('bidding', 4, 3), importer.token);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'RATE_LIMITED', limit: 'importsPerHour', max: 2 });
    // The first record again is no new import: its game is the answer.
    const again = await t.rest('POST', '/api/v1/games/import', finished('bidding', 2, 3), importer.token);
    expect(again.body).toEqual(first.body);
    // Another player's quota is their own.
    const [other] = await players(t, 1, 'lim');
    expect((await t.rest('POST', '/api/v1/games/import?seat=0', finished('bidding', 4, 3), other.token)).status).toBe(201);
  });
});
