import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../../test/wait.js';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import type { TimeControl } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { reminderTimes, defaultReminderPoints } from './reminder-points.js';
import { REMINDER_CLOCK, RemindersService, type ReminderJob } from './reminders.service.js';

// Reminders before a time-out, against the real database and job queue. Turns last hours, so no
// job falls due by itself: the test reads the jobs the queue holds and runs them at a time of its
// choosing (the service's injected clock), as the queue would at their run_at. One short turn
// shows the queue firing one for real.
const base = loadConfig({});
const FAST: Partial<AppConfig> = {
  jobs: { ...base.jobs, worker: true, pollMs: 100, relayDelayMs: 5 },
  clocks: { minMoveSeconds: 1, warningPercent: 0 },
};
const HOURS = (n: number): TimeControl => ({ moveSeconds: n * 3600, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 });

/** The reminders' clock: the wall clock until a test sets it. */
const clock: { at: number | null } = { at: null };

let t: TestApp;
let prisma: PrismaService;
let reminders: RemindersService;
beforeAll(async () => {
  t = await startTestApp(FAST, undefined, [{ provide: REMINDER_CLOCK, useValue: () => clock.at ?? Date.now() }]);
  prisma = t.app.get(PrismaService);
  reminders = t.app.get(RemindersService);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  clock.at = null;
});

interface QueuedReminder {
  key: string;
  runAt: Date;
  payload: ReminderJob;
}

/** The reminder jobs the queue holds for the game, earliest first. */
async function queued(gameId: string): Promise<QueuedReminder[]> {
  const rows = await prisma.$queryRaw<{ key: string; run_at: Date; payload: ReminderJob }[]>`
    SELECT j.key, j.run_at, j.payload FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = 'game.reminder' AND j.key LIKE ${`reminder:${gameId}:%`} ORDER BY j.run_at`;
  return rows.map((r) => ({ key: r.key, runAt: r.run_at, payload: r.payload }));
}

/** The game's turn once its reminder jobs are set (the outbox's turnBegan reached the service). */
async function turnOf(gameId: string, count: number) {
  const jobs = await waitFor(async () => {
    const q = await queued(gameId);
    return q.length === count && q;
  }, `${count} reminder jobs`);
  const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  return { jobs, game, deadline: game.turnDeadline!, seq: game.version, seat: game.toMove! };
}

function reminderEvents(gameId: string) {
  return prisma.playerEvent.findMany({ where: { gameId, type: 'turnReminder' }, orderBy: { id: 'asc' } });
}

async function moveOnce(gameId: string, seated: TestPlayer[]) {
  const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
  const mine = (await t.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
  const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, rng(7)) } }, seated[toMove].token);
  expect(moved.errors).toBeUndefined();
}

const SET = `mutation($input: SetReminderSettingsInput!) { setReminderSettings(input: $input) { push { percent secondsBefore } email { percent secondsBefore } } }`;

describe('reminders before a time-out', () => {
  it('fire by default at 50 % and 10 % of an 8-hour turn left and an hour before, one job each for both channels', async () => {
    const seated = await players(t, 3, 'rmd');
    const gameId = await startGame(t, seated, 'bidding', {}, HOURS(8));
    const { jobs, deadline, seq, seat } = await turnOf(gameId, 3);
    expect(jobs.map((j) => (deadline.getTime() - j.runAt.getTime()) / 1000)).toEqual([4 * 3600, 3600, 2880]);
    expect(jobs.map((j) => j.key)).toEqual([14400, 3600, 2880].map((before) => `reminder:${gameId}:${seq}:${before}`));
    for (const j of jobs) {
      expect(j.payload).toMatchObject({ gameId, seq, seat, deadline: deadline.toISOString(), channels: ['push', 'email'] });
    }
  }, 30_000); // the first game of the file warms the app up

  it('are cancelled by the move: the next turn’s replace them, and an old one that runs does nothing', async () => {
    const seated = await players(t, 3, 'rmm');
    const gameId = await startGame(t, seated, 'bidding', {}, HOURS(2));
    // Half of two hours is an hour before: one job for both moments, and one at a tenth left.
    const first = await turnOf(gameId, 2);
    await moveOnce(gameId, seated);
    const next = await waitFor(async () => {
      const q = await queued(gameId);
      return q.length === 2 && q.every((j) => j.payload.seq !== first.seq) && q;
    }, 'the next turn’s reminders only');
    expect(next[0].payload.seq).toBeGreaterThan(first.seq);
    // A job of the turn that ended, run all the same (e.g. taken before the move removed it).
    clock.at = first.jobs[0].runAt.getTime();
    await reminders.fire(first.jobs[0].payload);
    expect(await reminderEvents(gameId)).toHaveLength(0);
  });

  it('fire once per turn however often the job runs, with the payload the feed promises', async () => {
    const seated = await players(t, 3, 'rm1');
    const gameId = await startGame(t, seated, 'bidding', {}, HOURS(2));
    const { jobs, deadline, seq, seat } = await turnOf(gameId, 2);
    const hour = jobs.find((j) => j.payload.before === 3600)!;
    clock.at = hour.runAt.getTime();
    // Two workers at once, then a retry.
    await Promise.all([reminders.fire(hour.payload), reminders.fire(hour.payload)]);
    await reminders.fire(hour.payload);
    const events = await reminderEvents(gameId);
    expect(events).toHaveLength(1);
    expect(events[0].playerId).toBe(seated[seat].id);
    expect(events[0].payload).toEqual({ gameId, seq, seat, deadline: deadline.toISOString(), before: 3600, channels: ['push', 'email'] });
    // Scheduled again for the same turn (the outbox delivers at least once): the fired one stays fired.
    clock.at = hour.runAt.getTime() - 60_000;
    await reminders.schedule([gameId]);
    expect((await queued(gameId)).map((j) => j.payload.before)).not.toContain(3600);
    // Another reminder of the same turn is an event of its own.
    const tenth = jobs.find((j) => j.payload.before === 720)!;
    clock.at = tenth.runAt.getTime();
    await reminders.fire(tenth.payload);
    expect((await reminderEvents(gameId)).map((e) => (e.payload as { before: number }).before)).toEqual([3600, 720]);
  });

  it('wait for a deadline that moved later (vacation) instead of firing, then fire before the new one', async () => {
    const seated = await players(t, 3, 'rmv');
    const gameId = await startGame(t, seated, 'bidding', {}, HOURS(2));
    const { jobs, deadline } = await turnOf(gameId, 2);
    const hour = jobs.find((j) => j.payload.before === 3600)!;
    const later = new Date(deadline.getTime() + 3 * 3600_000);
    await prisma.game.update({ where: { id: gameId }, data: { turnDeadline: later } });
    clock.at = hour.runAt.getTime();
    await reminders.fire(hour.payload);
    expect(await reminderEvents(gameId)).toHaveLength(0);
    const again = (await queued(gameId)).find((j) => j.key === hour.key)!;
    expect(again.runAt.getTime()).toBe(later.getTime() - 3600_000);
    expect(again.payload).toEqual({ ...hour.payload, deadline: later.toISOString() });
    clock.at = again.runAt.getTime();
    await reminders.fire(again.payload);
    const [event] = await reminderEvents(gameId);
    expect(event.payload).toMatchObject({ deadline: later.toISOString(), before: 3600 });
  });

  it('merge the channels’ own moments into one firing that names both', async () => {
    const [a, b, c] = await players(t, 3, 'rmc');
    const set = await t.gql(SET, { input: { push: [{ percent: 50 }, { secondsBefore: 1800 }], email: [{ secondsBefore: 1800 }, { secondsBefore: 1800 }] } }, a.token);
    expect(set.errors).toBeUndefined();
    expect(set.data!.setReminderSettings).toEqual({
      push: [{ percent: 50, secondsBefore: null }, { percent: null, secondsBefore: 1800 }],
      email: [{ percent: null, secondsBefore: 1800 }],
    });
    // Whoever is to move first has the same settings.
    for (const p of [b, c]) expect((await t.gql(SET, { input: { push: [{ percent: 50 }, { secondsBefore: 1800 }], email: [{ secondsBefore: 1800 }] } }, p.token)).errors).toBeUndefined();
    const gameId = await startGame(t, [a, b, c], 'bidding', {}, HOURS(2));
    const { jobs, seat } = await turnOf(gameId, 2);
    expect(jobs.map((j) => [j.payload.before, j.payload.channels])).toEqual([
      [3600, ['push']],
      [1800, ['push', 'email']],
    ]);
    clock.at = jobs[1].runAt.getTime();
    await reminders.fire(jobs[1].payload);
    const [event] = await reminderEvents(gameId);
    expect(event.playerId).toBe([a, b, c][seat].id);
    expect(event.payload).toMatchObject({ before: 1800, channels: ['push', 'email'] });
    // REST shows the same; a channel left out stays as it was; an empty one has no reminders.
    const put = await t.rest('PUT', '/api/v1/me/reminder-settings', { email: [] }, a.token);
    expect(put.status).toBe(200);
    expect(put.body.email).toEqual([]);
    const got = await t.rest('GET', '/api/v1/me/reminder-settings', undefined, a.token);
    expect(got.body).toEqual(put.body);
    expect(got.body.push).toHaveLength(2);
  });

  it('refuse bad settings with BAD_INPUT naming the field, and show the defaults until set', async () => {
    const [p] = await players(t, 1, 'rmb');
    const refused = async (input: unknown) => (await t.gql(SET, { input }, p.token)).errors?.[0].extensions;
    expect(await refused({ push: Array.from({ length: 6 }, (_, i) => ({ percent: i + 1 })) })).toMatchObject({ code: 'BAD_INPUT', field: 'push' });
    expect(await refused({ push: [{ percent: 100 }] })).toMatchObject({ code: 'BAD_INPUT', field: 'push.0.percent' });
    expect(await refused({ email: [{ secondsBefore: 3600 }, { percent: 10, secondsBefore: 60 }] })).toMatchObject({ code: 'BAD_INPUT', field: 'email.1' });
    expect(await refused({ email: [{}] })).toMatchObject({ code: 'BAD_INPUT', field: 'email.0' });
    const rest = await t.rest('PUT', '/api/v1/me/reminder-settings', { push: [{ secondsBefore: 10 }] }, p.token);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'BAD_INPUT', field: 'push.0.secondsBefore' });
    expect((await t.rest('PUT', '/api/v1/me/reminder-settings', { push: [{ hours: 1 }] }, p.token)).status).toBe(400);
    const shown = await t.gql(`{ myReminderSettings { push { percent secondsBefore } email { percent secondsBefore } } }`, {}, p.token);
    const defaults = [{ percent: 50, secondsBefore: null }, { percent: 10, secondsBefore: null }, { percent: null, secondsBefore: 3600 }];
    expect(shown.data!.myReminderSettings).toEqual({ push: defaults, email: defaults });
  });

  it('reach the player’s feed through the job queue when the moment comes', async () => {
    const seated = await players(t, 3, 'rmq');
    const gameId = await startGame(t, seated, 'bidding', {}, { moveSeconds: 4, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 });
    // 50 % of 4 s: 2 s before the deadline (10 % and an hour are under a second or longer than the turn).
    const event = await waitFor(async () => (await reminderEvents(gameId))[0], 'the reminder');
    expect(event.payload).toMatchObject({ gameId, seq: 1, before: 2, channels: ['push', 'email'] });
    expect(reminderTimes(defaultReminderPoints(), new Date(0), new Date(4000), 0).map((r) => r.before)).toEqual([2]);
  });
});
