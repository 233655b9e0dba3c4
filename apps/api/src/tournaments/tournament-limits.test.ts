import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { NO_JOBS } from '../bots/bots.test-kit.js';
import { loadConfig } from '../config/app-config.js';
import { players, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { TournamentsService } from './tournaments.service.js';

// A hostile organiser: tournaments without end, and a field of hundreds of server bots whose every
// game is the server's work. Both are bounded per organiser; featured events (the operator's) are not.
const CREATE = 'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id status } }';
const later = () => new Date(Date.now() + 3_600_000).toISOString();

let t: TestApp;
let organiser: TestPlayer;
beforeAll(async () => {
  // The job worker off: the tests start tournaments themselves, and no bot plays.
  t = await startTestApp({ ...NO_JOBS, quotas: { ...loadConfig({}).quotas, openTournamentsPerPlayer: 2, tournamentBots: 4 } });
  [organiser] = await players(t, 1, 'lim');
});
afterAll(async () => t?.close());

describe('tournament limits per organiser', () => {
  it('refuses a tournament past MAX_OPEN_TOURNAMENTS_PER_PLAYER with a 409 naming the limit, until one ends', async () => {
    const made: string[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await t.gql(CREATE, { input: { name: `open ${i}`, preset: 'bidding', options: { target: 1 }, format: 'round-robin', startsAt: later() } }, organiser.token);
      expect(answer.errors).toBeUndefined();
      made.push(answer.data!.createTournament.id);
    }
    const refused = await t.rest('POST', '/api/v1/tournaments', { name: 'third', preset: 'bidding', options: { target: 1 }, format: 'round-robin' }, organiser.token);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('MAX_OPEN_TOURNAMENTS_PER_PLAYER');
    const overGql = await t.gql(CREATE, { input: { name: 'third', preset: 'bidding', options: { target: 1 }, format: 'round-robin' } }, organiser.token);
    expect(overGql.errors?.[0].extensions?.code).toBe('CONFLICT');
    // Another organiser is not held by this one's count.
    const [other] = await players(t, 1, 'lim2');
    expect((await t.gql(CREATE, { input: { name: 'theirs', preset: 'bidding', options: { target: 1 }, format: 'round-robin', startsAt: later() } }, other.token)).errors).toBeUndefined();
    // One ends (started short of a table: cancelled): the place is free again.
    await t.app.get(TournamentsService).startDue(made[0]);
    expect((await t.app.get(PrismaService).tournament.findUniqueOrThrow({ where: { id: made[0] } })).status).toBe('cancelled');
    expect((await t.gql(CREATE, { input: { name: 'again', preset: 'bidding', options: { target: 1 }, format: 'round-robin', startsAt: later() } }, organiser.token)).errors).toBeUndefined();
  });

  it('fills a field with at most MAX_TOURNAMENT_BOTS server bots, in whole tables, however large its minPlayers', async () => {
    const [host, person] = await players(t, 2, 'fill');
    const made = await t.gql(CREATE, {
      input: { name: 'a field of bots', preset: 'bidding', options: { target: 1 }, format: 'swiss', formatOptions: { rounds: 1 }, minPlayers: 300, maxPlayers: 300, botLevel: 'random', startsAt: later() },
    }, host.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, person.token)).status).toBe(200);
    await t.app.get(TournamentsService).startDue(id);
    const entered = await t.app.get(PrismaService).tournamentPlayer.findMany({ where: { tournamentId: id } });
    // One person and at most four bots, cut to whole tables of three: two bots.
    expect(entered.filter((p) => p.bot)).toHaveLength(2);
    expect(entered.filter((p) => !p.bot).map((p) => p.playerId)).toEqual([person.id]);
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as { tables: unknown[]; byes: string[] }[];
    expect(rounds[0].tables).toHaveLength(1);
    expect(rounds[0].byes).toEqual([]);
  });
});
