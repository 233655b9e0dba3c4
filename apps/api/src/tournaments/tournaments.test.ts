import { createHash } from 'node:crypto';
import { parseRecord, replay } from '@mizerka/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { FAST, NO_JOBS, waitFor } from '../bots/bots.test-kit.js';
import { MAKE_MOVE, pickMove, players, rng, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { openSse } from '../inbox/sse.test-kit.js';
import { setGameJobsSql } from '../outbox/job-queue.sql.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { boardComparison, duplicateRounds, gameResult, standings, type GameResult, type RunningFormat } from './formats.js';
import { arenaEndKey, TOURNAMENT_ARENA_END_TASK, TournamentsService } from './tournaments.service.js';

const T_FIELDS = `id status round format tableSize botLevel players { playerId bot withdrawnAt }
  standings { playerId rank points tieBreaks games byes bot }
  boards { number seedHash released seed results { position playerId score matchpoints tops } }`;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { ${T_FIELDS} inviteCode } }`;
const GET = `query($id: ID!) { tournament(id: $id) { ${T_FIELDS} } }`;
const JOIN = 'mutation($id: ID!) { joinTournament(id: $id) { id status } }';

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

  it('runs a Swiss event of people making moves through the API beside server bots, to final standings rebuilt from the records', async () => {
    const people = await players(t, 2, 'sw');
    const made = await t.gql(CREATE, {
      input: { name: 'people swiss', preset: 'bidding', options: { target: 1 }, format: 'swiss', formatOptions: { rounds: 2 }, minPlayers: 6, maxPlayers: 6, botLevel: 'random', startsAt: new Date(Date.now() + 3_600_000).toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    // One joins through GraphQL, the other through REST.
    expect((await t.gql(JOIN, { id }, people[0].token)).errors).toBeUndefined();
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, people[1].token)).status).toBe(200);
    await t.app.get(TournamentsService).startDue(id);
    await Promise.all(people.map((p, i) => playAsPerson(t, p, id, 300 + i)));
    const done = await until(t, id, 'finished');
    expect(done.round).toBe(2);
    expect(done.players.filter((p: { bot: boolean }) => p.bot)).toHaveLength(4);
    expect(done.standings.map((s: { games: number }) => s.games)).toEqual([2, 2, 2, 2, 2, 2]);
    for (const p of people) expect(done.standings.find((s: { playerId: string }) => s.playerId === p.id)).toMatchObject({ bot: false, games: 2 });
    // Each person sat at a table of every round (six players: two tables, no byes), and finished both games by moves, not by a forfeit.
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as { byes: string[]; tables: { gameId: string; players: string[] }[] }[];
    expect(rounds).toHaveLength(2);
    for (const r of rounds) {
      expect(r.byes).toEqual([]);
      for (const p of people) expect(r.tables.filter((x) => x.players.includes(p.id))).toHaveLength(1);
    }
    const games = await t.app.get(PrismaService).game.findMany({ where: { id: { in: rounds.flatMap((r) => r.tables.map((x) => x.gameId)) } }, select: { status: true, endSeat: true } });
    expect(games.map((g) => [g.status, g.endSeat])).toEqual(games.map(() => ['finished', null]));
    const rebuilt = await standingsFromRecords(t, id, 'swiss', 3);
    expect(done.standings.map(({ bot: _bot, ...s }: { bot: boolean }) => s)).toEqual(rebuilt);
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

  // Nine players at three tables; withdrawals during board 1 leave board 2's schedule with no table
  // (one from each of its tables gone) or one (two gone): a board is compared across tables, so it
  // is not played, and the event still ends.
  it.each([
    { gone: 3, left: 6 },
    { gone: 2, left: 7 },
  ])('closes a duplicate board that withdrawals left with fewer than two tables ($gone withdrawn): not played, released, the event finished', async ({ gone, left }) => {
    const people = await players(t, 9, `dw${gone}`);
    const made = await t.gql(CREATE, {
      input: { name: 'broken duplicate', preset: 'bidding', options: { target: 1 }, format: 'duplicate', formatOptions: { rounds: 2 }, minPlayers: 9, maxPlayers: 9, startsAt: new Date(Date.now() + 3_600_000).toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    for (const p of people) expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, p.token)).status).toBe(200);
    await t.app.get(TournamentsService).startDue(id);
    // Board 2's tables as the schedule of the starting field (in joining order) has them.
    const entered = (await t.rest('GET', `/api/v1/tournaments/${id}`)).body.players as { playerId: string; joinedAt: string }[];
    const order = entered.slice().sort((a, b) => new Date(a.joinedAt).getTime() - new Date(b.joinedAt).getTime() || (a.playerId < b.playerId ? -1 : 1)).map((p) => p.playerId);
    const board2 = duplicateRounds(order, 3, 2)[1].tables;
    expect(board2).toHaveLength(3);
    // One player of each of `gone` tables of board 2 withdraws during board 1 (their board-1 game forfeited).
    const leavers = board2.slice(0, gone).map((table) => people.find((p) => p.id === table[0])!);
    for (const p of leavers) expect((await t.rest('POST', `/api/v1/tournaments/${id}/withdraw`, undefined, p.token)).status).toBe(200);
    const stay = people.filter((p) => !leavers.includes(p));
    // A board-1 table no withdrawal ended is ended by a resignation (how it ends is not the point here).
    const first = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body[0].tables as { gameId: string; players: string[]; status: string }[];
    for (const table of first.filter((x) => x.status === 'active')) {
      const resigner = stay.find((p) => table.players.includes(p.id))!;
      const answer = await t.rest('POST', `/api/v1/games/${table.gameId}/resign`, {}, resigner.token);
      expect([200, 409]).toContain(answer.status);
    }
    const done = await until(t, id, 'finished');
    expect(done.round).toBe(2);
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as { number: number; status: string; byes: string[]; tables: unknown[] }[];
    expect(rounds.map((r) => [r.number, r.status, r.tables.length])).toEqual([[1, 'finished', 3], [2, 'finished', 0]]);
    // Board 2: nobody played it; everyone still entered sat it out; it is released, with nothing to compare.
    expect(rounds[1].byes.slice().sort()).toEqual(stay.map((p) => p.id).sort());
    expect(rounds[1].byes).toHaveLength(left);
    expect(done.boards[1]).toMatchObject({ number: 2, released: true, results: [] });
    expect(createHash('sha256').update(done.boards[1].seed).digest('hex')).toBe(done.boards[1].seedHash);
    expect(done.boards[0]).toMatchObject({ number: 1, released: true });
    expect(done.boards[0].results).toHaveLength(9);
    // Board 1's results only, the withdrawn players' forfeits below the others of their position.
    expect(done.standings.map((s: { games: number }) => s.games)).toEqual(Array(9).fill(1));
    const rebuilt = await standingsFromRecords(t, id, 'duplicate', 3);
    expect(done.standings.map(({ bot: _bot, ...s }: { bot: boolean }) => s)).toEqual(rebuilt);
    const feed = await t.app.get(PrismaService).playerEvent.findMany({ where: { playerId: stay[0].id, type: 'tournamentUpdated' } });
    expect(feed.map((e) => (e.payload as { change: string; round: number }).change)).toEqual(expect.arrayContaining(['roundStarted', 'roundFinished', 'finished']));
  }, 120_000);

  it('runs an arena of people and server bots for its window: players wait after each game and are seated again, no table after endsAt, points per place with the streak', async () => {
    const people = await players(t, 2, 'ar');
    const made = await t.gql(CREATE, {
      input: { name: 'arena', preset: 'bidding', options: { target: 1 }, format: 'arena', formatOptions: { minutes: 1, arenaStreak: true }, minPlayers: 6, maxPlayers: 6, botLevel: 'random', startsAt: new Date(Date.now() + 3_600_000).toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    expect((await t.gql(JOIN, { id }, people[0].token)).errors).toBeUndefined();
    expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, people[1].token)).status).toBe(200);
    await t.app.get(TournamentsService).startDue(id);
    const playing = Promise.all(people.map((p, i) => playAsPerson(t, p, id, 200 + i)));
    // Every person finishes a game and is seated again (as the bots are, faster).
    type ArenaRound = { number: number; startedAt: string; status: string; tables: { gameId: string; players: string[]; status: string }[] };
    const seatings = (rounds: ArenaRound[], playerId: string) => rounds.filter((r) => r.tables.some((x) => x.players.includes(playerId))).length;
    await waitFor(async () => {
      const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as ArenaRound[];
      return people.every((p) => seatings(rounds, p.id) >= 2);
    }, 'the people seated again', 90_000);
    // The window's end without waiting out its minute: the clock is moved instead (the tournament
    // started a minute ago, so endsAt is now) and the end job, due at endsAt, falls due now.
    const prisma = t.app.get(PrismaService);
    await prisma.$executeRaw`UPDATE tournaments SET started_at = now() - interval '1 minute' WHERE id = ${id}::uuid`;
    await prisma.$executeRaw(setGameJobsSql([{ task: TOURNAMENT_ARENA_END_TASK, key: arenaEndKey(id), payload: { tournamentId: id }, runAt: new Date() }]));
    // The people play out the games they sit at; the arena finishes once the last game is counted.
    await playing;
    const done = await until(t, id, 'finished');
    const view = (await t.rest('GET', `/api/v1/tournaments/${id}`)).body;
    expect(view).toMatchObject({ format: 'arena', minutes: 1, arenaStreak: true });
    const endsAt = new Date(view.endsAt).getTime();
    expect(endsAt).toBe(new Date(view.startedAt).getTime() + 60_000);
    expect(new Date(view.finishedAt).getTime()).toBeGreaterThanOrEqual(endsAt);
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as ArenaRound[];
    // Seated again and again: more seatings than one, none after the window, every game over.
    expect(rounds.length).toBeGreaterThanOrEqual(2);
    for (const r of rounds) {
      expect(new Date(r.startedAt).getTime()).toBeLessThan(endsAt);
      expect(r.status).toBe('finished');
      for (const table of r.tables) expect(table.status).toBe('finished');
    }
    // No player is at two tables at once: a player's seatings never overlap (each round's tables are disjoint).
    for (const r of rounds) expect(new Set(r.tables.flatMap((x) => x.players)).size).toBe(r.tables.length * 3);
    // The people are ranked beside the bots, with every game they played.
    for (const p of people) {
      const line = done.standings.find((s: { playerId: string }) => s.playerId === p.id);
      expect(line).toMatchObject({ bot: false, games: seatings(rounds, p.id) });
      expect(line.games).toBeGreaterThanOrEqual(2);
    }
    expect(done.standings.filter((s: { bot: boolean }) => s.bot)).toHaveLength(4);
    const rebuilt = await standingsFromRecords(t, id, 'arena', 3, undefined, true);
    expect(done.standings.map(({ bot: _bot, ...s }: { bot: boolean }) => s)).toEqual(rebuilt);
    expect(await prisma.tournamentPlayer.count({ where: { tournamentId: id, waitingSince: { not: null } } })).toBe(0);
    // The seat job run again after the end seats nobody.
    await t.app.get(TournamentsService).arenaSeat(id);
    expect(await prisma.tournamentRound.count({ where: { tournamentId: id } })).toBe(rounds.length);
  }, 180_000);

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

// The arena's seating with the job worker off: the test counts the games and runs the seat job
// itself, so that every player of three tables starts waiting at the same moment.
describe('arena seating after a round', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(NO_JOBS);
  }, 60_000);
  afterAll(async () => t?.close());

  it('does not seat two players of one last table together again while others are waiting', async () => {
    const [organiser, ...people] = await players(t, 10, 'am');
    const made = await t.gql(CREATE, {
      input: { name: 'arena rematch', preset: 'bidding', options: { target: 1 }, format: 'arena', formatOptions: { minutes: 60 }, minPlayers: 9, maxPlayers: 9, startsAt: new Date(Date.now() + 3_600_000).toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id = made.data!.createTournament.id as string;
    for (const p of people) expect((await t.rest('POST', `/api/v1/tournaments/${id}/join`, {}, p.token)).status).toBe(200);
    const service = t.app.get(TournamentsService);
    await service.startDue(id);
    // Everyone waits with no points: three tables of equals sit down at once.
    await service.arenaSeat(id);
    type Round = { number: number; tables: { gameId: string; players: string[] }[] };
    const first = ((await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as Round[])[0];
    expect(first.tables).toHaveLength(3);
    // One player of each table resigns (last, 0 points; the other two share 1.5 each). Who: chosen
    // so that seating by score and id alone would put two of one table together again (the three
    // lowest ids among those on 1.5 not from three tables), when there is such a choice.
    const choices = [0, 1, 2].flatMap((a) => [0, 1, 2].flatMap((b) => [0, 1, 2].map((c) => [a, b, c])));
    const rematchByIds = (losers: number[]) => {
      const onPoints = first.tables.flatMap((x, i) => x.players.filter((_, seat) => seat !== losers[i]).map((p) => ({ p, table: i })));
      onPoints.sort((x, y) => (x.p < y.p ? -1 : 1));
      return new Set(onPoints.slice(0, 3).map((x) => x.table)).size < 3;
    };
    const losers = choices.find(rematchByIds) ?? choices[0];
    for (const [i, x] of first.tables.entries()) {
      const loser = people.find((p) => p.id === x.players[losers[i]])!;
      expect((await t.rest('POST', `/api/v1/games/${x.gameId}/resign`, {}, loser.token)).status).toBe(200);
    }
    // The three ends counted together (as one delivery of the outbox would): all nine wait from one moment.
    expect(await service.countGames(first.tables.map((x) => x.gameId))).toBe(3);
    await service.arenaSeat(id);
    const rounds = (await t.rest('GET', `/api/v1/tournaments/${id}/rounds`)).body as Round[];
    expect(rounds).toHaveLength(2);
    const second = rounds[1];
    expect(second.tables).toHaveLength(3);
    // Each new table holds one player of each last table: nobody sits with a last table-mate.
    for (const table of second.tables) {
      for (const last of first.tables) expect(table.players.filter((p) => last.players.includes(p)), `${JSON.stringify(table.players)} against ${JSON.stringify(last.players)}`).toHaveLength(1);
    }
    // The losers (0 points) sat together, as equals, and so did the others (1.5 each).
    const losersIds = first.tables.map((x, i) => x.players[losers[i]]).sort();
    expect(second.tables.some((x) => [...x.players].sort().join() === losersIds.join())).toBe(true);
  }, 60_000);
});
