import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { routeUntilCaughtUp } from './notifications.test-kit.js';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../../../../test/mail-receiver.js';
import { waitFor } from '../../../../test/wait.js';
import { RemindersService, REMINDER_CLOCK, type ReminderJob } from '../reminders/reminders.service.js';
import { loadConfig } from '../config/app-config.js';
import type { TimeControl } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { openSse, type SseStream } from '../inbox/sse.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { PushChannel } from '../push/push-channel.js';
import { Device, startPushService } from '../push/push.test-kit.js';
import { VACATION_CLOCK } from '../vacations/vacations.service.js';
import { NOTICE_CLOCK } from './clock.js';
import { EmailChannel } from './email-channel.js';
import { NoticeRouter } from './notice-router.js';

// The issue's "done when": one timed game of three, played through the API, where P has a push
// device, E a verified email in digest mode and N nothing. Everything goes to loopback (an SMTP
// receiver, a push service that decrypts as a browser would). No job worker runs: the test does
// what the jobs would, when it chooses, under one fake clock (the notices', the reminders' and the
// vacation's). The move path keeps the wall clock, so the fake clock only runs ahead of it. The
// cases below play one game in order: each starts where the one before left it.

const HOUR = 3_600_000;
const STEP = 6 * 60_000; // past "not while active" (5 minutes by default) between two turns
const TWELVE_HOURS: TimeControl = { moveSeconds: 12 * 3600, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 };
const clock = { t: Date.now() };

let receiver: MailReceiver;
let inbox: ReceivedMail[] = [];
let service: Awaited<ReturnType<typeof startPushService>>;
let t: TestApp;
let prisma: PrismaService;
const streams: SseStream[] = [];

beforeAll(async () => {
  receiver = await startMailReceiver();
  inbox = receiver.inbox;
  service = await startPushService();
  const base = loadConfig({ NODE_ENV: 'test', MAIL_FROM: 'Mizerka <away-tests@example.com>' });
  t = await startTestApp(
    {
      mail: { smtpUrl: receiver.url, from: 'Mizerka <away-tests@example.com>', publicUrl: 'http://play.test' },
      push: { ...base.push, allowHttpLoopback: true, timeoutMs: 2000 },
      // The fake clock runs hours ahead of the database's, which stamps the feed: "old news" is a week here.
      notifications: { ...base.notifications, maxAgeMs: 7 * 24 * HOUR },
      jobs: { ...base.jobs, worker: false },
    },
    undefined,
    [
      { provide: NOTICE_CLOCK, useValue: { now: () => clock.t } },
      { provide: REMINDER_CLOCK, useValue: () => clock.t },
      { provide: VACATION_CLOCK, useValue: () => new Date(clock.t) },
    ],
  );
  prisma = t.app.get(PrismaService);
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await t?.close();
  await service?.close();
  await receiver?.close();
});

let P: TestPlayer;
let E: TestPlayer;
let address: string;
let N: TestPlayer;
let seated: TestPlayer[];
let gameId: string;
let device: Device;
/** Whose turn each routed `yourTurn` was, in order. */
const turns: string[] = [];

const queuedJobs = (task: string, like: string) =>
  prisma.$queryRaw<{ id: bigint; run_at: Date; payload: unknown }[]>`
    SELECT j.id, j.run_at, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id
     WHERE k.identifier = ${task} AND j.key LIKE ${like} ORDER BY j.run_at, j.id`;

/** What the jobs would do now for the player: route their feed, hand out what is due, mail it, push it. */
async function work(playerId: string): Promise<void> {
  const router = t.app.get(NoticeRouter);
  await routeUntilCaughtUp(router, prisma, playerId);
  await router.sendDue(playerId);
  await t.app.get(EmailChannel).send(playerId);
  for (const job of await queuedJobs('push.send', 'push:%')) {
    await t.app.get(PushChannel).send(job.payload);
    await prisma.$executeRaw`SELECT graphile_worker.complete_jobs(ARRAY[${job.id}]::bigint[])`;
  }
}

const game = () => prisma.game.findUniqueOrThrow({ where: { id: gameId } });
const toMove = async () => seated[(await game()).toMove!]!;

/** The seat to move plays (a request: they are here at the fake clock's now), then everyone is routed a while later. */
async function moveAndRoute(): Promise<void> {
  await move();
  clock.t += STEP;
  await routeTurn();
}

async function move(): Promise<void> {
  const mover = await toMove();
  const mine = (await t.gql(TURN_QUERY, { id: gameId }, mover.token)).data!.game;
  const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, rng(27)) } }, mover.token);
  expect(moved.errors).toBeUndefined();
}

async function routeTurn(): Promise<void> {
  turns.push((await toMove()).id);
  for (const p of seated) await work(p.id);
}

const pushed = () => service.requests.map((r) => ({ path: r.path, message: device.open(r.body) as { kind: string; title: string; body: string; url: string; gameId: string } }));
const sends = async (playerId: string) =>
  (await prisma.noticeSend.findMany({ where: { playerId }, orderBy: { id: 'asc' } })).map((n) => `${n.channel}:${n.status}${n.reason ? `:${n.reason}` : ''}`);

describe('a game of three players who are away: push, an email digest, nothing', () => {
  it('tells each of their turn as they chose: P a push, E one digest, N nothing; nothing to a player who is here', async () => {
    [P, E, N] = await players(t, 3, 'away');
    address = `${E.name.toLowerCase()}@example.com`;
    await prisma.$executeRaw`INSERT INTO player_accounts (player_id, email, email_verified_at, verified_email_key) VALUES (${E.id}::uuid, ${address}, now(), ${address})`;
    device = new Device(`${service.origin}/send/${P.id}`);
    const added = await t.gql(`mutation($input: AddPushSubscriptionInput!) { addPushSubscription(input: $input) { id } }`, { input: { endpoint: device.endpoint, keys: device.keys } }, P.token);
    expect(added.errors).toBeUndefined();
    const digest = await t.gql('mutation { setNotificationSettings(input: { emailMode: digest, digestMinutes: 240 }) { emailMode } }', {}, E.token);
    expect(digest.data?.setNotificationSettings).toEqual({ emailMode: 'digest' });

    seated = [P, E, N];
    gameId = await startGame(t, seated, 'bidding', {}, TWELVE_HOURS);
    clock.t += STEP; // the requests above made them "here": a while later they are away
    await routeTurn();

    // Moves until each has had turns, E two; on one of P's turns P is here (a request just before it comes).
    const turnsOf = (p: TestPlayer) => turns.filter((id) => id === p.id).length;
    let here = false;
    for (let moves = 0; moves < 30 && !(here && turnsOf(P) >= 2 && turnsOf(E) >= 2 && turnsOf(N) >= 1); moves++) {
      await move();
      clock.t += STEP;
      if (!here && (await toMove()).id === P.id) {
        const lookedAt = clock.t;
        expect((await t.rest('GET', '/api/v1/me/notification-settings', undefined, P.token)).status).toBe(200);
        await waitFor(async () => (await prisma.notificationSettings.findUnique({ where: { playerId: P.id } }))?.lastActiveAt?.getTime() === lookedAt, 'P seen');
        const before = service.requests.length;
        await routeTurn();
        expect(service.requests.length).toBe(before);
        expect((await sends(P.id)).slice(-1)).toEqual(['push:dropped:active']);
        here = true;
      } else {
        await routeTurn();
      }
    }
    expect(here).toBe(true);
    expect(turnsOf(P)).toBeGreaterThanOrEqual(2);
    expect(turnsOf(E)).toBeGreaterThanOrEqual(2);
    expect(turnsOf(N)).toBeGreaterThanOrEqual(1);

    // P: one push per turn while away (not the one while here), to the device, decrypted, naming the game and no card.
    const messages = pushed();
    expect(messages).toHaveLength(turnsOf(P) - 1);
    expect(new Set(messages.map((m) => m.path))).toEqual(new Set([new URL(device.endpoint).pathname]));
    for (const { message } of messages) {
      expect(message).toMatchObject({ kind: 'yourTurn', title: 'Your move in Mizerka', url: `/#/games/${gameId}`, gameId });
      expect(message.body).toMatch(/^It is your turn to play\. (9|1[0-2]) h left\.$/);
      expect(JSON.stringify(message)).not.toMatch(/[♠♥♦♣]|"cards?"|"hand"|talon/i);
    }
    // E: one digest for all those turns (the interval is four hours), listing the game with its link.
    expect(inbox.map((m) => [m.to, m.subject])).toEqual([[address, 'Mizerka: 1 game waiting for your move']]);
    expect(inbox[0]!.text).toContain(`http://play.test/#/games/${gameId}`);
    expect((await sends(E.id)).filter((s) => s.startsWith('email:sent'))).toEqual(['email:sent:digest']);
    // N: nothing sent anywhere (no device, no address), though N had turns.
    expect((await sends(N.id)).some((s) => s.startsWith('email') || s.endsWith(':sent'))).toBe(false);
    expect(await prisma.pushSubscription.count({ where: { playerId: { in: [E.id, N.id] } } })).toBe(0);
  });

  it('moves E’s deadline on by the time E was away on vacation', async () => {
    while ((await toMove()).id !== E.id) await moveAndRoute();
    const deadline = (await game()).turnDeadline!;
    const START = `mutation { startVacation(input: {}) { away } }`;
    expect((await t.gql(START, {}, E.token)).data?.startVacation).toEqual({ away: true });
    expect((await game()).turnDeadline).toBeNull(); // E's clock stopped
    clock.t += 2 * HOUR;
    expect((await t.gql(`mutation { endVacation { away } }`, {}, E.token)).data?.endVacation).toEqual({ away: false });
    expect((await game()).turnDeadline!.getTime()).toBe(deadline.getTime() + 2 * HOUR);
    clock.t += STEP;
    // Back and a mail already sent within the interval: E plays on, still one mail.
    await moveAndRoute();
    expect(inbox).toHaveLength(1);
  });

  it('reminds P before the time-out at 50 % and 10 % of the turn and an hour before, through P’s push', async () => {
    while ((await toMove()).id !== P.id) await moveAndRoute();
    const { turnDeadline, version } = await game();
    const deadline = turnDeadline!.getTime();
    await t.app.get(RemindersService).schedule([gameId]);
    const jobs = await queuedJobs('game.reminder', `reminder:${gameId}:${version}:%`);
    expect(jobs.map((j) => (deadline - j.run_at.getTime()) / 1000)).toEqual([6 * 3600, 4320, 3600]);
    const before = pushed().length;
    for (const job of jobs) {
      clock.t = job.run_at.getTime(); // the moment the queue runs it
      await t.app.get(RemindersService).fire(job.payload as ReminderJob);
      await work(P.id);
    }
    const reminders = pushed().slice(before);
    expect(reminders.map((r) => [r.message.kind, r.message.body])).toEqual([
      ['turnReminder', 'It is still your turn. 6 h left.'],
      ['turnReminder', 'It is still your turn. 1 h left.'],
      ['turnReminder', 'It is still your turn. 1 h left.'],
    ]);
    expect(reminders.every((r) => r.message.url === `/#/games/${gameId}`)).toBe(true);
    // The others heard nothing of P's reminders.
    for (const p of [E, N]) await work(p.id);
    expect(inbox).toHaveLength(1);
    expect(pushed()).toHaveLength(before + 3);
  });

  it('delivers table talk live, hides a muted author for the muter only, and keeps a blocked player out of the blocker’s table', async () => {
    const stream = await openSse(`${t.baseUrl}/api/v1/games/${gameId}/chat/stream`, { authorization: `Bearer ${P.token}` });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.ready();
    const say = (p: TestPlayer, body: string) => t.rest('POST', `/api/v1/games/${gameId}/chat`, { body }, p.token);
    const read = async (p: TestPlayer) =>
      ((await t.rest('GET', `/api/v1/games/${gameId}/chat`, undefined, p.token)).body.messages as { body: string }[]).map((m) => m.body).reverse();

    expect((await t.rest('PUT', `/api/v1/chat/mutes/${N.id}`, undefined, E.token)).status).toBe(200);
    expect((await say(N, 'good luck')).status).toBe(200);
    expect((await say(E, 'thanks')).status).toBe(200);
    expect((await stream.take(2)).map((f) => JSON.parse(f.data!).body)).toEqual(['good luck', 'thanks']);
    expect(await read(E)).toEqual(['thanks']);
    expect(await read(P)).toEqual(['good luck', 'thanks']);

    const blocked = await t.gql(`mutation($id: ID!) { blockPlayer(playerId: $id) { player { name } } }`, { id: N.id }, P.token);
    expect(blocked.data?.blockPlayer.player.name).toBe(N.name);
    expect((await say(N, 'still here?')).status).toBe(403);
    expect(await read(P)).toEqual(['thanks']);
  });
});
