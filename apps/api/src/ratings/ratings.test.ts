import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../../test/wait.js';
import { players, type TestPlayer } from '../lobbies/lobbies.test-kit.js';
import { Outbox } from '../outbox/outbox.js';
import type { OutboxJob } from '../outbox/outbox-entries.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { newSkill, rateTable, skillOrdinal, type Skill } from './rating-math.js';
import { RatingsService } from './ratings.service.js';
import { insertGame } from './ratings.test-kit.js';

// Ratings at a rated game's end: the right change for places, ties and early ends, applied exactly
// once however often and however concurrently the outbox hands the game over; rated lobbies;
// leaderboards and histories paged without gap or duplicate.

let t: TestApp;
let prisma: PrismaService;
let ratings: RatingsService;
beforeAll(async () => {
  t = await startTestApp();
  prisma = t.app.get(PrismaService);
  ratings = t.app.get(RatingsService);
});
afterAll(async () => {
  await t?.close();
});

/** The outbox job a game's end writes, as the relay hands it to the consumers. */
function finished(gameId: string, places: number[]): OutboxJob {
  return { gameId, seq: 99, entries: [{ type: 'gameFinished', totals: places.map(() => 0), places, winners: [], end: null }] };
}

async function skillOf(playerId: string, family: string, n: number): Promise<(Skill & { games: number; ordinal: number }) | null> {
  const row = await prisma.rating.findUnique({ where: { playerId_family_players: { playerId, family, players: n } } });
  return row && { mu: row.mu, sigma: row.sigma, games: row.games, ordinal: row.ordinal };
}

describe('rating a finished game', () => {
  it('gives tied seats the same change, the last seat a loss, and rates once however often the end is delivered', async () => {
    const [a, b, c] = await players(t, 3, 'rt');
    const gameId = await insertGame(prisma, { preset: 'classic', seats: [a.id, b.id, c.id], totals: [4, 4, -8], places: [1, 1, 3] });
    const outbox = t.app.get(Outbox);
    await outbox.deliver('gameFinished.ratings', [finished(gameId, [1, 1, 3])]);
    await outbox.deliver('gameFinished.ratings', [finished(gameId, [1, 1, 3])]); // a second delivery
    expect(await ratings.rateGame(gameId)).toBe(false);

    const expected = rateTable([newSkill(), newSkill(), newSkill()], [1, 1, 3]);
    const after = await Promise.all([a, b, c].map((p) => skillOf(p.id, 'contract', 3)));
    after.forEach((s, seat) => {
      expect(s!.mu).toBeCloseTo(expected[seat].mu, 10);
      expect(s!.sigma).toBeCloseTo(expected[seat].sigma, 10);
      expect(s!.ordinal).toBeCloseTo(skillOrdinal(expected[seat]), 10);
      expect(s!.games).toBe(1);
    });
    expect(after[0]!.mu).toBe(after[1]!.mu);
    expect(after[0]!.mu).toBeGreaterThan(25);
    expect(after[2]!.mu).toBeLessThan(25);
    const changes = await prisma.ratingChange.findMany({ where: { gameId }, orderBy: { place: 'asc' } });
    expect(changes.map((ch) => ch.place)).toEqual([1, 1, 3]);
    expect((await prisma.game.findUniqueOrThrow({ where: { id: gameId } })).ratedAt).not.toBeNull();
  });

  it('rates a forfeiting or resigning seat last whatever its total, separately per family and player count', async () => {
    const [a, b, c, d] = await players(t, 4, 'rf');
    // Seat 0 had the best total but forfeited: the stored places put it last.
    const forfeit = await insertGame(prisma, {
      preset: 'short',
      seats: [a.id, b.id, c.id],
      totals: [9, 2, -11],
      places: [3, 1, 2],
      endSeat: 0,
      endReason: 'forfeit',
    });
    const four = await insertGame(prisma, { preset: 'bidding-4', seats: [a.id, b.id, c.id, d.id], totals: [300, 20, 10, 0], places: [1, 2, 3, 4] });
    await ratings.rateGames([forfeit, four]);
    const expected = rateTable([newSkill(), newSkill(), newSkill()], [3, 1, 2]);
    expect((await skillOf(a.id, 'contract', 3))!.mu).toBeCloseTo(expected[0].mu, 10);
    expect((await skillOf(a.id, 'contract', 3))!.mu).toBeLessThan((await skillOf(c.id, 'contract', 3))!.mu);
    expect((await skillOf(b.id, 'contract', 3))!.mu).toBeCloseTo(expected[1].mu, 10);
    // The four-player bidding game is its own rating, from a newcomer's skill.
    const bidding = await skillOf(a.id, 'bidding', 4);
    expect(bidding!.games).toBe(1);
    expect(bidding!.mu).toBeCloseTo(rateTable([newSkill(), newSkill(), newSkill(), newSkill()], [1, 2, 3, 4])[0].mu, 10);
    expect(await skillOf(a.id, 'contract', 4)).toBeNull();
  });

  it('rates a game that resigns through the API once the outbox delivers its end', async () => {
    const seated = await players(t, 3, 'rr');
    const lobby = await t.gql(`mutation($input: CreateLobbyInput!) { createLobby(input: $input) { id rated } }`, { input: { preset: 'short' } }, seated[0].token);
    expect(lobby.data!.createLobby.rated).toBe(true);
    let gameId = '';
    for (const p of seated.slice(1)) {
      const joined = await t.gql(`mutation($input: JoinLobbyInput!) { joinLobby(input: $input) { gameId } }`, { input: { lobbyId: lobby.data!.createLobby.id } }, p.token);
      gameId = joined.data!.joinLobby.gameId ?? '';
    }
    expect((await prisma.game.findUniqueOrThrow({ where: { id: gameId } })).rated).toBe(true);
    const resigned = await t.gql(`mutation($input: ResignInput!) { resign(input: $input) { status } }`, { input: { gameId } }, seated[1].token);
    expect(resigned.data!.resign.status).toBe('finished');
    // The outbox's worker rates it soon after the commit; waiting for that is not a timing assertion.
    await waitFor(async () => (await prisma.game.findUniqueOrThrow({ where: { id: gameId } })).ratedAt, 'the game to be rated', { timeout: 20_000 });
    const changes = await prisma.ratingChange.findMany({ where: { gameId } });
    expect(changes).toHaveLength(3);
    expect(changes.find((ch) => ch.playerId === seated[1].id)!.place).toBe(3);
    expect(await ratings.rateGame(gameId)).toBe(false);
  });

  it('leaves unrated and imported games alone', async () => {
    const [a, b, c] = await players(t, 3, 'ru');
    const unrated = await insertGame(prisma, { preset: 'classic', seats: [a.id, b.id, c.id], totals: [1, 0, -1], places: [1, 2, 3], rated: false });
    const imported = await insertGame(prisma, { preset: 'classic', seats: [a.id, b.id, c.id], totals: [1, 0, -1], places: [1, 2, 3], importedBy: a.id });
    const active = await insertGame(prisma, { preset: 'classic', seats: [a.id, b.id, c.id], totals: [0, 0, 0], status: 'active' });
    await ratings.rateGames([unrated, imported, active]);
    expect(await prisma.ratingChange.count({ where: { playerId: a.id } })).toBe(0);
    expect(await skillOf(a.id, 'contract', 3)).toBeNull();
  });
});

describe('exactly once', () => {
  it('rates two games of shared players that end at once one after the other, each from what the other left', async () => {
    const [a, b, c, d] = await players(t, 4, 'rc');
    const g1 = await insertGame(prisma, { preset: 'classic', seats: [a.id, b.id, c.id], totals: [5, 0, -5], places: [1, 2, 3] });
    const g2 = await insertGame(prisma, { preset: 'short', seats: [b.id, a.id, d.id], totals: [3, 0, -3], places: [1, 2, 3] });
    // Rated before: both games update the same existing rows (newcomers' rows would queue on their insert instead).
    await prisma.rating.createMany({ data: [a, b, c, d].map((p) => ({ playerId: p.id, family: 'contract', players: 3, mu: 30, sigma: 5, ordinal: 15, games: 3 })) });
    // Both games delivered twice, on what could be two instances, all at once.
    const claimed = await Promise.all([ratings.rateGame(g1), ratings.rateGame(g2), ratings.rateGame(g1), ratings.rateGame(g2)]);
    expect(claimed.filter(Boolean)).toHaveLength(2);
    for (const p of [a, b]) {
      const changes = await prisma.ratingChange.findMany({ where: { playerId: p.id }, orderBy: { createdAt: 'asc' } });
      expect(changes).toHaveLength(2);
      const [first, second] = changes[0].muBefore === 30 ? changes : [changes[1], changes[0]];
      expect(first.muBefore).toBe(30);
      // The later game started from the earlier one's result: nothing was lost to a race.
      expect(second.muBefore).toBe(first.muAfter);
      expect(second.sigmaBefore).toBe(first.sigmaAfter);
      const now = await skillOf(p.id, 'contract', 3);
      expect(now!.games).toBe(5);
      expect(now!.mu).toBe(second.muAfter);
    }
  });

  it('rates a game whose consumer failed part-way (a crash) exactly once on the retry', async () => {
    const [a, b, c] = await players(t, 3, 'rx');
    const gameId = await insertGame(prisma, { preset: 'classic', seats: [a.id, b.id, c.id], totals: [2, 1, -3], places: [1, 2, 3] });
    // The first attempt dies after claiming the game and inserting the new players' ratings; a
    // sequence is not rolled back, so the trigger fails only once.
    await prisma.$executeRawUnsafe(`CREATE SEQUENCE IF NOT EXISTS rating_crash`);
    await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION rating_crash() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF nextval('rating_crash') = 1 THEN RAISE EXCEPTION 'crash before the rating changes'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER rating_crash BEFORE INSERT ON rating_changes FOR EACH STATEMENT EXECUTE FUNCTION rating_crash()`);
    try {
      const outbox = t.app.get(Outbox);
      await expect(outbox.deliver('gameFinished.ratings', [finished(gameId, [1, 2, 3])])).rejects.toThrow(/crash/);
      expect((await prisma.game.findUniqueOrThrow({ where: { id: gameId } })).ratedAt).toBeNull();
      expect(await skillOf(a.id, 'contract', 3)).toBeNull();
      await outbox.deliver('gameFinished.ratings', [finished(gameId, [1, 2, 3])]); // the queue's retry
      await outbox.deliver('gameFinished.ratings', [finished(gameId, [1, 2, 3])]); // and a late duplicate
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER rating_crash ON rating_changes`);
    }
    expect(await prisma.ratingChange.count({ where: { gameId } })).toBe(3);
    expect((await skillOf(a.id, 'contract', 3))!.games).toBe(1);
    expect((await skillOf(a.id, 'contract', 3))!.mu).toBeCloseTo(rateTable([newSkill(), newSkill(), newSkill()], [1, 2, 3])[0].mu, 10);
  });
});

describe('rated lobbies', () => {
  const CREATE = `mutation($input: CreateLobbyInput!) { createLobby(input: $input) { id rated visibility inviteCode } }`;

  it('are rated by default when public, unrated by default when unlisted, and say so in listings', async () => {
    const [host] = await players(t, 1, 'rl');
    const pub = (await t.gql(CREATE, { input: { preset: 'classic' } }, host.token)).data!.createLobby;
    const unlisted = (await t.gql(CREATE, { input: { preset: 'classic', visibility: 'unlisted' } }, host.token)).data!.createLobby;
    const chosen = (await t.gql(CREATE, { input: { preset: 'classic', visibility: 'unlisted', rated: true } }, host.token)).data!.createLobby;
    const casual = await t.rest('POST', '/api/v1/lobbies', { preset: 'classic', rated: false }, host.token);
    expect([pub.rated, unlisted.rated, chosen.rated, casual.body.rated]).toEqual([true, false, true, false]);
    const bad = await t.rest('POST', '/api/v1/lobbies', { preset: 'classic', rated: 'yes' }, host.token);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('rated');
    const listed = await t.rest('GET', '/api/v1/lobbies?first=100');
    const mine = listed.body.lobbies.filter((l: { id: string }) => l.id === pub.id || l.id === casual.body.id);
    expect(mine.map((l: { rated: boolean }) => l.rated).sort()).toEqual([false, true]);
  });

  it('pass rated to their game, and play again keeps it', async () => {
    const seated = await players(t, 3, 'rp');
    const lobby = (await t.gql(CREATE, { input: { preset: 'short', visibility: 'unlisted', rated: true } }, seated[0].token)).data!.createLobby;
    let gameId = '';
    for (const p of seated.slice(1)) {
      gameId = (await t.rest('POST', '/api/v1/lobbies/join-by-code', { inviteCode: lobby.inviteCode }, p.token)).body.gameId ?? gameId;
    }
    expect((await prisma.game.findUniqueOrThrow({ where: { id: gameId } })).rated).toBe(true);
    await t.gql(`mutation($input: ResignInput!) { resign(input: $input) { status } }`, { input: { gameId } }, seated[2].token);
    const again = await t.rest('POST', `/api/v1/games/${gameId}/play-again`, undefined, seated[0].token);
    expect(again.body.rated).toBe(true);
    expect((await prisma.game.findUniqueOrThrow({ where: { id: again.body.gameId } })).rated).toBe(true);
  });
});

describe('leaderboards', () => {
  it('page by (ordinal desc, player id) without gap or duplicate, ties included, above minGames only', async () => {
    const family = 'bidding';
    const n = 3;
    const list = await players(t, 23, 'lb');
    const rows = list.map((p, i) => {
      const mu = 20 + (i % 7); // equal ordinals among players 7 apart
      return { playerId: p.id, family, players: n, mu, sigma: 2, ordinal: mu - 6, games: i % 5 === 0 ? 2 : 5 + i };
    });
    await prisma.rating.createMany({ data: rows });
    const expected = rows
      .filter((r) => r.games >= 5)
      .sort((x, y) => y.ordinal - x.ordinal || (x.playerId < y.playerId ? -1 : 1))
      .map((r) => r.playerId);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const q: string = `/api/v1/leaderboards/${family}/${n}?first=4${after ? `&after=${after}` : ''}`;
      const res = await t.rest('GET', q);
      expect(res.status).toBe(200);
      seen.push(...res.body.entries.map((e: { player: { id: string } }) => e.player.id));
      if (page === 0) {
        // A newcomer to the top does not shift the pages after the first.
        const [late] = await players(t, 1, 'lb');
        await prisma.rating.create({ data: { playerId: late.id, family, players: n, mu: 99, sigma: 1, ordinal: 96, games: 9 } });
      }
      after = res.body.nextCursor;
      expect(res.body.hasMore).toBe(after !== null);
      if (!after) break;
    }
    expect(seen).toEqual(expected);

    const gql = await t.gql(`{ leaderboard(family: "bidding", players: 3, first: 2, minGames: 0) { entries { player { name kind } ordinal games } hasMore } }`);
    expect(gql.data!.leaderboard.entries[0]).toMatchObject({ ordinal: 96, player: { kind: 'human' } });
  });

  it('refuse a bad family, table size, threshold or cursor naming the field', async () => {
    const cases: [string, string][] = [
      ['/api/v1/leaderboards/chess/3', 'family'],
      ['/api/v1/leaderboards/contract/5', 'players'],
      ['/api/v1/leaderboards/contract/x', 'players'],
      ['/api/v1/leaderboards/contract/3?minGames=-1', 'minGames'],
      ['/api/v1/leaderboards/contract/3?after=bm9wZQ', 'after'],
      ['/api/v1/leaderboards/contract/3?first=101', 'first'],
    ];
    for (const [path, field] of cases) {
      const res = await t.rest('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe('BAD_INPUT');
      expect(JSON.stringify(res.body), path).toContain(field);
    }
    const gql = await t.gql(`{ leaderboard(family: "contract", players: 2) { hasMore } }`);
    expect(gql.errors![0].extensions!.code).toBe('BAD_INPUT');
  });
});

describe('rating history', () => {
  it("pages a player's changes newest first, by family and table size", async () => {
    const [a, b, c, d] = await players(t, 4, 'rh');
    const games: string[] = [];
    for (let i = 0; i < 5; i++) {
      games.push(await insertGame(prisma, { preset: i === 2 ? 'bidding-4' : 'classic', seats: i === 2 ? [a.id, b.id, c.id, d.id] : [a.id, b.id, c.id], totals: [], places: i === 2 ? [2, 1, 3, 4] : [1 + (i % 3), 1 + ((i + 1) % 3), 1 + ((i + 2) % 3)] }));
      await ratings.rateGame(games[i]);
    }
    const all: string[] = [];
    let after: string | null = null;
    do {
      const res: { status: number; body: { changes: { gameId: string; family: string }[]; nextCursor: string | null } } = await t.rest(
        'GET',
        `/api/v1/players/${a.name.toUpperCase()}/ratings/history?first=2${after ? `&after=${after}` : ''}`,
      );
      expect(res.status).toBe(200);
      all.push(...res.body.changes.map((ch) => ch.gameId));
      after = res.body.nextCursor;
    } while (after);
    expect(all).toEqual([...games].reverse());
    const contract = await t.rest('GET', `/api/v1/players/${a.name}/ratings/history?family=contract&players=3`);
    expect(contract.body.changes).toHaveLength(4);
    const [last] = contract.body.changes;
    expect(last.ordinalAfter).toBeCloseTo(last.muAfter - 3 * last.sigmaAfter, 10);
    expect((await t.rest('GET', `/api/v1/players/${a.name}/ratings/history?family=poker`)).body.code).toBe('BAD_INPUT');
    expect((await t.rest('GET', `/api/v1/players/nobody-at-all/ratings/history`)).status).toBe(404);
  });
});

export type { TestPlayer };
