import { formatRecordError, replay, type GameRecord } from '@mizerka/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { createTestDatabase, withClient } from '../../test/database.js';
import { players as newPlayers, playThrough, startGame } from '../../apps/api/src/games/games.test-kit.js';
import { Prisma } from '../../apps/api/src/generated/prisma/client.js';
import { STAT_COLUMNS, statsIncrementsSql } from '../../apps/api/src/profiles/player-stats.sql.js';
import { newSkill, rateTable, skillOrdinal, type Skill } from '../../apps/api/src/ratings/rating-math.js';
import { recordSourcesSql } from '../../apps/api/src/history/history.sql.js';
import { recordOfRow } from '../../apps/api/src/history/stored-records.js';
import { seedDatabase, type SeedResult } from './seed.js';

const UNTIL = Date.parse('2026-11-01T00:00:00Z');
const options = { games: 24, players: 12, seed: 'test', batch: 10, workers: 0, until: UNTIL, tokens: 4 };

let t: TestApp;
let seeded: SeedResult;
let games: { id: string; preset: string; version: number; totals: number[]; winners: number[]; end_seat: number | null; rated: boolean }[];

beforeAll(async () => {
  const url = await createTestDatabase();
  seeded = await seedDatabase({ url, ...options });
  t = await startTestApp({}, url);
  games = await withClient(url, async (c) =>
    (await c.query('SELECT id, preset, version, totals, winners, end_seat, rated FROM games WHERE imported_by IS NULL ORDER BY created_at')).rows,
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const query = (sql: string, params: unknown[] = []) => withClient(t.databaseUrl, async (c) => (await c.query(sql, params)).rows);

describe('db:seed', () => {
  it('writes finished games of every preset, some ended early, some rated, with bots among the players', async () => {
    expect(games).toHaveLength(options.games);
    expect(new Set(games.map((g) => g.preset)).size).toBeGreaterThanOrEqual(4);
    expect(games.some((g) => g.rated)).toBe(true);
    expect(games.some((g) => !g.rated)).toBe(true);
    const [counts] = await query(`SELECT
      (SELECT count(*)::int FROM games WHERE status = 'finished' AND phase = 'over' AND finished_at > created_at) AS finished,
      (SELECT count(*)::int FROM players WHERE kind = 'bot' AND bot_level IS NOT NULL) AS bots,
      (SELECT count(*)::int FROM lobbies WHERE status = 'started') AS lobbies,
      (SELECT count(*)::int FROM games g WHERE version <> (SELECT max(seq) FROM game_events e WHERE e.game_id = g.id)) AS bad_versions`);
    expect(counts).toEqual({ finished: options.games, bots: 1, lobbies: options.games, bad_versions: 0 });
  });

  it('writes the same database again from the same seed', async () => {
    const url = await createTestDatabase();
    await seedDatabase({ url, ...options, games: 6, workers: 0 });
    const fingerprint = (u: string) =>
      withClient(u, async (c) => (await c.query(`SELECT md5(string_agg(game_id::text || seq || events::text, ',' ORDER BY game_id, seq)) AS h FROM game_events`)).rows[0].h);
    const again = await createTestDatabase();
    await seedDatabase({ url: again, ...options, games: 6, workers: 0 });
    expect(await fingerprint(again)).toBe(await fingerprint(url));
  }, 60_000);

  it('gives every seeded game a record that replays, with the game’s totals, winners and end', async () => {
    for (const g of games) {
      const answer = await t.rest('GET', `/api/v1/games/${g.id}/record`);
      expect(answer.status).toBe(200);
      const replayed = replay(answer.body as GameRecord);
      if (!replayed.ok) throw new Error(`game ${g.id}: ${formatRecordError(replayed.error)}`);
      expect(replayed.value.outcome.totals).toEqual(g.totals);
      expect(replayed.value.outcome.winners).toEqual(g.winners);
      expect(replayed.value.outcome.end?.seat ?? null).toBe(g.end_seat);
    }
  });

  it('stores every seeded game’s record as the server builds it from the game’s rows', async () => {
    const ids = games.map((g) => g.id);
    const stored = await query('SELECT game_id::text AS id, record::text AS record FROM game_records WHERE game_id = ANY($1::uuid[]) ORDER BY game_id', [ids]);
    const sources = await query(recordSourcesSql(ids, false).text, recordSourcesSql(ids, false).values as unknown[]);
    expect(stored.map((r) => r.id)).toEqual(sources.map((r) => r.id));
    expect(stored.map((r) => r.record)).toEqual(sources.map((r) => JSON.stringify(recordOfRow(r))));
  });

  it('gives every seeded game a score sheet whose deals add up to its standings', async () => {
    for (const g of games) {
      const answer = await t.rest('GET', `/api/v1/games/${g.id}/deals`);
      expect(answer.status).toBe(200);
      const sheet = answer.body;
      expect(sheet.status).toBe('finished');
      expect(sheet.standings.map((s: { total: number }) => s.total)).toEqual(g.totals);
      const finished = sheet.deals.filter((d: { finished: boolean }) => d.finished);
      expect(finished.at(-1)?.runningTotals ?? g.totals.map(() => 0)).toEqual(g.totals);
      for (const d of finished) expect(d.tricks.length).toBeGreaterThan(0);
    }
  });

  it('pages every game’s event log from seq 1 to its version without a gap', async () => {
    for (const g of games.slice(0, 6)) {
      const seqs: number[] = [];
      let after = 0;
      for (;;) {
        const page = await t.rest('GET', `/api/v1/games/${g.id}/events?after=${after}`);
        expect(page.status).toBe(200);
        seqs.push(...page.body.entries.map((e: { seq: number }) => e.seq));
        if (!page.body.hasMore) break;
        after = seqs.at(-1)!;
      }
      expect(seqs).toEqual(Array.from({ length: g.version }, (_, i) => i + 1));
    }
  });

  it('shows a seated player their own hand and no one else’s, as for a played game', async () => {
    const [seat] = await query(
      `SELECT s.game_id, s.seat FROM game_seats s JOIN players p ON p.id = s.player_id WHERE p.name = $1 LIMIT 1`,
      [seeded.tokens[0].name],
    );
    const { token } = seeded.tokens[0];
    const game = await t.rest('GET', `/api/v1/games/${seat.game_id}`, undefined, token);
    expect(game.status).toBe(200);
    expect(game.body.mySeat).toBe(seat.seat);
    expect(game.body.status).toBe('finished');
    const hands = async (viewer?: string) => {
      const page = await t.rest('GET', `/api/v1/games/${seat.game_id}/events`, undefined, viewer);
      expect(page.status).toBe(200);
      return page.body.entries.flatMap((e: { events: { type: string; hand?: string[] | null }[] }) =>
        e.events.filter((v) => v.type === 'dealt' || v.type === 'handCompleted').map((v) => v.hand),
      );
    };
    const own = await hands(token);
    expect(own.some((hand: string[] | null) => hand !== null && hand.length > 0)).toBe(true);
    expect(JSON.stringify(own)).not.toContain('hands');
    expect((await hands()).every((hand: unknown) => hand === null)).toBe(true);
  });

  // Before the next test plays a game of its own on the seeded database.
  it('fills the profiles’ aggregates as the server’s gameFinished consumer adds them, every game once', async () => {
    expect(await query(`SELECT id FROM games WHERE stats_at IS NULL`)).toEqual([]);
    const all = Prisma.sql`(SELECT id, preset, players, finished_at FROM games WHERE status = 'finished' AND imported_by IS NULL)`;
    const recomputed = statsIncrementsSql(all);
    const kept = await query(`SELECT player_id, preset, kind, key, ${STAT_COLUMNS.join(', ')}, last_finished_at FROM player_stats ORDER BY 1, 2, 3, 4`);
    expect(kept.length).toBe(seeded.rows.playerStats);
    expect(kept).toEqual(await query(recomputed.text, recomputed.values));
  });

  it('writes each log entry, deal and game row with the same columns filled as a game played through the server', async () => {
    const seated = await newPlayers(t, 3, 'seedcmp');
    const played = await startGame(t, seated, 'short');
    await playThrough(t, seated, played, 3);
    const seededShort = games.find((g) => g.preset === 'short' && g.end_seat === null)!;
    const shape = async (id: string) => ({
      events: await query(
        `SELECT DISTINCT kind, actor, seat IS NULL AS no_seat, player_id IS NULL AS no_player, move IS NULL AS no_move, cause,
                jsonb_typeof(events) AS events, deadline IS NULL AS no_deadline, idempotency_key IS NULL AS no_key
           FROM game_events WHERE game_id = $1 ORDER BY 1, 2`,
        [id],
      ),
      deals: await query(
        `SELECT DISTINCT contract IS NULL AS a, declarer IS NULL AS b, bid IS NULL AS c, trump IS NULL AS d, json_typeof(tricks) AS e,
                json_typeof(scores) AS f, finished_at >= started_at AS g, seed_hash = sha256(convert_to(encode(seed, 'hex'), 'UTF8')) AS h
           FROM deals WHERE game_id = $1`,
        [id],
      ),
      tricks: await query(`SELECT DISTINCT cardinality(cards) AS cards FROM tricks WHERE game_id = $1`, [id]),
      game: await query(
        `SELECT status, phase, to_move, deal_index, cardinality(totals) AS totals, cardinality(winners) > 0 AS winners, time_control IS NULL AS untimed,
                end_seat, finished_at IS NOT NULL AS finished, json_typeof(state) AS state,
                (SELECT count(*)::int FROM game_seats s WHERE s.game_id = g.id AND s.place IS NOT NULL AND s.total IS NOT NULL) AS placed
           FROM games g WHERE id = $1`,
        [id],
      ),
    });
    // Played with the player kind 'player'; the seeded game may have a bot, whose entries say 'bot'.
    const seededShape = await shape(seededShort.id);
    seededShape.events = seededShape.events.filter((e) => e.actor !== 'bot');
    expect(seededShape).toEqual(await shape(played));
  }, 120_000);

  it('rates the rated games in finishing order as the rating math does', async () => {
    const rated = await query(
      `SELECT g.id, g.preset, g.players, g.rated_at, array_agg(s.player_id::text ORDER BY s.seat) AS seats, array_agg(s.place ORDER BY s.seat) AS places
         FROM games g JOIN game_seats s ON s.game_id = g.id WHERE g.rated GROUP BY g.id ORDER BY g.rated_at, g.id`,
    );
    expect(rated.length).toBeGreaterThan(0);
    expect(rated.every((g) => g.rated_at !== null)).toBe(true);
    const skills = new Map<string, { skill: Skill; games: number }>();
    for (const g of rated) {
      const family = g.preset.startsWith('bidding') ? 'bidding' : 'contract';
      const keys = g.seats.map((id: string) => `${id}|${family}|${g.players}`);
      const after = rateTable(
        keys.map((k: string) => skills.get(k)?.skill ?? newSkill()),
        g.places,
      );
      keys.forEach((k: string, i: number) => skills.set(k, { skill: after[i], games: (skills.get(k)?.games ?? 0) + 1 }));
    }
    const stored = await query(`SELECT player_id::text, family, players, mu, sigma, ordinal, games FROM ratings`);
    expect(stored).toHaveLength(skills.size);
    for (const r of stored) {
      const expected = skills.get(`${r.player_id}|${r.family}|${r.players}`)!;
      expect(r).toMatchObject({ mu: expected.skill.mu, sigma: expected.skill.sigma, ordinal: skillOrdinal(expected.skill), games: expected.games });
    }
    const [changes] = await query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE c.created_at <> g.rated_at)::int AS off FROM rating_changes c JOIN games g ON g.id = c.game_id`,
    );
    expect(changes).toEqual({ n: rated.reduce((n, g) => n + g.seats.length, 0), off: 0 });
  });
});
