import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { createTestDatabase } from '../../../../test/database.js';
import { FAST, NO_JOBS, waitFor } from '../bots/bots.test-kit.js';
import { players } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { TournamentsService } from './tournaments.service.js';

/**
 * A server stops between a game's end and the round that follows: the end is committed with its
 * outbox row, but no consumer has run. The next server delivers it; the round starts once, the game
 * counts once, and a delivery repeated after that changes nothing.
 */
describe('tournaments across a restart', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('starts the next round exactly once after the server went down between a game end and the round start', async () => {
    const databaseUrl = await createTestDatabase();
    // The first server works no jobs: the game's end stays in the outbox, as a kill would leave it.
    const first = await startTestApp(NO_JOBS, databaseUrl);
    apps.push(first);
    const [organiser, ...people] = await players(first, 4, 'rs');
    const made = await first.rest('POST', '/api/v1/tournaments', { name: 'restart', preset: 'bidding', options: { target: 1 }, format: 'swiss', formatOptions: { rounds: 2 }, minPlayers: 3, maxPlayers: 3 }, organiser.token);
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    for (const p of people) expect((await first.rest('POST', `/api/v1/tournaments/${id}/join`, {}, p.token)).status).toBe(200);
    const [round1] = (await first.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body;
    const gameId = round1.tables[0].gameId as string;
    expect((await first.rest('POST', `/api/v1/games/${gameId}/resign`, {}, people[0].token)).status).toBe(200);
    const prisma1 = first.app.get(PrismaService);
    expect((await prisma1.game.findUniqueOrThrow({ where: { id: gameId } })).status).toBe('finished');
    expect(await prisma1.outboxEntry.count({ where: { gameId } })).toBeGreaterThan(0);
    expect(await prisma1.tournamentRound.count({ where: { tournamentId: id } })).toBe(1);
    await first.close();
    apps.pop();

    const second = await startTestApp(FAST, databaseUrl);
    apps.push(second);
    const prisma = second.app.get(PrismaService);
    await waitFor(async () => (await prisma.tournamentRound.count({ where: { tournamentId: id } })) === 2, 'round 2 started by the next server');
    // Delivered again (a retry, a second instance): nothing more.
    const service = second.app.get(TournamentsService);
    expect(await service.countGame(gameId)).toBe(false);
    await service.gamesFinished([{ gameId, seq: 1, entry: { type: 'gameFinished', totals: [], places: [], winners: [], end: null } }]);
    expect(await prisma.tournamentRound.count({ where: { tournamentId: id } })).toBe(2);
    expect(await prisma.tournamentGame.count({ where: { tournamentId: id } })).toBe(2);
    const t = (await second.rest('GET', `/api/v1/tournaments/${id}`)).body;
    expect(t.round).toBe(2);
    expect(t.standings.map((s: { games: number }) => s.games)).toEqual([1, 1, 1]);
    const resigner = t.standings.find((s: { playerId: string }) => s.playerId === people[0].id);
    expect(resigner.points).toBe(0);
  }, 120_000);
});
