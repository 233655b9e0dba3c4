import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { withClient } from '../../../../test/database.js';
import { Prisma } from '../generated/prisma/client.js';
import { HistoryService } from './history.service.js';
import { gamesExportSql, gamesPageSql, type GamesQuery } from './history.sql.js';

// The plans of the history queries on a database with a few thousand games: none reads all games.

const GAMES = 5000;
const PLAYERS = 60;
let t: TestApp;
let ids: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  await withClient(t.databaseUrl, async (c) => {
    await c.query(`INSERT INTO players (id, name, name_key) SELECT gen_random_uuid(), 'p' || i, 'p' || i FROM generate_series(1, ${PLAYERS}) i`);
    await c.query(`
      INSERT INTO games (id, preset, options, players, first_dealer, status, version, phase, state, totals, winners, rated,
                         end_reason, created_at, updated_at, finished_at)
      SELECT gen_random_uuid(), (ARRAY['classic','short','bidding'])[1 + i % 3], '{}', 3, 0,
             (CASE WHEN i % 20 = 0 THEN 'active' ELSE 'finished' END)::"GameStatus", 1, 'play', '{}', '{1,2,3}', '{}', i % 2 = 0,
             CASE WHEN i % 37 = 0 THEN 'forfeit' END,
             timestamptz '2026-01-01' + i * interval '1 minute', now(), now()
        FROM generate_series(1, ${GAMES}) i`);
    // Three seats a game, the players drawn with a stride so each holds ~250 games.
    await c.query(`
      INSERT INTO game_seats (game_id, seat, player_id, total, place, created_at)
      SELECT g.id, s, p.id, s, s + 1, g.created_at
        FROM (SELECT id, created_at, row_number() OVER (ORDER BY created_at) AS n FROM games) g
        CROSS JOIN generate_series(0, 2) s
        JOIN (SELECT id, row_number() OVER (ORDER BY name) - 1 AS k FROM players) p ON p.k = (g.n * 7 + s * 13) % ${PLAYERS}`);
    await c.query('ANALYZE');
    ids = (await c.query(`SELECT id FROM players ORDER BY name LIMIT 2`)).rows.map((r) => r.id);
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const none: GamesQuery = {
  playerIds: [], subjectId: null, presets: null, playerCount: null, status: null, rated: null, imported: null,
  from: null, to: null, result: null, place: null, after: null,
};

async function plan(sql: Prisma.Sql): Promise<string> {
  return withClient(t.databaseUrl, async (c) => {
    const rows = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values as unknown[]);
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describe('history query plans', () => {
  const cases: [string, () => GamesQuery][] = [
    ['newest games', () => none],
    ['a player', () => ({ ...none, playerIds: [ids[0]] })],
    ['two players', () => ({ ...none, playerIds: ids })],
    ['a preset', () => ({ ...none, presets: ['short'] })],
    ['active', () => ({ ...none, status: 'active' })],
    ['forfeited', () => ({ ...none, status: 'forfeited' })],
    ['imported', () => ({ ...none, imported: true })],
    ['a player, won, rated, a family', () => ({ ...none, playerIds: [ids[0]], result: 'WON', rated: true, presets: ['classic', 'short'] })],
    ['a date range', () => ({ ...none, from: new Date('2026-01-02'), to: new Date('2026-01-03') })],
  ];
  it.each(cases)('reads no more than it needs: %s', async (_, q) => {
    for (const sql of [gamesPageSql(q(), 20), gamesExportSql(q(), 20)]) {
      const text = await plan(sql);
      expect(text).not.toMatch(/Seq Scan on (games|game_seats)/);
    }
  });

  it('walks a player\'s seats newest first: no sort, and a page reads about `first` seats', async () => {
    const q: GamesQuery = { ...none, playerIds: [ids[0]] };
    const deep: GamesQuery = { ...q, after: { at: new Date('2026-01-03'), id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' } };
    // With no filter, a page stops after `first + 1` seats; the export skips games in play, so reads a few more.
    const cases: [Prisma.Sql, number][] = [[gamesPageSql(q, 20), 21], [gamesPageSql(deep, 20), 21], [gamesExportSql(q, 20), 40]];
    for (const [sql, most] of cases) {
      const text = await plan(sql);
      expect(text).toMatch(/Index (Only )?Scan using game_seats_player_id_created_at_game_id_idx on game_seats s0/);
      // No sort of the games (PostgreSQL 16+ shows one inside a summary's ordered seat list: fine).
      expect(text).not.toMatch(/Sort Key: [^\n]*created_at/);
      const seats = /on game_seats s0 .*\(actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(text)?.[1];
      expect(Number(seats), text).toBeLessThanOrEqual(most);
    }
  });

  it('runs what the service runs', async () => {
    const q = await t.app.get(HistoryService).query({ players: ['p1'] }, null);
    expect(gamesPageSql(q, 20).text).toContain('FROM game_seats s0 CROSS JOIN LATERAL');
    if (process.env.HISTORY_EXPLAIN) {
      for (const [name, make] of cases) process.stdout.write(`\n== ${name}\n${await plan(gamesPageSql(make(), 20))}\n`);
    }
  });
});
