import { createHash } from 'node:crypto';
import { parseRecord, replay } from '@mizerka/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { FAST, waitFor } from '../bots/bots.test-kit.js';
import { MAKE_MOVE, pickMove, players, rng, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { openSse } from '../inbox/sse.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { boardComparison, gameResult, standings, type GameResult, type RunningFormat } from './formats.js';
import { TournamentsService } from './tournaments.service.js';

const T_FIELDS = `id status round format tableSize botLevel players { playerId bot withdrawnAt }
  standings { playerId rank points tieBreaks games byes bot }
  boards { number seedHash released seed results { position playerId score matchpoints tops } }`;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { ${T_FIELDS} inviteCode } }`;
const GET = `query($id: ID!) { tournament(id: $id) { ${T_FIELDS} } }`;

/** Waits for the tournament to reach `status` (bots play at full speed: seconds). */
async function until(t: TestApp, id: string, status: string) {
  try {
    return await waitFor(async () => {
      const got = (await t.gql(GET, { id })).data!.tournament;
      return got.status === status && got;
    }, `tournament ${status}`, 150_000);
  } catch (error) {
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body;
    const games = await t.app.get(PrismaService).game.findMany({ where: { id: { in: rounds.flatMap((r: { tables: { gameId: string }[] }) => r.tables.map((x) => x.gameId)) } }, select: { id: true, status: true, version: true, toMove: true } });
    throw new Error(`${String(error)}: ${JSON.stringify({ tournament: (await t.gql(GET, { id })).data!.tournament, games })}`, { cause: error });
  }
}

/**
 * The standings rebuilt from the games' exported records alone (GET /games/:id/record,
 * mizerka-record/1): each record replayed by the rules for its totals and places, its seats mapped
 * to players by the names the record holds, the byes from the rounds.
 */
async function standingsFromRecords(t: TestApp, id: string, format: RunningFormat, tableSize: number, decks?: Map<number, string[][][]>, arenaStreak = false) {
  const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as { number: number; byes: string[]; tables: { gameId: string; board: number | null }[] }[];
  const tournament = (await t.rest('GET', `/api/v1/tournaments/${id}`)).body as { players: { playerId: string }[] };
  const names = await t.app.get(PrismaService).player.findMany({ where: { id: { in: tournament.players.map((p) => p.playerId) } }, select: { id: true, name: true } });
  const idOfName = new Map(names.map((p) => [p.name, p.id]));
  const results: GameResult[] = [];
  for (const round of rounds) {
    for (const table of round.tables) {
      const answer = await t.rest('GET', `/api/v1/games/${table.gameId}/record`);
      expect(answer.status).toBe(200);
      const record = parseRecord(answer.body);
      if (!record.ok) throw new Error(JSON.stringify(record.error));
      const replayed = replay(record.value);
      if (!replayed.ok) throw new Error(JSON.stringify(replayed.error));
      const { totals, end } = replayed.value.outcome;
      results.push(gameResult(round.number, record.value.players!.map((n) => idOfName.get(n)!), totals, end?.seat ?? null, table.board));
      if (decks && table.board !== null) decks.set(table.board, [...(decks.get(table.board) ?? []), record.value.deals.map((d) => d.deck)]);
    }
  }
  return standings(format, tournament.players.map((p) => p.playerId), tableSize, results, rounds.flatMap((r) => r.byes.map((playerId) => ({ round: r.number, playerId }))), arenaStreak);
}

/** Plays every turn of `person` in the tournament's games until the tournament is over. */
async function playAsPerson(t: TestApp, person: TestPlayer, id: string, seed: number): Promise<void> {
  const random = rng(seed);
  for (;;) {
    const status = (await t.gql(GET, { id })).data!.tournament.status;
    if (status === 'finished') return;
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as { tables: { gameId: string; players: string[]; status: string }[] }[];
    const mine = rounds.flatMap((r) => r.tables).find((table) => table.status === 'active' && table.players.includes(person.id));
    if (!mine) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const game = (await t.gql(TURN_QUERY, { id: mine.gameId }, person.token)).data!.game;
    if (game.status !== 'active' || game.view.legalMoves === null) {
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    const moved = await t.gql(MAKE_MOVE, { input: { gameId: mine.gameId, expectedVersion: game.version, ...pickMove(game.view.legalMoves, random) } }, person.token);
    // A conflict is another person's move that got there first: read again.
    if (moved.errors && moved.errors[0].extensions?.code !== 'CONFLICT') throw new Error(JSON.stringify(moved.errors));
  }
}

describe('tournaments', () => {
  let t: TestApp;
  let organiser: TestPlayer;
  beforeAll(async () => {
    t = await startTestApp(FAST);
    [organiser] = await players(t, 1, 'org');
  });
  afterAll(async () => t?.close());

  it('runs a Swiss event of server bots from creation to final standings, and the standings rebuild from the records', async () => {
    const made = await t.gql(CREATE, {
      input: { name: 'bots swiss', preset: 'bidding', options: { target: 1 }, format: 'swiss', formatOptions: { rounds: 2 }, minPlayers: 6, botLevel: 'random', startsAt: new Date().toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    const done = await until(t, id, 'finished');
    expect(done.round).toBe(2);
    expect(done.players).toHaveLength(6);
    expect(done.players.every((p: { bot: boolean }) => p.bot)).toBe(true);
    expect(done.standings.map((s: { games: number }) => s.games)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(done.standings.every((s: { bot: boolean }) => s.bot)).toBe(true);
    const rebuilt = await standingsFromRecords(t, id, 'swiss', 3);
    expect(done.standings.map(({ bot: _bot, ...s }: { bot: boolean }) => s)).toEqual(rebuilt);
    // A repeated delivery of every game's end counts nothing and starts no round.
    const service = t.app.get(TournamentsService);
    const games = await t.app.get(PrismaService).tournamentGame.findMany({ where: { tournamentId: id } });
    for (const g of games) expect(await service.countGame(g.gameId)).toBe(false);
    expect(await t.app.get(PrismaService).tournamentRound.count({ where: { tournamentId: id } })).toBe(2);
    expect((await t.gql(GET, { id })).data!.tournament.standings).toEqual(done.standings);
  }, 180_000);

  it('runs a round-robin of people making moves through the API, with a bot filling the table', async () => {
    const people = await players(t, 2, 'rr');
    const made = await t.gql(CREATE, {
      input: { name: 'people rr', preset: 'bidding', options: { target: 1 }, format: 'round-robin', minPlayers: 3, maxPlayers: 3, botLevel: 'random', startsAt: new Date(Date.now() + 3_600_000).toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    for (const p of people) {
      const joined = await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, p.token);
      expect(joined.status).toBe(200);
    }
    // The start time is an hour away: the start job is run now, as its time would run it.
    await t.app.get(TournamentsService).startDue(id);
    await Promise.all(people.map((p, i) => playAsPerson(t, p, id, 100 + i)));
    const done = await until(t, id, 'finished');
    expect(done.players.filter((p: { bot: boolean }) => p.bot)).toHaveLength(1);
    expect(done.standings.map((s: { games: number }) => s.games)).toEqual([1, 1, 1]);
    const rebuilt = await standingsFromRecords(t, id, 'round-robin', 3);
    expect(done.standings.map(({ bot: _bot, ...s }: { bot: boolean }) => s)).toEqual(rebuilt);
    const mine = await t.rest('GET', '/api/v1/me/tournaments', undefined, people[0].token);
    expect(mine.body.items.map((x: { id: string }) => x.id)).toContain(id);
    const feed = await t.app.get(PrismaService).playerEvent.findMany({ where: { playerId: people[0].id, type: 'tournamentUpdated' } });
    expect(feed.map((e) => (e.payload as { change: string }).change)).toEqual(expect.arrayContaining(['joined', 'started', 'roundStarted', 'finished']));
  }, 180_000);

  it('runs a duplicate event: every table of a board holds the same cards, shown only once the board is released, ranked by matchpoints', async () => {
    const [person] = await players(t, 1, 'dup');
    const made = await t.gql(CREATE, {
      input: { name: 'duplicate', preset: 'bidding', options: { target: 1 }, format: 'duplicate', formatOptions: { rounds: 2 }, minPlayers: 6, maxPlayers: 6, botLevel: 'random', startsAt: new Date(Date.now() + 3_600_000).toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    // The boards are committed at creation: their hashes shown, their seeds not.
    const committed = made.data!.createTournament.boards as { number: number; seedHash: string; released: boolean; seed: string | null; results: unknown }[];
    expect(committed.map((b) => b.number)).toEqual([1, 2]);
    for (const b of committed) expect(b).toMatchObject({ seedHash: expect.stringMatching(/^[0-9a-f]{64}$/), released: false, seed: null, results: null });
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, person.token)).status).toBe(200);
    await t.app.get(TournamentsService).startDue(id);
    // The person's table waits for the person: the bots' table of board 1 ends first, and the board stays held.
    const first = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body[0];
    expect(first.tables).toHaveLength(2);
    expect(first.tables.every((x: { board: number }) => x.board === 1)).toBe(true);
    const botsTable = first.tables.find((x: { players: string[] }) => !x.players.includes(person.id));
    await waitFor(async () => (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body[0].tables.find((x: { gameId: string }) => x.gameId === botsTable.gameId).status === 'finished', 'the bots table of board 1', 60_000);
    expect((await t.rest('GET', `/api/v1/games/${botsTable.gameId}/record`)).status).toBe(403);
    const heldTable = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body[0].tables.find((x: { gameId: string }) => x.gameId === botsTable.gameId);
    expect(heldTable).toMatchObject({ status: 'finished', totals: [], places: null });
    const held = (await t.gql(GET, { id })).data!.tournament;
    expect(held.boards[0]).toMatchObject({ released: false, seed: null, results: null });
    await playAsPerson(t, person, id, 7);
    const done = await until(t, id, 'finished');
    expect(done.round).toBe(2);
    expect(done.standings.map((s: { games: number }) => s.games)).toEqual([2, 2, 2, 2, 2, 2]);
    // Released: each seed matches the hash committed at creation, and every table of a board was dealt the same decks.
    const decks = new Map<number, string[][][]>();
    const rebuilt = await standingsFromRecords(t, id, 'duplicate', 3, decks);
    for (const [i, b] of (done.boards as typeof committed).entries()) {
      expect(b.released).toBe(true);
      expect(b.seedHash).toBe(committed[i].seedHash);
      expect(createHash('sha256').update(b.seed!).digest('hex')).toBe(b.seedHash);
      const tables = decks.get(b.number)!;
      expect(tables).toHaveLength(2);
      const common = Math.min(...tables.map((d) => d.length));
      expect(common).toBeGreaterThan(0);
      for (const d of tables) expect(d.slice(0, common)).toEqual(tables[0].slice(0, common));
    }
    // The standings are the library's matchpoint percentages, recomputed from the exported records.
    expect(done.standings.map(({ bot: _bot, ...s }: { bot: boolean }) => s)).toEqual(rebuilt);
    // Each board's comparison: every position held at both tables, matchpoints as recomputed.
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as { number: number; tables: { gameId: string; players: string[]; totals: number[]; board: number }[] }[];
    for (const b of done.boards as { number: number; results: { position: number }[] }[]) {
      const games = await Promise.all(rounds[b.number - 1].tables.map(async (x) => {
        const g = await t.app.get(PrismaService).game.findUniqueOrThrow({ where: { id: x.gameId }, select: { endSeat: true } });
        return gameResult(b.number, x.players, x.totals, g.endSeat, b.number);
      }));
      expect(b.results).toEqual(boardComparison(games));
      expect(b.results).toHaveLength(6);
    }
  }, 240_000);

  it('runs an arena of server bots for its window: players wait after each game and are seated again, no table after endsAt, points per place with the streak', async () => {
    const made = await t.gql(CREATE, {
      input: { name: 'arena', preset: 'bidding', options: { target: 1 }, format: 'arena', formatOptions: { minutes: 1, arenaStreak: true }, minPlayers: 6, maxPlayers: 6, botLevel: 'random', startsAt: new Date().toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    const done = await until(t, id, 'finished');
    const view = (await t.rest('GET', `/api/v1/tournaments/${id}`)).body;
    expect(view).toMatchObject({ format: 'arena', minutes: 1, arenaStreak: true });
    const endsAt = new Date(view.endsAt).getTime();
    expect(endsAt).toBe(new Date(view.startedAt).getTime() + 60_000);
    expect(new Date(view.finishedAt).getTime()).toBeGreaterThanOrEqual(endsAt);
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as { number: number; startedAt: string; status: string; tables: { players: string[]; status: string }[] }[];
    // Seated again and again: more seatings than one, none after the window, every game over.
    expect(rounds.length).toBeGreaterThan(1);
    for (const r of rounds) {
      expect(new Date(r.startedAt).getTime()).toBeLessThan(endsAt);
      expect(r.status).toBe('finished');
      for (const table of r.tables) expect(table.status).toBe('finished');
    }
    // No player is at two tables at once: a player's seatings never overlap (each round's tables are disjoint).
    for (const r of rounds) expect(new Set(r.tables.flatMap((x) => x.players)).size).toBe(r.tables.length * 3);
    expect(Math.max(...done.standings.map((s: { games: number }) => s.games))).toBeGreaterThan(1);
    const rebuilt = await standingsFromRecords(t, id, 'arena', 3, undefined, true);
    expect(done.standings.map(({ bot: _bot, ...s }: { bot: boolean }) => s)).toEqual(rebuilt);
    expect(await t.app.get(PrismaService).tournamentPlayer.count({ where: { tournamentId: id, waitingSince: { not: null } } })).toBe(0);
    // The seat job run again after the end seats nobody.
    await t.app.get(TournamentsService).arenaSeat(id);
    expect(await t.app.get(PrismaService).tournamentRound.count({ where: { tournamentId: id } })).toBe(rounds.length);
  }, 240_000);

  it('streams a tournament as it changes: the view now, then after each join; strangers of an invite one get 404', async () => {
    const [a, b] = await players(t, 2, 'sse');
    const made = await t.gql(CREATE, { input: { name: 'streamed', preset: 'bidding', options: { target: 1 }, format: 'round-robin', minPlayers: 6 } }, organiser.token);
    const id = made.data!.createTournament.id as string;
    const stream = await openSse(`${t.baseUrl}/api/v1/tournaments/${id}/stream`, { authorization: `Bearer ${a.token}` });
    try {
      expect(stream.status).toBe(200);
      const [first] = await stream.take(1, 20_000);
      expect(first.event).toBe('tournament');
      expect(JSON.parse(first.data!)).toMatchObject({ id, status: 'open', players: [] });
      await stream.ready(20_000);
      expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, b.token)).status).toBe(200);
      const [second] = await stream.take(1, 20_000);
      expect(Number(second.id)).toBeGreaterThan(Number(first.id));
      expect(JSON.parse(second.data!).players.map((p: { playerId: string }) => p.playerId)).toEqual([b.id]);
    } finally {
      stream.close();
    }
    const hidden = await t.gql(CREATE, { input: { name: 'hidden', preset: 'bidding', options: { target: 1 }, format: 'round-robin', visibility: 'invite' } }, organiser.token);
    expect((await t.rest('GET', `/api/v1/tournaments/${hidden.data!.createTournament.id}/stream`, undefined, a.token)).status).toBe(404);
    expect((await t.rest('GET', `/api/v1/tournaments/${id}/stream`)).status).toBe(401);
  }, 60_000);

  it('refuses hostile inputs naming the field', async () => {
    const bad = async (input: Record<string, unknown>) => {
      const answer = await t.rest('POST', '/api/v1/tournaments', { name: 'x', preset: 'bidding', options: { target: 1 }, format: 'swiss', formatOptions: { rounds: 2 }, ...input }, organiser.token);
      expect(answer.status).toBe(400);
      return JSON.stringify(answer.body);
    };
    expect(await bad({ format: 'knockout' })).toContain('format');
    expect(await bad({ formatOptions: {} })).toContain('formatOptions.rounds');
    expect(await bad({ formatOptions: { rounds: 1000 } })).toContain('formatOptions.rounds');
    expect(await bad({ maxPlayers: 2 })).toContain('maxPlayers');
    expect(await bad({ minPlayers: 100, maxPlayers: 10 })).toContain('minPlayers');
    expect(await bad({ botLevel: 'godlike' })).toContain('botLevel');
    expect(await bad({ name: 'n'.repeat(65) })).toContain('name');
    expect(await bad({ preset: 'nope' })).toContain('preset');
    expect(await bad({ startsAt: 'tomorrow' })).toContain('startsAt');
    // Not rolled over to 2 March, as `new Date()` would read it.
    expect(await bad({ startsAt: '2027-02-30T00:00:00Z' })).toContain('startsAt');
    const gqlAnswer = await t.gql(CREATE, { input: { name: 'x', preset: 'bidding', format: 'swiss', formatOptions: { rounds: 2 }, startsAt: '2027-02-30T00:00:00Z' } }, organiser.token);
    expect(JSON.stringify(gqlAnswer.errors)).toContain('startsAt');
    expect(await bad({ format: 'arena', formatOptions: {} })).toContain('formatOptions.minutes');
    expect(await bad({ format: 'arena', formatOptions: { minutes: 10, rounds: 2 } })).toContain('formatOptions.rounds');
    expect(await bad({ formatOptions: { rounds: 2, minutes: 10 } })).toContain('formatOptions.minutes');
    expect(await bad({ format: 'duplicate', formatOptions: {} })).toContain('formatOptions.rounds');
    expect(await bad({ format: 'duplicate', maxPlayers: 5 })).toContain('maxPlayers');
    expect((await t.rest('POST', '/api/v1/tournaments', { name: 'x', preset: 'bidding', options: { target: 1 }, format: 'round-robin' })).status).toBe(401);
    expect((await t.rest('POST', '/api/v1/tournaments/not-a-uuid/join', {}, organiser.token)).status).toBe(400);
  });

  it('joins an invite tournament only with its code, and withdraws before the start', async () => {
    const [a, b] = await players(t, 2, 'inv');
    const made = await t.gql(CREATE, { input: { name: 'friends', preset: 'bidding', options: { target: 1 }, format: 'round-robin', visibility: 'invite', minPlayers: 6 } }, organiser.token);
    const { id, inviteCode } = made.data!.createTournament;
    expect(inviteCode).toMatch(/^[A-Z2-9]{8}$/);
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, a.token)).status).toBe(403);
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, { inviteCode: 'AAAAAAAA' }, a.token)).status).toBe(403);
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, { inviteCode: inviteCode.toLowerCase() }, a.token)).status).toBe(200);
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, { inviteCode }, a.token)).status).toBe(409);
    // An invite tournament is hidden from strangers and from the list.
    expect((await t.rest('GET', `/api/v1/tournaments/${id}`, undefined, b.token)).status).toBe(404);
    expect((await t.rest('GET', `/api/v1/tournaments/${id}`, undefined, a.token)).status).toBe(200);
    const withdrawn = await t.rest('POST', `/api/v1/tournaments/${id}/withdraw`, undefined, a.token);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.players).toEqual([]);
  });

  it('forfeits the remaining games of a player who withdraws during the event', async () => {
    const people = await players(t, 3, 'wd');
    const made = await t.gql(CREATE, { input: { name: 'withdrawal', preset: 'bidding', options: { target: 1 }, format: 'swiss', formatOptions: { rounds: 2 }, minPlayers: 3, maxPlayers: 3 } }, organiser.token);
    const id = made.data!.createTournament.id as string;
    for (const p of people) expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, p.token)).status).toBe(200);
    const running = (await t.gql(GET, { id })).data!.tournament;
    expect(running.status).toBe('running');
    const left = await t.rest('POST', `/api/v1/tournaments/${id}/withdraw`, undefined, people[0].token);
    expect(left.status).toBe(200);
    // Its game is forfeited by the leaver; two players are no table of three: the event ends there.
    const done = await until(t, id, 'finished');
    expect(done.round).toBe(1);
    const leaver = done.standings.find((s: { playerId: string }) => s.playerId === people[0].id);
    expect(leaver.points).toBe(0);
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body;
    const game = await t.app.get(PrismaService).game.findUniqueOrThrow({ where: { id: rounds[0].tables[0].gameId } });
    expect(game.endReason).toBe('forfeit');
  }, 60_000);
});
