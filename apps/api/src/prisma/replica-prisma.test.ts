import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { createTestDatabase } from '../../../../test/database.js';
import { startGame } from '../games/games.test-kit.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { insertGame } from '../ratings/ratings.test-kit.js';
import { PrismaService } from './prisma.service.js';
import { ReplicaPrisma, replicaCheckouts } from './replica-prisma.js';

// DATABASE_REPLICA_URL on a real PostgreSQL. The "replica" is a second database on the same server
// holding what the primary does not (a player and their finished game, a rating), so an answer
// shows which database it was read from: the history lists, exports and rating pages read the
// replica, through a pool of its own whose sessions are read-only; everything else, and every
// write, the primary. Without the setting, the history reads use the primary's client itself.
let t: TestApp;
let plain: TestApp;
let replicaDb: PrismaClient;
let replicaUrl: string;
const ONLY_THERE = 'only_on_replica';

const checkouts = async (pool: 'prisma' | 'export') =>
  (await replicaCheckouts.get()).values.find((v) => v.labels.pool === pool)?.value ?? 0;

beforeAll(async () => {
  const [primaryUrl, other] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  replicaUrl = other;
  replicaDb = new PrismaClient({ adapter: new PrismaPg({ connectionString: replicaUrl }) });
  const players = await Promise.all(
    [ONLY_THERE, 'rep_b', 'rep_c'].map((name) => replicaDb.player.create({ data: { name, nameKey: name.toLowerCase() }, select: { id: true } })),
  );
  await insertGame(replicaDb as PrismaService, { preset: 'classic', seats: players.map((p) => p.id), totals: [10, 0, -10], places: [1, 2, 3] });
  await replicaDb.rating.create({ data: { playerId: players[0].id, family: 'contract', players: 3, mu: 30, sigma: 2, ordinal: 24, games: 40 } });
  t = await startTestApp({ databaseReplicaUrl: replicaUrl }, primaryUrl);
  plain = await startTestApp();
}, 90_000);
afterAll(async () => {
  await t?.close();
  await plain?.close();
  await replicaDb?.$disconnect();
});

describe('DATABASE_REPLICA_URL', () => {
  it('sends the history lists and the rating pages to the replica pool', async () => {
    const before = await checkouts('prisma');
    const list = await t.rest('GET', `/api/v1/players/${ONLY_THERE}/games`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].players.map((p: { name: string }) => p.name)).toEqual([ONLY_THERE, 'rep_b', 'rep_c']);
    const connection = await t.gql(`query { games(filter: { players: ["${ONLY_THERE}"] }, first: 5) { edges { node { id preset } } } }`);
    expect(connection.errors).toBeUndefined();
    expect(connection.data!.games.edges).toHaveLength(1);

    const board = await t.rest('GET', '/api/v1/leaderboards/contract/3?minGames=1');
    expect(board.status).toBe(200);
    expect(board.body.entries.map((e: { player: { name: string } }) => e.player.name)).toEqual([ONLY_THERE]);
    expect((await t.rest('GET', `/api/v1/players/${ONLY_THERE}/ratings/history`)).status).toBe(200);
    expect(await checkouts('prisma')).toBeGreaterThan(before);

    // The same reads without the setting: the primary's, where none of it is.
    expect((await plain.rest('GET', `/api/v1/players/${ONLY_THERE}/games`)).status).toBe(404);
    expect((await plain.rest('GET', '/api/v1/leaderboards/contract/3?minGames=1')).body.entries).toEqual([]);
    expect(plain.app.get(ReplicaPrisma).client).toBe(plain.app.get(PrismaService));
    expect(plain.app.get(ReplicaPrisma).isReplica).toBe(false);
  });

  it('streams exports from the replica', async () => {
    const before = await checkouts('export');
    const response = await fetch(`${t.baseUrl}/api/v1/players/${ONLY_THERE}/games/export`);
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).format).toMatch(/^mizerka-record/);
    expect(await checkouts('export')).toBeGreaterThan(before);
  });

  it('never writes there: sign-ins, games and moves go to the primary, and the replica pool refuses writes', async () => {
    const players = await Promise.all(['rep_w1', 'rep_w2', 'rep_w3'].map(async (name) => ({ name, ...(await t.register(name)) })));
    const gameId = await startGame(t, players, 'classic');
    expect(await replicaDb.player.count({ where: { nameKey: { in: ['rep_w1', 'rep_w2', 'rep_w3'] } } })).toBe(0);
    expect(await replicaDb.game.count({ where: { id: gameId } })).toBe(0);
    // The caller's own games, whose turns move on, are the primary's.
    const mine = await t.rest('GET', '/api/v1/games', undefined, players[0].token);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((g: { id: string }) => g.id)).toEqual([gameId]);
    // Active games only: the primary's too.
    const active = await t.rest('GET', '/api/v1/players/rep_w1/games?status=active');
    expect(active.status).toBe(200);
    expect(active.body.items.map((g: { id: string }) => g.id)).toEqual([gameId]);
    // And a write sent through the replica's pool by mistake fails.
    const replica = t.app.get(ReplicaPrisma);
    expect(replica.isReplica).toBe(true);
    await expect(replica.client.$executeRaw`INSERT INTO job_marks (name, at) VALUES ('replica-test', now())`).rejects.toThrow(/read-only/);
  });
});
