import { replay, type GameRecord } from '@mizerka/rules';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../common/errors.js';
import { startTestApp, startTestAppsPerTest, type TestApp } from '../../../../test/app.js';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import { GameStore, type TimeControl } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { MovesService } from '../moves/moves.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { ClocksService } from './clocks.service.js';
import { withClient } from '../../../../test/database.js';
import { waitFor } from '../../../../test/wait.js';

// Move clocks with second-long turns: the server acts for an absent seat, exactly once, through
// the same move path as a person, also when it was down at the deadline or runs twice.
const base = loadConfig({});
const FAST: Partial<AppConfig> = {
  jobs: { ...base.jobs, worker: true, pollMs: 100, relayDelayMs: 5 },
  clocks: { minMoveSeconds: 1, warningPercent: 50 },
};

const AUTO: TimeControl = { moveSeconds: 1, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 };

let t: TestApp;
let prisma: PrismaService;
beforeAll(async () => {
  t = await startTestApp(FAST);
  prisma = t.app.get(PrismaService);
});
afterAll(async () => {
  await t?.close();
});

function log(db: PrismaService, gameId: string) {
  return db.gameEvent.findMany({
    where: { gameId },
    orderBy: { seq: 'asc' },
    select: { seq: true, kind: true, seat: true, playerId: true, actor: true, cause: true, deadline: true, createdAt: true },
  });
}

async function moveOnce(app: TestApp, gameId: string, seated: TestPlayer[], random: (n: number) => number) {
  const toMove = (await app.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
  const mine = (await app.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
  const moved = await app.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, random) } }, seated[toMove].token);
  expect(moved.errors).toBeUndefined();
  return moved.data!.makeMove as { version: number };
}

describe('move clocks', () => {
  it('time out an absent seat with a legal move of the system, the seat’s player kept, the deadline exact', async () => {
    const seated = await players(t, 3, 'clk');
    const gameId = await startGame(t, seated, 'bidding', {}, AUTO);
    const entries = await waitFor(async () => {
      const l = await log(prisma, gameId);
      return l.some((e) => e.cause === 'timeout') && l;
    }, 'a time-out move');
    const [dealt, timedOut] = entries;
    expect(dealt.deadline!.getTime() - dealt.createdAt.getTime()).toBe(1000);
    expect(timedOut).toMatchObject({ seq: 2, actor: 'system', cause: 'timeout' });
    expect(timedOut.playerId).toBe(seated[timedOut.seat!].id);
    // It came after the deadline, and soon after it.
    expect(timedOut.createdAt.getTime()).toBeGreaterThanOrEqual(dealt.deadline!.getTime());
    expect(timedOut.createdAt.getTime() - dealt.deadline!.getTime()).toBeLessThan(2000);
    const feed = await prisma.playerEvent.findMany({ where: { gameId, type: 'timedOut' } });
    expect(feed.map((e) => e.playerId).sort()).toEqual(seated.map((p) => p.id).sort());
    expect(feed[0].payload).toMatchObject({ seat: timedOut.seat, action: 'autoMove', consecutive: 1 });
  });

  it('forfeit the game at a time-out under the forfeit policy: the absent seat places last', async () => {
    const seated = await players(t, 3, 'clf');
    const gameId = await startGame(t, seated, 'bidding', {}, { ...AUTO, onTimeout: 'forfeit' });
    const game = await waitFor(
      () => prisma.game.findFirst({ where: { id: gameId, status: 'finished' }, include: { seats: { orderBy: { seat: 'asc' } } } }),
      'the forfeit',
    );
    expect(game.endReason).toBe('forfeit');
    expect(game.turnDeadline).toBeNull();
    const absent = game.endSeat!;
    const places = game.seats.map((s) => s.place!);
    expect(places[absent]).toBe(3);
    expect(places.filter((p, seat) => seat !== absent).every((p) => p === 1)).toBe(true); // all on 0: tied first
    const [last] = (await log(prisma, gameId)).slice(-1);
    expect(last).toMatchObject({ kind: 'end', actor: 'system', cause: 'forfeit', seat: absent, playerId: seated[absent].id });
    const record = await t.rest('GET', `/api/v1/games/${gameId}/record`);
    expect(record.body.end).toEqual({ seat: absent, reason: 'forfeit' });
    // A forfeited game still replays and verifies, to the same standings.
    const { players: _names, ...rules } = record.body as GameRecord & { players: string[] };
    const replayed = replay(rules as GameRecord);
    if (!replayed.ok) throw new Error(JSON.stringify(replayed.error));
    expect(replayed.value.outcome).toMatchObject({ finished: true, end: { seat: absent, reason: 'forfeit' } });
    const sheet = await t.gql(`query($id: ID!) { scoreSheet(gameId: $id) { end { seat reason } standings { seat place } } }`, { id: gameId });
    expect(sheet.data!.scoreSheet.end).toEqual({ seat: absent, reason: 'forfeit' });
    expect(sheet.data!.scoreSheet.standings.map((s: { place: number }) => s.place)).toEqual(places);
    const finished = await prisma.playerEvent.findMany({ where: { gameId, type: 'gameFinished' } });
    expect(finished).toHaveLength(3);
    // No clock is left behind for a finished game.
    await waitFor(async () => (await clockJobs(gameId)) === 0, 'the clock jobs to go');
  });

  it('forfeit after maxTimeouts time-outs in a row of one seat', async () => {
    const seated = await players(t, 3, 'clr');
    const gameId = await startGame(t, seated, 'bidding', {}, { ...AUTO, maxTimeouts: 2 });
    const game = await waitFor(() => prisma.game.findFirst({ where: { id: gameId, status: 'finished' } }), 'the forfeit', { timeout: 20_000 });
    const entries = await log(prisma, gameId);
    const timeouts = entries.filter((e) => e.cause === 'timeout');
    const forfeit = entries[entries.length - 1];
    expect(forfeit.cause).toBe('forfeit');
    // Nobody moves: each seat times out once, and the first seat due again forfeits (its second in a row).
    expect(new Set(timeouts.map((e) => e.seat)).size).toBe(timeouts.length);
    expect(timeouts.map((e) => e.seat)).toContain(forfeit.seat);
    expect(game.endSeat).toBe(forfeit.seat);
  }, 30_000);

  it('draw a slow move’s overrun from the bank, and give the rest to the next deadline', async () => {
    const seated = await players(t, 3, 'clb');
    const gameId = await startGame(t, seated, 'bidding', {}, { moveSeconds: 1, bankSeconds: 3, onTimeout: 'autoMove', maxTimeouts: 3 });
    const [dealt] = await log(prisma, gameId);
    expect(dealt.deadline!.getTime() - dealt.createdAt.getTime()).toBe(4000); // the turn and the whole bank
    // The move comes 1.6 s into the turn (the database's clock, as the server's): 0.6 s from the bank.
    await waitFor(() => passedSince(prisma, dealt.createdAt, 1600), 'the turn and 0.6 s of the bank to pass');
    await moveOnce(t, gameId, seated, rng(1));
    const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    const [, moved] = await log(prisma, gameId);
    const used = moved.createdAt.getTime() - dealt.createdAt.getTime() - 1000;
    const mover = moved.seat!;
    expect(game.bankMs[mover]).toBe(3000 - used);
    expect(game.timeouts[mover]).toBe(0);
    const view = await t.gql(`query($id: ID!) { game(id: $id) { clock { deadline bankSeconds timeouts timeControl { moveSeconds bankSeconds onTimeout maxTimeouts } } } }`, { id: gameId });
    expect(view.data!.game.clock.bankSeconds[mover]).toBe((3000 - used) / 1000);
    expect(view.data!.game.clock.timeControl).toEqual({ moveSeconds: 1, bankSeconds: 3, onTimeout: 'autoMove', maxTimeouts: 3 });
    expect(new Date(view.data!.game.clock.deadline).getTime()).toBe(moved.deadline!.getTime());
  });

  it('forfeit the seat when the rules refuse its time-out move, so the game never stalls', async () => {
    const seated = await players(t, 3, 'cli');
    const gameId = await startGame(t, seated, 'bidding', {}, { ...AUTO, moveSeconds: 3600 });
    await prisma.game.update({ where: { id: gameId }, data: { turnDeadline: new Date(Date.now() - 1000) } });
    const moves = t.app.get(MovesService);
    const spy = vi.spyOn(moves, 'moveFor').mockRejectedValueOnce(new DomainError('ILLEGAL_MOVE', 'refused for the test'));
    try {
      await t.app.get(ClocksService).timeUp(gameId);
    } finally {
      spy.mockRestore();
    }
    const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    expect(game).toMatchObject({ status: 'finished', endReason: 'forfeit' });
  });

  it('warn the player to move when their deadline is near', async () => {
    const seated = await players(t, 3, 'clw');
    const gameId = await startGame(t, seated, 'bidding', {}, { ...AUTO, moveSeconds: 2 });
    const toMove = (await prisma.game.findUniqueOrThrow({ where: { id: gameId } })).toMove!;
    const warned = await waitFor(() => prisma.playerEvent.findFirst({ where: { gameId, type: 'deadlineNear' } }), 'the warning');
    expect(warned.playerId).toBe(seated[toMove].id);
    expect(warned.seq).toBe(1);
    const [dealt] = await log(prisma, gameId);
    expect(warned.payload).toEqual({ gameId, seq: 1, seat: toMove, deadline: dealt.deadline!.toISOString() });
    // Half the turn left: about a second before the deadline.
    expect(dealt.deadline!.getTime() - warned.createdAt.getTime()).toBeGreaterThan(300);
  });

  it('let a person’s move that commits first win over the clock, which then does nothing', async () => {
    const seated = await players(t, 3, 'clp');
    const gameId = await startGame(t, seated, 'bidding', {}, { ...AUTO, moveSeconds: 3600 });
    const store = t.app.get(GameStore);
    const game = (await store.read(gameId, null, null))!;
    const seat = game.state ? (await prisma.game.findUniqueOrThrow({ where: { id: gameId } })).toMove! : 0;
    const mine = (await t.gql(TURN_QUERY, { id: gameId }, seated[seat].token)).data!.game;
    const move = pickMove(mine.view.legalMoves, rng(3));
    const [person, system] = await Promise.allSettled([
      t.gql(MAKE_MOVE, { input: { gameId, expectedVersion: 1, ...move } }, seated[seat].token),
      t.app.get(MovesService).moveFor(gameId, seat, move as never, 1),
    ]);
    const personWon = person.status === 'fulfilled' && person.value.errors === undefined;
    const systemWon = system.status === 'fulfilled';
    expect(personWon !== systemWon).toBe(true);
    const second = await log(prisma, gameId);
    expect(second.filter((e) => e.seq === 2)).toHaveLength(1);
    // A clock job for the turn that is over acts no more.
    await prisma.$executeRaw`UPDATE games SET turn_deadline = now() - interval '1 second' WHERE id = ${gameId}::uuid AND false`;
    await t.app.get(ClocksService).timeUp(gameId); // the deadline is an hour away: it only reschedules
    expect(await log(prisma, gameId)).toHaveLength(2);
  });
});

describe('move clocks across restarts and instances', () => {
  const start = startTestAppsPerTest();

  it('fire a deadline that fell due while no server ran as soon as one starts', async () => {
    const a = await start({ ...FAST });
    const seated = await players(a, 3, 'cld');
    const gameId = await startGame(a, seated, 'bidding', {}, { ...AUTO, moveSeconds: 2 });
    await waitFor(async () => (await clockJobs(gameId, a)) === 1, 'the clock job');
    const deadline = (await log(a.app.get(PrismaService), gameId))[0].deadline!;
    await a.close();
    const db = a.databaseUrl;
    await waitFor(() => withClient(db, async (client) => (await client.query('SELECT now() > $1 AS due', [deadline])).rows[0].due), 'the deadline to pass while down');
    const b = await start({ ...FAST }, db);
    // Counted from when the server is up: a slow start on a loaded machine is not the clock's delay.
    const up = Date.now();
    const entries = await waitFor(async () => {
      const l = await log(b.app.get(PrismaService), gameId);
      return l.some((e) => e.cause === 'timeout') && l;
    }, 'the late time-out');
    const timedOut = entries.find((e) => e.cause === 'timeout')!;
    expect(timedOut.createdAt.getTime() - up).toBeLessThan(3000);
  }, 30_000);

  it('make one time-out move per turn with two instances working the same clocks', async () => {
    const a = await start({ ...FAST });
    const b = await start({ ...FAST }, a.databaseUrl);
    const seated = await players(a, 3, 'cl2');
    const gameId = await startGame(a, seated, 'bidding', {}, AUTO);
    const db = a.app.get(PrismaService);
    const entries = await waitFor(async () => {
      const l = await log(db, gameId);
      return l.filter((e) => e.cause === 'timeout').length >= 3 && l;
    }, 'three time-outs', { timeout: 20_000 });
    // Seqs are unique by key; what matters is that each turn timed out once, in order, one a second.
    const timeouts = entries.filter((e) => e.cause === 'timeout');
    for (let i = 1; i < timeouts.length; i++) {
      expect(timeouts[i].createdAt.getTime() - timeouts[i - 1].createdAt.getTime()).toBeGreaterThanOrEqual(1000);
    }
    const failed = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE last_error IS NOT NULL`;
    expect(failed[0].n).toBe(0);
    void b;
  }, 30_000);
});

describe('a lobby’s time control', () => {
  const CREATE = `mutation($input: CreateLobbyInput!) { createLobby(input: $input) { id timeControl { moveSeconds bankSeconds onTimeout maxTimeouts } } }`;

  it('is checked, shown in listings, given to its game and kept by play again', async () => {
    const [host, b, c] = await players(t, 3, 'clt');
    const tooShort = await t.gql(CREATE, { input: { preset: 'bidding', timeControl: { moveSeconds: 0 } } }, host.token);
    expect(tooShort.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'timeControl.moveSeconds' });
    const tooLong = await t.rest('POST', '/api/v1/lobbies', { preset: 'bidding', timeControl: { moveSeconds: 15 * 86400 } }, host.token);
    expect(tooLong.status).toBe(400);
    const created = await t.gql(CREATE, { input: { preset: 'bidding', timeControl: { moveSeconds: 86400, bankSeconds: 3600, onTimeout: 'forfeit' } } }, host.token);
    expect(created.errors).toBeUndefined();
    const lobby = created.data!.createLobby;
    expect(lobby.timeControl).toEqual({ moveSeconds: 86400, bankSeconds: 3600, onTimeout: 'forfeit', maxTimeouts: 3 });
    const listed = await t.rest('GET', '/api/v1/lobbies?preset=bidding&first=100');
    expect(listed.body.lobbies.find((l: { id: string }) => l.id === lobby.id).timeControl.moveSeconds).toBe(86400);
    // Players choose by tempo.
    const ids = async (query: string) =>
      ((await t.rest('GET', `/api/v1/lobbies?preset=bidding&first=100&${query}`)).body.lobbies as { id: string }[]).map((l) => l.id);
    expect(await ids('timed=true')).toContain(lobby.id);
    expect(await ids('timed=false')).not.toContain(lobby.id);
    expect(await ids('maxMoveSeconds=86400')).toContain(lobby.id);
    expect(await ids('maxMoveSeconds=3600')).not.toContain(lobby.id);
    const gqlList = await t.gql(`{ lobbies(preset: "bidding", timed: true, first: 100) { lobbies { id } } }`);
    expect(gqlList.data!.lobbies.lobbies.map((l: { id: string }) => l.id)).toContain(lobby.id);
    expect((await t.rest('GET', '/api/v1/lobbies?maxMoveSeconds=soon')).status).toBe(400);
    await t.rest('POST', `/api/v1/lobbies/${lobby.id}/join`, {}, b.token);
    const joined = await t.rest('POST', `/api/v1/lobbies/${lobby.id}/join`, {}, c.token);
    const gameId = joined.body.gameId as string;
    const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    expect(game.timeControl).toEqual({ moveSeconds: 86400, bankSeconds: 3600, onTimeout: 'forfeit', maxTimeouts: 3 });
    expect(game.turnDeadline!.getTime() - game.turnStartedAt!.getTime()).toBe((86400 + 3600) * 1000);
    await prisma.game.update({ where: { id: gameId }, data: { status: 'finished' } });
    const again = await t.gql(`mutation($id: ID!) { playAgain(gameId: $id) { timeControl { moveSeconds onTimeout } gameId } }`, { id: gameId }, host.token);
    expect(again.data!.playAgain.timeControl).toEqual({ moveSeconds: 86400, onTimeout: 'forfeit' });
  });
});

/** Whether `ms` have passed since `at` by the database's clock. */
async function passedSince(db: PrismaService, at: Date, ms: number): Promise<boolean> {
  const [{ passed }] = await db.$queryRaw<{ passed: boolean }[]>`SELECT now() >= ${at}::timestamptz + ${ms} * interval '1 millisecond' AS passed`;
  return passed;
}

async function clockJobs(gameId: string, app: TestApp = t): Promise<number> {
  const rows = await app.app.get(PrismaService).$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE key IN (${'clock:' + gameId}, ${'warn:' + gameId})`;
  return rows[0].n;
}
