import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../../test/wait.js';
import { players, playThrough, startGame, type TestPlayer } from '../games/games.test-kit.js';
import { Prisma } from '../generated/prisma/client.js';
import { Outbox } from '../outbox/outbox.js';
import type { OutboxJob } from '../outbox/outbox-entries.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { insertGame, type BuiltDeal } from '../ratings/ratings.test-kit.js';
import { PlayerStatsService } from './player-stats.service.js';
import { statsIncrementsSql } from './player-stats.sql.js';

// The per-player aggregates: what the gameFinished consumer adds equals a recomputation from every
// finished game's seats and deals (the same SQL the profiles read before the aggregates), each game
// added exactly once however often, however concurrently and by whichever path (consumer, backfill)
// it is handed over; active and imported games add nothing.

let t: TestApp;
let prisma: PrismaService;
let stats: PlayerStatsService;
beforeAll(async () => {
  t = await startTestApp();
  prisma = t.app.get(PrismaService);
  stats = t.app.get(PlayerStatsService);
});
afterAll(async () => {
  await t?.close();
});

/** The outbox job a game's end writes, as the relay hands it to the consumers. */
function finished(gameId: string): OutboxJob {
  return { gameId, seq: 99, entries: [{ type: 'gameFinished', totals: [0, 0, 0], places: [1, 2, 3], winners: [0], end: null }] };
}

interface StatRow {
  player_id: string;
  preset: string;
  kind: string;
  key: string;
  [counter: string]: unknown;
}

/** The aggregates of `who`, as kept. */
async function kept(who: TestPlayer[]): Promise<StatRow[]> {
  return prisma.$queryRaw<StatRow[]>`
    SELECT player_id, preset, kind, key, games, wins, placed, place_sum, deals, score_sum, met, exact, failed, chosen, chosen_met,
           chosen_score_sum, last_finished_at
      FROM player_stats WHERE player_id = ANY(${who.map((p) => p.id)}::uuid[]) ORDER BY player_id, preset, kind, key`;
}

/** The aggregates of `who`, recomputed from all their finished games played here. */
async function recomputed(who: TestPlayer[]): Promise<StatRow[]> {
  const all = Prisma.sql`(SELECT id, preset, players, finished_at FROM games WHERE status = 'finished' AND imported_by IS NULL)`;
  return prisma.$queryRaw<StatRow[]>`
    SELECT * FROM (${statsIncrementsSql(all)}) r WHERE player_id = ANY(${who.map((p) => p.id)}::uuid[]) ORDER BY player_id, preset, kind, key`;
}

const contractDeals: BuiltDeal[] = [
  { dealer: 2, contract: 'hearts', tricks: [9, 3, 1], scores: [2, -2, 0] },
  { dealer: 0, contract: 'mizerka', tricks: [9, 0, 4], scores: [-2, 1, 1] },
  { dealer: 1, contract: 'notrumps', tricks: [5, 1, 7], scores: [0, 0, 0] },
  { dealer: 2, contract: 'hearts', tricks: [1, 2, 0], scores: null },
];
const biddingDeals: BuiltDeal[] = [
  { dealer: 0, declarer: 1, bid: 'play', trump: 'hearts', tricks: [null, 6, 2, 2], scores: [0, 10, 0, 0] },
  { dealer: 1, declarer: 0, bid: 'misere', tricks: [1, null, 5, 4], scores: [-20, 0, 10, 10] },
  { dealer: 2, declarer: 3, bid: 'play', trump: 'spades', tricks: [3, 4, null, 3], scores: [10, 10, 0, -20] },
];

describe('player aggregates', () => {
  it('add a game exactly once, however often and concurrently the consumer and the backfill are handed it', async () => {
    const [a, b, c, d] = await players(t, 4, 'st');
    const games = [
      await insertGame(prisma, { preset: 'short', seats: [a.id, b.id, c.id], totals: [0, -1, 1], places: [2, 3, 1], deals: contractDeals }),
      await insertGame(prisma, { preset: 'short', seats: [c.id, a.id, b.id], totals: [3, 3, -6], places: [1, 1, 3], deals: contractDeals.slice(0, 2) }),
      await insertGame(prisma, { preset: 'bidding-4', seats: [a.id, b.id, c.id, d.id], totals: [-10, 20, 10, -10], places: [3, 1, 2, 3], deals: biddingDeals }),
    ];
    // Every game handed over many times at once, by single calls and by two backfills: each is claimed once.
    const claims = await Promise.all([
      ...games.flatMap((id) => [stats.addGame(id), stats.addGame(id), stats.addGame(id)]),
      stats.backfill(1).then((r) => r.games),
      stats.backfill(2).then((r) => r.games),
    ]);
    expect(claims.reduce<number>((sum, x) => sum + Number(x), 0)).toBe(games.length);
    // Then by the outbox, twice, as a redelivery would: nothing more.
    const outbox = t.app.get(Outbox);
    await outbox.deliver('gameFinished.stats', games.map(finished));
    await outbox.deliver('gameFinished.stats', games.map(finished));
    expect(await stats.addGame(games[0])).toBe(false);
    expect((await stats.backfill()).games).toBe(0);

    const rows = await kept([a, b, c, d]);
    expect(rows).toEqual(await recomputed([a, b, c, d]));
    // A in short: two games (places 2 and 1), deals +2 -2 0 (the abandoned one has no score), then -2 +1.
    const preset = rows.find((r) => r.player_id === a.id && r.preset === 'short' && r.kind === 'preset');
    expect(preset).toMatchObject({ games: 2, wins: 1, placed: 2, place_sum: 3, deals: 5, score_sum: 0 - 2 + 1 });
    const hearts = rows.find((r) => r.player_id === a.id && r.preset === 'short' && r.kind === 'contract' && r.key === 'hearts');
    // hearts: +2 as the chooser (dealer 2's left, seat 0), then -2 in seat 1, below the quota.
    expect(hearts).toMatchObject({ deals: 2, met: 1, exact: 0, score_sum: 0, chosen: 1, chosen_met: 1, chosen_score_sum: 2 });
    const defender = rows.find((r) => r.player_id === b.id && r.kind === 'defender' && r.key === 'play');
    expect(defender).toMatchObject({ deals: 1, met: 0, failed: 1, score_sum: 10 });
  });

  it('add nothing for an active or an imported game', async () => {
    const [a, b, c] = await players(t, 3, 'sn');
    const active = await insertGame(prisma, { preset: 'short', seats: [a.id, b.id, c.id], totals: [0, 0, 0], status: 'active', deals: contractDeals.slice(0, 1) });
    const imported = await insertGame(prisma, { preset: 'short', seats: [a.id], totals: [9, 0, -9], places: [1, 2, 3], importedBy: a.id, deals: contractDeals });
    expect(await stats.addGame(active)).toBe(false);
    expect(await stats.addGame(imported)).toBe(false);
    await stats.backfill();
    expect(await kept([a, b, c])).toEqual([]);
    const marks = await prisma.game.findMany({ where: { id: { in: [active, imported] } }, select: { statsAt: true } });
    expect(marks.map((m) => m.statsAt)).toEqual([null, null]);
  });

  it('are kept by the gameFinished consumer for a game played to its end', async () => {
    const seated = await players(t, 3, 'sp');
    const gameId = await startGame(t, seated, 'short');
    await playThrough(t, seated, gameId, 7);
    await waitFor(
      async () => (await prisma.game.findUniqueOrThrow({ where: { id: gameId }, select: { statsAt: true } })).statsAt,
      'the gameFinished consumer to add the game',
      { timeout: 20_000 },
    );
    const rows = await kept(seated);
    expect(rows.filter((r) => r.kind === 'preset').map((r) => r.games)).toEqual([1, 1, 1]);
    expect(rows).toEqual(await recomputed(seated));
    expect(await stats.addGame(gameId)).toBe(false);
    const profile = await t.rest('GET', `/api/v1/players/${seated[0].name}`);
    expect(profile.body.presets).toEqual([expect.objectContaining({ preset: 'short', games: 1 })]);
  }, 120_000);
});
