import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../../test/wait.js';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import type { TimeControl } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { daysCounted } from './vacation-days.js';
import { VACATION_CLOCK } from './vacations.service.js';

// Vacations against the real database, with the vacation's clock injected: frozen at a chosen
// time, or the wall clock (null). The move path keeps the wall clock, as in production.
const base = loadConfig({});
const FAST: Partial<AppConfig> = {
  jobs: { ...base.jobs, worker: true, pollMs: 100, relayDelayMs: 5 },
  clocks: { minMoveSeconds: 1, warningPercent: 0 },
};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LONG: TimeControl = { moveSeconds: 3600, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 };

let frozen: Date | null = null;
let t: TestApp;
let prisma: PrismaService;
beforeAll(async () => {
  t = await startTestApp(FAST, undefined, [{ provide: VACATION_CLOCK, useValue: () => frozen ?? new Date() }]);
  prisma = t.app.get(PrismaService);
});
afterAll(async () => {
  await t?.close();
});

const STATUS = 'away startedAt until endedAt allowanceDays daysLeft year keptRunning { gameId preset deadline }';
const START = `mutation($until: DateTime) { startVacation(input: { until: $until }) { ${STATUS} } }`;
const END = `mutation { endVacation { ${STATUS} } }`;
const PREVIEW = `query($until: DateTime) { vacationPreview(until: $until) { ${STATUS} allowed days stopped { gameId deadline } } }`;
const LOG = `query($id: ID!) { gameEvents(gameId: $id) { entries { seq kind seat actor cause deadline awayUntil } } }`;

const gameRow = (id: string) => prisma.game.findUniqueOrThrow({ where: { id } });
const clockJob = async (gameId: string) =>
  (await prisma.$queryRaw<{ run_at: Date }[]>`SELECT run_at FROM graphile_worker._private_jobs WHERE key = ${'clock:' + gameId}`)[0]?.run_at ?? null;

async function start(p: TestPlayer, until?: Date) {
  const r = await t.gql(START, { until: until?.toISOString() ?? null }, p.token);
  return r;
}

async function moveOnce(gameId: string, seated: TestPlayer[]) {
  const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
  const mine = (await t.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
  const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, rng(7)) } }, seated[toMove].token);
  expect(moved.errors).toBeUndefined();
}

async function seatToMove(gameId: string, seated: TestPlayer[]): Promise<TestPlayer> {
  return seated[(await gameRow(gameId)).toMove!];
}

describe('vacation', () => {
  it('stops the clock of a turn that is theirs, and gives it back on return moved on by the time away', async () => {
    frozen = new Date(Date.now() + 1000);
    const seated = await players(t, 3, 'vca');
    const gameId = await startGame(t, seated, 'bidding', {}, LONG);
    const away = await seatToMove(gameId, seated);
    const before = await gameRow(gameId);
    const deadline = before.turnDeadline!;
    expect(deadline.getTime()).toBeGreaterThan(frozen.getTime());

    const started = await start(away);
    expect(started.errors).toBeUndefined();
    const status = started.data!.startVacation;
    expect(status).toMatchObject({ away: true, startedAt: frozen.toISOString(), allowanceDays: 30, daysLeft: 29, keptRunning: [] });
    // No `until`: as long as the allowance lasts.
    expect(new Date(status.until).getTime()).toBe(frozen.getTime() + 30 * DAY);
    const during = await gameRow(gameId);
    expect(during).toMatchObject({ turnDeadline: null, turnPausedAt: frozen, turnPausedDeadline: deadline, version: before.version + 1 });
    const seen = await t.gql(`query($id: ID!) { game(id: $id) { awayUntil clock { deadline pausedAt } } }`, { id: gameId });
    expect(seen.data!.game.clock).toEqual({ deadline: null, pausedAt: frozen.toISOString() });
    expect(seen.data!.game.awayUntil[during.toMove!]).toBe(status.until);
    const [entry] = (await t.gql(LOG, { id: gameId })).data!.gameEvents.entries.slice(-1);
    expect(entry).toMatchObject({ kind: 'away', seat: during.toMove, actor: 'player', deadline: null, awayUntil: status.until });
    // The clock job, set for the old deadline, acts on nothing: the turn has no deadline now.
    expect((await gameRow(gameId)).status).toBe('active');

    // Two days and an hour away: the turn keeps exactly the time it had.
    const back = new Date(frozen.getTime() + 2 * DAY + HOUR);
    frozen = back;
    const ended = await t.gql(END, {}, away.token);
    expect(ended.data!.endVacation).toMatchObject({ away: false, endedAt: back.toISOString(), daysLeft: 27 });
    const after = await gameRow(gameId);
    expect(after.turnDeadline!.getTime()).toBe(deadline.getTime() + 2 * DAY + HOUR);
    expect(after).toMatchObject({ turnPausedAt: null, turnPausedDeadline: null });
    const [backEntry] = (await t.gql(LOG, { id: gameId })).data!.gameEvents.entries.slice(-1);
    expect(backEntry).toMatchObject({ kind: 'back', actor: 'player', awayUntil: null });
    expect(new Date(backEntry.deadline).getTime()).toBe(after.turnDeadline!.getTime());
    // The clock job is keyed again to the new deadline (through the outbox's turnBegan).
    await waitFor(async () => (await clockJob(gameId))?.getTime() === after.turnDeadline!.getTime(), 'the clock job at the new deadline');
    // Idempotent: ending again answers the same and writes nothing.
    const again = await t.rest('DELETE', '/api/v1/me/vacation', undefined, away.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ away: false, endedAt: back.toISOString(), daysLeft: 27 });
    expect((await gameRow(gameId)).version).toBe(after.version);
  });

  it('gives a turn that begins while away no running deadline, then its full time on return; others’ clocks run', async () => {
    frozen = null;
    const seated = await players(t, 3, 'vcb');
    const gameId = await startGame(t, seated, 'bidding', {}, LONG);
    const first = (await gameRow(gameId)).toMove!;
    // The seat after the one to move in a bidding deal's first round.
    const next = (first + 1) % 3;
    const away = seated[next];
    const before = await gameRow(gameId);
    expect((await start(away)).errors).toBeUndefined();
    const announced = await gameRow(gameId);
    // Another seat's turn: its deadline is untouched.
    expect(announced.turnDeadline!.getTime()).toBe(before.turnDeadline!.getTime());
    expect(announced.turnPausedAt).toBeNull();

    await moveOnce(gameId, seated);
    const paused = await gameRow(gameId);
    expect(paused.toMove).toBe(next);
    expect(paused.turnDeadline).toBeNull();
    expect(paused.turnPausedDeadline!.getTime() - paused.turnPausedAt!.getTime()).toBe(3600 * 1000);
    const feed = await prisma.playerEvent.findFirst({ where: { gameId, type: 'yourTurn', playerId: away.id }, orderBy: { id: 'desc' } });
    expect((feed!.payload as { deadline: string | null }).deadline).toBeNull();

    const back = new Date(Date.now() + 5 * HOUR);
    frozen = back;
    expect((await t.gql(END, {}, away.token)).errors).toBeUndefined();
    const resumed = await gameRow(gameId);
    expect(resumed.turnDeadline!.getTime()).toBe(back.getTime() + 3600 * 1000);
    expect(resumed.turnStartedAt!.getTime()).toBe(back.getTime());
    const told = await prisma.playerEvent.findFirst({ where: { gameId, type: 'yourTurn', playerId: away.id }, orderBy: { id: 'desc' } });
    expect((told!.payload as { deadline: string }).deadline).toBe(resumed.turnDeadline!.toISOString());
  });

  it('leaves the clock of a game that forbids vacation running, and says so before and after', async () => {
    frozen = null;
    const seated = await players(t, 3, 'vcc');
    const open = await startGame(t, seated, 'bidding', {}, LONG);
    const tournament = await startGame(t, seated, 'bidding', {}, LONG);
    await prisma.game.update({ where: { id: tournament }, data: { vacationAllowed: false } });
    const p = await seatToMove(tournament, seated);
    const kept = await gameRow(tournament);

    const preview = (await t.gql(PREVIEW, {}, p.token)).data!.vacationPreview;
    expect(preview).toMatchObject({ away: false, allowed: true, days: 30, daysLeft: 30 });
    expect(preview.keptRunning).toEqual([{ gameId: tournament, preset: 'bidding', deadline: kept.turnDeadline!.toISOString() }]);
    expect(preview.stopped.map((g: { gameId: string }) => g.gameId)).toEqual([open]);
    const tooLong = (await t.gql(PREVIEW, { until: new Date(Date.now() + 31 * DAY).toISOString() }, p.token)).data!.vacationPreview;
    expect(tooLong.allowed).toBe(false);

    const started = await t.rest('POST', '/api/v1/me/vacation', {}, p.token);
    expect(started.status).toBe(200);
    expect(started.body.keptRunning.map((g: { gameId: string }) => g.gameId)).toEqual([tournament]);
    const still = await gameRow(tournament);
    expect(still).toMatchObject({ turnDeadline: kept.turnDeadline, turnPausedAt: null, version: kept.version });
    expect((await t.gql(LOG, { id: tournament })).data!.gameEvents.entries.map((e: { kind: string }) => e.kind)).not.toContain('away');
    expect((await t.gql(LOG, { id: open })).data!.gameEvents.entries.map((e: { kind: string }) => e.kind)).toContain('away');
    expect((await t.rest('GET', '/api/v1/me/vacation', undefined, p.token)).body.away).toBe(true);
    await t.gql(END, {}, p.token);
  });

  it('counts each started day once against the year’s allowance, refuses a start without allowance left, and starts and ends idempotently', async () => {
    const [p] = await players(t, 1, 'vcd');
    // Fake days in a later year: the auto-end jobs (at `until`) stay in the future of the wall clock.
    const day0 = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 2, 1, 9));
    frozen = day0;
    const one = await start(p);
    const twice = await start(p, new Date(day0.getTime() + 3 * DAY));
    expect(twice.data!.startVacation).toEqual(one.data!.startVacation);
    expect(await prisma.vacation.count({ where: { playerId: p.id } })).toBe(1);
    frozen = new Date(day0.getTime() + HOUR);
    const ended = (await t.gql(END, {}, p.token)).data!.endVacation;
    expect(ended.daysLeft).toBe(29); // an hour away: one started day
    expect((await t.gql(END, {}, p.token)).data!.endVacation).toEqual(ended);

    frozen = new Date(day0.getTime() + 10 * DAY);
    const refused = await start(p, new Date(frozen.getTime() + 29 * DAY + 1));
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', daysLeft: 29 });
    const past = await start(p, new Date(frozen.getTime() - 1));
    expect(past.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'until' });
    const long = await start(p, new Date(frozen.getTime() + 29 * DAY));
    expect(long.data!.startVacation).toMatchObject({ away: true, daysLeft: 28 });
    frozen = new Date(frozen.getTime() + 28 * DAY + 1); // the 29th day begun
    expect((await t.gql(END, {}, p.token)).data!.endVacation.daysLeft).toBe(0);
    const none = await start(p);
    expect(none.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', daysLeft: 0 });
    expect((await t.rest('POST', '/api/v1/me/vacation', {}, p.token)).status).toBe(409);
    // A new year, a new allowance.
    frozen = new Date(Date.UTC(day0.getUTCFullYear() + 1, 0, 2));
    expect((await t.gql(`{ myVacation { daysLeft year } }`, {}, p.token)).data!.myVacation).toEqual({ daysLeft: 30, year: day0.getUTCFullYear() + 1 });
  });

  it('ends by itself at `until`, giving back exactly the time away', async () => {
    frozen = null;
    const seated = await players(t, 3, 'vce');
    const gameId = await startGame(t, seated, 'bidding', {}, LONG);
    const away = await seatToMove(gameId, seated);
    const until = new Date(Date.now() + 1500);
    const started = (await start(away, until)).data!.startVacation;
    const paused = await gameRow(gameId);
    expect(paused.turnDeadline).toBeNull();
    const vacation = await waitFor(() => prisma.vacation.findFirst({ where: { playerId: away.id, endedAt: { not: null } } }), 'the vacation to end at until');
    expect(vacation.endedAt!.getTime()).toBe(until.getTime());
    expect(vacation.days).toBe(1);
    const resumed = await waitFor(async () => {
      const g = await gameRow(gameId);
      return g.turnDeadline && g;
    }, 'the clock to run again');
    expect(resumed.turnDeadline!.getTime()).toBe(paused.turnPausedDeadline!.getTime() + until.getTime() - new Date(started.startedAt).getTime());
    const [entry] = (await t.gql(LOG, { id: gameId })).data!.gameEvents.entries.slice(-1);
    expect(entry).toMatchObject({ kind: 'back', actor: 'system', cause: 'vacation-over' });
  });

  it('counts days as begun', () => {
    const at = new Date('2026-06-01T10:00:00Z');
    expect(daysCounted(at, at)).toBe(1);
    expect(daysCounted(at, new Date(at.getTime() + DAY))).toBe(1);
    expect(daysCounted(at, new Date(at.getTime() + DAY + 1))).toBe(2);
  });
});
