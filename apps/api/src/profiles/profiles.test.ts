import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { cardNamesIn, MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY } from '../games/games.test-kit.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { leaderboardSql, playerRatingsSql, ratingHistorySql } from '../ratings/ratings.sql.js';
import { insertGame } from '../ratings/ratings.test-kit.js';
import { PlayerStatsService } from './player-stats.service.js';
import {
  biddingStatsSql,
  contractStatsSql,
  gamesOfPresetSql,
  headToHeadSql,
  presetRecordsSql,
  profileSql,
  recentGamesSql,
} from './profiles.sql.js';

// Profiles, statistics and head-to-head on hand-built games whose answers are worked out below
// from the rules (docs/rules.md: quotas by position, bidding scores), with ties, an early end, an
// abandoned deal, a sitting-out dealer, an active game and an imported one.

let t: TestApp;
let prisma: PrismaService;
let A: { id: string; name: string; token: string };
let B: typeof A;
let C: typeof A;
let D: typeof A;

beforeAll(async () => {
  t = await startTestApp();
  prisma = t.app.get(PrismaService);
  [A, B, C, D] = await players(t, 4, 'pf');
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
  // short, A B C in seats 0 1 2. Three players: C = dealer+1 (quota 7), R = dealer+2 (5), D = dealer (1); mizerka reversed.
  await insertGame(prisma, {
    preset: 'short',
    seats: [A.id, B.id, C.id],
    totals: [0, -1, 1],
    places: [2, 3, 1],
    createdAt: at(1),
    deals: [
      // dealer 2: A chooses hearts; quotas [7, 5, 1], tricks [9, 3, 1] -> [+2, -2, 0]
      { dealer: 2, contract: 'hearts', tricks: [9, 3, 1], scores: [2, -2, 0] },
      // dealer 0: B chooses mizerka; quotas C=B 1, R=C 5, D=A 7, tricks [9, 0, 4] -> [-2, +1, +1]
      { dealer: 0, contract: 'mizerka', tricks: [9, 0, 4], scores: [-2, 1, 1] },
      // dealer 1: C chooses notrumps; quotas C=C 7, R=A 5, D=B 1, tricks [5, 1, 7] -> [0, 0, 0]
      { dealer: 1, contract: 'notrumps', tricks: [5, 1, 7], scores: [0, 0, 0] },
    ],
  });
  // short again; A resigns in the second deal (abandoned: no scores) and is last despite the best total.
  await insertGame(prisma, {
    preset: 'short',
    seats: [B.id, A.id, C.id],
    totals: [-3, 4, -1],
    places: [2, 3, 1],
    endSeat: 1,
    endReason: 'resigned',
    createdAt: at(2),
    deals: [
      // dealer 0: B's left is A (seat 1) who chooses hearts, quota 7; tricks [2, 11, 0]: C (seat 2) R quota 5, B D quota 1.
      { dealer: 0, contract: 'hearts', tricks: [2, 11, 0], scores: [1, 4, -5] },
      { dealer: 1, contract: 'mizerka', tricks: [1, 2, 0], scores: null },
    ],
  });
  // bidding-4, A B C D in seats 0..3; the dealer sits out.
  await insertGame(prisma, {
    preset: 'bidding-4',
    seats: [A.id, B.id, C.id, D.id],
    totals: [-10, 20, 10, -10],
    places: [3, 1, 2, 3],
    createdAt: at(3),
    deals: [
      // A deals and sits out; B plays and takes 6: +10.
      { dealer: 0, declarer: 1, bid: 'play', trump: 'hearts', tricks: [null, 6, 2, 2], scores: [0, 10, 0, 0] },
      // B sits out; A bids misère and takes 1 trick: -20, defenders +10 each.
      { dealer: 1, declarer: 0, bid: 'misere', tricks: [1, null, 5, 4], scores: [-20, 0, 10, 10] },
      // C sits out; D plays and takes 3: -20, defenders A and B +10 each.
      { dealer: 2, declarer: 3, bid: 'play', trump: 'spades', tricks: [3, 4, null, 3], scores: [10, 10, 0, -20] },
    ],
  });
  // Neither counts: an active game (its chosen contract is no statistic yet) and an imported archive.
  await insertGame(prisma, {
    preset: 'short',
    seats: [A.id, B.id, C.id],
    totals: [5, 0, -5],
    status: 'active',
    createdAt: at(4),
    deals: [{ dealer: 2, contract: 'hearts', tricks: [12, 1, 0], scores: [5, -4, -1] }],
  });
  await insertGame(prisma, {
    preset: 'short',
    seats: [A.id],
    totals: [9, 0, -9],
    places: [1, 2, 3],
    importedBy: A.id,
    createdAt: at(5),
    deals: [{ dealer: 2, contract: 'hearts', tricks: [13, 0, 0], scores: [6, -5, -1] }],
  });
  // Written straight into the tables, the games reach no outbox: their figures are added as a backfill adds them.
  await t.app.get(PlayerStatsService).backfill();
});
afterAll(async () => {
  await t?.close();
});

describe('player profile', () => {
  it('sums the finished games per preset: games, wins, mean place, mean score per deal played', async () => {
    const res = await t.rest('GET', `/api/v1/players/${A.name.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: A.id, name: A.name, kind: 'human', botLevel: null, games: 3 });
    expect(res.body.presets).toEqual([
      // places 2 and 3; deals +2 -2 0 and +4 (the abandoned deal has no score)
      { preset: 'short', games: 2, wins: 0, averagePlace: 2.5, deals: 4, averageScorePerDeal: 1 },
      // place 3; two deals played (-20, +10), one sat out
      { preset: 'bidding-4', games: 1, wins: 0, averagePlace: 3, deals: 2, averageScorePerDeal: -5 },
    ]);
    const b = await t.rest('GET', `/api/v1/players/${B.name}`);
    expect(b.body.presets.find((p: { preset: string }) => p.preset === 'bidding-4')).toMatchObject({ wins: 1, averagePlace: 1 });
  });

  it('lists the latest games newest first, the active one too, with tables and no card', async () => {
    const gql = await t.gql(
      `query($name: String!) { player(name: $name) { name recentGames { preset status rated seat endReason endSeat seats { seat name kind total place } } } }`,
      { name: A.name },
    );
    const recent = gql.data!.player.recentGames;
    expect(recent.map((g: { preset: string; status: string }) => `${g.preset}/${g.status}`)).toEqual(['short/active', 'bidding-4/finished', 'short/finished', 'short/finished']);
    expect(recent[0].seats.map((s: { place: number | null }) => s.place)).toEqual([null, null, null]);
    expect(recent[2]).toMatchObject({ endReason: 'resigned', endSeat: 1, seat: 1 });
    expect(recent[2].seats.map((s: { total: number; place: number }) => [s.total, s.place])).toEqual([[-3, 2], [4, 3], [-1, 1]]);
  });

  it('is NOT_FOUND for an unknown name on both surfaces', async () => {
    expect((await t.rest('GET', '/api/v1/players/nobody-here')).status).toBe(404);
    expect((await t.rest('GET', `/api/v1/players/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await t.gql(`{ player(name: "nobody-here") { id } }`)).errors![0].extensions!.code).toBe('NOT_FOUND');
  });
});

describe('statistics', () => {
  it('contract family: per contract, deals, quota met, mean score, and the same as chooser', async () => {
    const res = await t.rest('GET', `/api/v1/players/${A.name}/stats?preset=short`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ preset: 'short', family: 'contract', games: 2, bids: [] });
    const byContract = Object.fromEntries(res.body.contracts.map((c: { contract: string }) => [c.contract, c]));
    expect(Object.keys(byContract).sort()).toEqual(['hearts', 'mizerka', 'notrumps']);
    // hearts: chose it twice (+2, +4), met both, above quota
    expect(byContract.hearts).toEqual({
      contract: 'hearts', deals: 2, quotaMet: 2, quotaExact: 0, averageScore: 3, chosen: 2, chosenQuotaMet: 2, chosenAverageScore: 3,
    });
    // mizerka: as dealer took 9 against 7 (-2); the abandoned one does not count
    expect(byContract.mizerka).toEqual({
      contract: 'mizerka', deals: 1, quotaMet: 0, quotaExact: 0, averageScore: -2, chosen: 0, chosenQuotaMet: 0, chosenAverageScore: null,
    });
    // notrumps: exactly the quota of 5
    expect(byContract.notrumps).toMatchObject({ deals: 1, quotaMet: 1, quotaExact: 1, averageScore: 0, chosen: 0 });
  });

  it('bidding family: per bid, made and failed as declarer and as defender, a sit-out not counted', async () => {
    const gql = await t.gql(
      `query($name: String!) { player(name: $name) { stats(preset: "bidding-4") { family games bids { bid asDeclarer { deals made failed averageScore } asDefender { deals made failed averageScore } } } } }`,
      { name: A.name },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data!.player.stats).toEqual({
      family: 'bidding',
      games: 1,
      bids: [
        { bid: 'play', asDeclarer: { deals: 0, made: 0, failed: 0, averageScore: null }, asDefender: { deals: 1, made: 0, failed: 1, averageScore: 10 } },
        { bid: 'misere', asDeclarer: { deals: 1, made: 0, failed: 1, averageScore: -20 }, asDefender: { deals: 0, made: 0, failed: 0, averageScore: null } },
      ],
    });
    const b = await t.rest('GET', `/api/v1/players/${B.name}/stats?preset=bidding-4`);
    // B made a play (+10), defended D's failed play (+10), sat out A's misère
    expect(b.body.bids[0]).toEqual({ bid: 'play', asDeclarer: { deals: 1, made: 1, failed: 0, averageScore: 10 }, asDefender: { deals: 1, made: 0, failed: 1, averageScore: 10 } });
    expect(b.body.bids[1].asDefender.deals).toBe(0);
  });

  it('refuses an unknown or missing preset naming the field', async () => {
    for (const path of [`/api/v1/players/${A.name}/stats?preset=poker`, `/api/v1/players/${A.name}/stats`]) {
      const res = await t.rest('GET', path);
      expect(res.status, path).toBe(400);
      expect(JSON.stringify(res.body), path).toContain('preset');
    }
  });
});

describe('head-to-head', () => {
  it('counts the finished games together: who placed higher, and ties', async () => {
    const res = await t.rest('GET', `/api/v1/players/${A.name}/head-to-head/${B.name}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toEqual({ preset: null, games: 3, higher: 1, lower: 2, ties: 0 });
    expect(res.body.presets).toEqual([
      { preset: 'short', games: 2, higher: 1, lower: 1, ties: 0 },
      { preset: 'bidding-4', games: 1, higher: 0, lower: 1, ties: 0 },
    ]);
    const ad = await t.gql(`query($a: String!, $d: String!) { player(name: $a) { headToHead(other: $d) { total { games higher lower ties } } } }`, { a: A.name, d: D.name });
    expect(ad.data!.player.headToHead.total).toEqual({ games: 1, higher: 0, lower: 0, ties: 1 });
    expect((await t.rest('GET', `/api/v1/players/${A.name}/head-to-head/${A.name}`)).body.code).toBe('BAD_INPUT');
    expect((await t.rest('GET', `/api/v1/players/${A.name}/head-to-head/nobody-here`)).status).toBe(404);
  });
});

describe('hidden cards', () => {
  it('never show on a profile, its statistics or head-to-head while a game is being played', async () => {
    const seated = await players(t, 3, 'ph');
    const gameId = await startGame(t, seated, 'classic');
    const random = rng(7);
    for (let i = 0; i < 12; i++) {
      const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
      const turn = await t.gql(TURN_QUERY, { id: gameId }, seated[toMove].token);
      const input = { gameId, expectedVersion: turn.data!.game.version, ...pickMove(turn.data!.game.view.legalMoves, random) };
      expect((await t.gql(MAKE_MOVE, { input }, seated[toMove].token)).errors).toBeUndefined();
    }
    const answers = [
      (await t.rest('GET', `/api/v1/players/${seated[0].name}`)).body,
      (await t.rest('GET', `/api/v1/players/${seated[0].name}/stats?preset=classic`)).body,
      (await t.rest('GET', `/api/v1/players/${seated[0].name}/head-to-head/${seated[1].name}`)).body,
      (await t.gql(`query($n: String!) { player(name: $n) { recentGames { id status seats { name total } } stats(preset: "classic") { games contracts { contract deals chosen } } } }`, { n: seated[0].name }, seated[1].token)).data,
    ];
    expect(answers[0].recentGames[0]).toMatchObject({ id: gameId, status: 'active' });
    expect(answers[1].contracts.every((c: { deals: number }) => c.deals === 0)).toBe(true);
    for (const answer of answers) expect([...cardNamesIn(answer)]).toEqual([]);
  });
});

describe('hostile requests', () => {
  it('are a 4xx problem, never a 5xx, on every route of profiles, statistics, ratings and leaderboards', async () => {
    const paths = [
      '/api/v1/players/%00',
      '/api/v1/players/%ff',
      '/api/v1/players/a%00b/stats?preset=classic',
      `/api/v1/players/${A.name}/stats?preset=%00`,
      `/api/v1/players/${A.name}/stats?preset=classic&preset=short`,
      `/api/v1/players/${A.name}/stats?preset=classic&__proto__=1`,
      `/api/v1/players/${A.name}/head-to-head/%00`,
      `/api/v1/players/${A.name}/ratings/history?players=2147483648`,
      `/api/v1/players/${A.name}/ratings/history?after=%00`,
      `/api/v1/players/${A.name}/ratings/history?after=${'x'.repeat(300)}`,
      '/api/v1/leaderboards/%00/3',
      '/api/v1/leaderboards/contract/1e400',
      '/api/v1/leaderboards/contract/3?first=1e400',
      '/api/v1/leaderboards/contract/3?minGames=2147483648',
      '/api/v1/leaderboards/contract/3?after=MXwy',
    ];
    for (const path of paths) {
      const res = await t.rest('GET', path);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(500);
    }
    const documents = [
      '{ player(name: "a\\u0000b") { id } }',
      `{ player(name: "${A.name}") { stats(preset: "\\u0000") { games } } }`,
      `{ player(name: "${A.name}") { ratingHistory(players: 2147483648) { hasMore } } }`,
      `{ player(name: "${A.name}") { ratingHistory(first: 1000) { hasMore } } }`,
      '{ leaderboard(family: "contract", players: 3, minGames: -1) { hasMore } }',
      '{ leaderboard(family: "contract", players: 3, after: "MXwy") { hasMore } }',
    ];
    for (const query of documents) {
      const res = await t.gql(query);
      expect(res.errors?.[0]?.extensions?.code, `${query} ${JSON.stringify(res)}`).toMatch(/^(BAD_INPUT|NOT_FOUND)$/);
    }
  });
});

describe('query plans', () => {
  it('start from the player: every game, seat and deal is reached by its key, never by scanning', async () => {
    // Thousands of other players with a few games each, in every preset, so that the planner weighs what a busy server holds.
    await prisma.$executeRaw`
      INSERT INTO players (id, name, name_key)
      SELECT gen_random_uuid(), 'crowd' || i, 'crowd' || i FROM generate_series(1, 2000) AS i`;
    await prisma.$executeRaw`
      INSERT INTO api_tokens (id, player_id, name, token_hash)
      SELECT gen_random_uuid(), id, 'default', md5(name) || md5(id::text) FROM players WHERE name LIKE 'crowd%'`;
    await prisma.$executeRaw`
      WITH crowd AS (SELECT array_agg(id ORDER BY name) AS ids FROM players WHERE name LIKE 'crowd%'),
      g AS (
        INSERT INTO games (id, preset, players, first_dealer, status, version, phase, state, totals, winners, rated, created_at, updated_at, finished_at)
        SELECT gen_random_uuid(), (ARRAY['classic', 'classic-4', 'short', 'short-4', 'bidding', 'bidding-4'])[1 + i % 6], 3, 0, 'finished', 1, 'over', '{}', '{0,0,0}', '{0}', true,
               now() - i * interval '1 minute', now(), now()
          FROM generate_series(1, 6000) AS i
        RETURNING id, created_at, (extract(epoch FROM created_at) / 60)::int AS n),
      s AS (
        INSERT INTO game_seats (game_id, seat, player_id, total, place, created_at)
        SELECT g.id, k, crowd.ids[1 + (g.n * 7 + k * 667) % 2000], 0, k + 1, g.created_at FROM g, crowd, generate_series(0, 2) AS k)
      INSERT INTO deals (game_id, index, dealer, seed, seed_hash, contract, tricks, scores)
      SELECT g.id, j, j % 3, decode(repeat('0', 32), 'hex'), decode(repeat('0', 64), 'hex'), 'hearts', '[7, 5, 1]', '[0, 0, 0]' FROM g, generate_series(0, 5) AS j`;
    await prisma.$executeRaw`
      INSERT INTO ratings (player_id, family, players, mu, sigma, ordinal, games)
      SELECT id, f, n, 25, 3, 16, 10 FROM players, unnest(ARRAY['contract', 'bidding']) AS f, unnest(ARRAY[3, 4]) AS n WHERE name LIKE 'crowd%'`;
    await prisma.$executeRaw`
      INSERT INTO rating_changes (game_id, player_id, family, players, place, mu_before, sigma_before, mu_after, sigma_after, created_at)
      SELECT s.game_id, s.player_id, 'contract', 3, s.place, 25, 8, 25, 8, g.created_at
        FROM game_seats s JOIN games g ON g.id = s.game_id JOIN players p ON p.id = s.player_id WHERE p.name LIKE 'crowd%'`;
    await t.app.get(PlayerStatsService).backfill();
    await prisma.$executeRawUnsafe('ANALYZE');
    const queries: [string, Prisma.Sql][] = [
      ['profile', profileSql(A.name.toLowerCase())],
      ['presets', presetRecordsSql(A.id)],
      ['recent', recentGamesSql(A.id, 5)],
      ['games of preset', gamesOfPresetSql(A.id, 'short')],
      ['contract stats', contractStatsSql(A.id, 'short')],
      ['bidding stats', biddingStatsSql(A.id, 'bidding-4')],
      ['head-to-head', headToHeadSql(A.id, B.id)],
      ['leaderboard', leaderboardSql({ family: 'contract', players: 3, minGames: 5, after: { ordinal: 3, playerId: A.id }, limit: 21 })],
      ['history', ratingHistorySql({ playerId: A.id, family: 'contract', players: 3, after: { at: new Date(), id: A.id }, limit: 21 })],
      ['ratings', playerRatingsSql(A.id)],
    ];
    for (const [name, sql] of queries) {
      const plan = (await prisma.$queryRaw<{ 'QUERY PLAN': string }[]>(Prisma.sql`EXPLAIN ${sql}`)).map((r) => r['QUERY PLAN']).join('\n');
      if (process.env.SHOW_PLANS) console.log(`${name}:\n${plan}`);
      expect(plan, `${name}:\n${plan}`).not.toMatch(/Seq Scan on (games|game_seats|deals|ratings|rating_changes|players|api_tokens|player_stats)\b/);
      // A game is reached by its id only: an index of games by status, time or preset would walk everyone's games.
      const indexes = [...plan.matchAll(/(?:Index Scan|Index Only Scan) using (\S+)|Bitmap Index Scan on (\S+)/g)].map((m) => m[1] ?? m[2]);
      expect(indexes.filter((i) => i.startsWith('games_') && i !== 'games_pkey'), `${name}:\n${plan}`).toEqual([]);
    }
    // The figures of the other tests are untouched by the crowd.
    expect((await t.rest('GET', `/api/v1/players/${A.name}`)).body.games).toBe(3);
  }, 60_000);
});
