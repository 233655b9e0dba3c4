import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { routeUntilCaughtUp } from './notifications.test-kit.js';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../../../../test/mail-receiver.js';
import { waitFor } from '../../../../test/wait.js';
import { loadConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { NOTICE_CLOCK } from './clock.js';
import { EmailChannel } from './email-channel.js';
import { NoticeChannels } from './notice-channels.js';
import { NoticeRouter } from './notice-router.js';
import { quietUntil } from './preferences.js';

// The notifications core and its email channel against a real SMTP receiver on loopback, with a
// fake clock: the routing, the send job and the email job are called as their jobs would call
// them (no job worker runs here, so nothing happens behind the test's back).

let receiver: MailReceiver;
let inbox: ReceivedMail[] = [];
const clock = { t: Date.parse('2026-12-02T12:00:00Z'), now: () => clock.t };
let t: TestApp;
let prisma: PrismaService;
let router: NoticeRouter;
let email: EmailChannel;

beforeAll(async () => {
  receiver = await startMailReceiver();
  inbox = receiver.inbox;
  const smtpUrl = receiver.url;
  const base = loadConfig({ NODE_ENV: 'test' });
  t = await startTestApp(
    {
      mail: { smtpUrl, from: 'Mizerka <mizerka@localhost>', publicUrl: 'http://play.test' },
      jobs: { ...base.jobs, worker: false },
    },
    undefined,
    [{ provide: NOTICE_CLOCK, useValue: clock }],
  );
  prisma = t.app.get(PrismaService);
  router = t.app.get(NoticeRouter);
  email = t.app.get(EmailChannel);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});
beforeEach(() => {
  clock.t = Date.parse('2026-12-02T12:00:00Z');
  inbox.length = 0;
});

let counter = 0;
const unique = (label: string) => `${label}${process.pid % 10_000}n${++counter}`;

/** A player with a verified email (written directly: the accounts tests cover verifying). */
async function player(label: string): Promise<{ id: string; token: string; email: string }> {
  const name = unique(label);
  const { id, token } = await t.register(name);
  const address = `${name.toLowerCase()}@example.com`;
  await prisma.$executeRaw`INSERT INTO player_accounts (player_id, email, email_verified_at, verified_email_key) VALUES (${id}::uuid, ${address}, now(), ${address})`;
  return { id, token, email: address };
}

/** An active game with the player at seat 0 and seat 0 to move, its deadline `hours` away (null: untimed). */
async function gameToMove(playerId: string, hours: number | null): Promise<string> {
  const id = randomUUID();
  const deadline = hours === null ? null : new Date(clock.t + hours * 3600_000);
  await prisma.$executeRaw`INSERT INTO games (id, preset, players, first_dealer, phase, state, totals, winners, to_move, turn_deadline, updated_at)
    VALUES (${id}::uuid, 'classic', 4, 0, 'play', '{}'::json, '{0,0,0,0}', '{}', 0, ${deadline}, now())`;
  await prisma.$executeRaw`INSERT INTO game_seats (game_id, seat, player_id, created_at) VALUES (${id}::uuid, 0, ${playerId}::uuid, now())`;
  return id;
}

let seq = 10;
async function yourTurn(playerId: string, gameId: string, deadline: Date | null = null): Promise<void> {
  const s = ++seq;
  const event: NewFeedEvent = {
    playerId,
    type: 'yourTurn',
    gameId,
    lobbyId: null,
    seq: s,
    payload: { gameId, seq: s, seat: 0, deadline: deadline?.toISOString() ?? null, preset: 'classic' },
  };
  await addEvent(event);
}

async function addEvent(event: NewFeedEvent): Promise<void> {
  const feed = t.app.get(PlayerEventsService);
  // The feed's own clock is the database's: the event is as new as the fake clock says.
  await prisma.$transaction(async (tx) => {
    await feed.add(tx, [event]);
    await tx.$executeRaw(Prisma.sql`UPDATE player_events SET created_at = ${new Date(clock.t)} WHERE player_id = ${event.playerId}::uuid AND seq = ${event.seq}`);
  });
}

/** What the jobs would do now: route the feed, hand out what is due, send the mail. */
async function work(playerId: string): Promise<void> {
  await routeUntilCaughtUp(router, prisma, playerId);
  await router.sendDue(playerId);
  await email.send(playerId);
}

const mailsTo = (address: string) => inbox.filter((m) => m.to === address);
const statuses = async (playerId: string) =>
  (await prisma.noticeSend.findMany({ where: { playerId, channel: 'email' }, orderBy: { id: 'asc' } })).map((n) => `${n.channel}:${n.status}${n.reason ? `:${n.reason}` : ''}`);

describe('notifications: email', () => {
  it('registers the email channel when SMTP is set (and push, whose VAPID subject MAIL_FROM gives)', () => {
    expect(t.app.get(NoticeChannels).names().sort()).toEqual(['email', 'push']);
  });

  it('mails a turn at once, with text and HTML parts, the game link and one-click unsubscribe headers', async () => {
    const ala = await player('Ala');
    const game = await gameToMove(ala.id, 7);
    await yourTurn(ala.id, game, new Date(clock.t + 7 * 3600_000));
    await work(ala.id);
    const [mail, ...more] = mailsTo(ala.email);
    expect(more).toEqual([]);
    expect(mail.subject).toBe('Your move in Mizerka');
    expect(mail.text).toContain('It is your turn to play. 7 h left.');
    expect(mail.text).toContain(`http://play.test/#/games/${game}`);
    expect(mail.html).toContain(`<a href="http://play.test/#/games/${game}">Open the game</a>`);
    const unsubscribe = mail.headers.get('list-unsubscribe');
    expect(unsubscribe).toMatch(/^<http:\/\/play\.test\/api\/v1\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(await statuses(ala.id)).toEqual(['email:sent']);
  });

  it('sends once when the same feed events are routed and sent again (a second instance, a crash before the cursor moved)', async () => {
    const ola = await player('Ola');
    const game = await gameToMove(ola.id, null);
    await yourTurn(ola.id, game);
    await Promise.all([work(ola.id), work(ola.id)]);
    // As if the cursor had never moved: the same events are routed again.
    await prisma.$executeRaw`UPDATE notification_settings SET cursor_tx = '0'::xid8, cursor_id = 0 WHERE player_id = ${ola.id}::uuid`;
    await work(ola.id);
    await work(ola.id);
    expect(mailsTo(ola.email)).toHaveLength(1);
    expect(await statuses(ola.id)).toEqual(['email:sent']);
  });

  it('unsubscribes in one click without signing in (POST), after a GET that only asks', async () => {
    const ewa = await player('Ewa');
    await yourTurn(ewa.id, await gameToMove(ewa.id, null));
    await work(ewa.id);
    const link = /<(http:\/\/play\.test)(\/api\/v1\/unsubscribe\?token=[^>]+)>/.exec(mailsTo(ewa.email)[0].headers.get('list-unsubscribe')!)!;
    const path = link[2];
    const page = await fetch(`${t.baseUrl}${path}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post"');
    expect((await t.rest('GET', '/api/v1/me/notification-settings', undefined, ewa.token)).body.emailMode).toBe('immediate');
    const posted = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain('Email is off');
    expect((await t.rest('GET', '/api/v1/me/notification-settings', undefined, ewa.token)).body.emailMode).toBe('never');
    const unknown = await fetch(`${t.baseUrl}/api/v1/unsubscribe?token=${'x'.repeat(43)}`, { method: 'POST' });
    expect(await unknown.text()).toContain('not recognised');
    // Nothing more is mailed.
    await yourTurn(ewa.id, await gameToMove(ewa.id, null));
    await work(ewa.id);
    expect(mailsTo(ewa.email)).toHaveLength(1);
  });

  it('sends one digest for several games, soonest deadline first, and no second one within the interval', async () => {
    const iga = await player('Iga');
    const set = await t.gql('mutation { setNotificationSettings(input: { emailMode: digest, digestMinutes: 240 }) { emailMode digestMinutes } }', {}, iga.token);
    expect(JSON.stringify(set.errors)).toBeUndefined();
    expect(set.data?.setNotificationSettings).toEqual({ emailMode: 'digest', digestMinutes: 240 });
    clock.t += 6 * 60_000; // the request made her active: she has been away since
    const later = await gameToMove(iga.id, 9);
    const sooner = await gameToMove(iga.id, 2);
    const untimed = await gameToMove(iga.id, null);
    await yourTurn(iga.id, later);
    await yourTurn(iga.id, sooner);
    await yourTurn(iga.id, untimed);
    await work(iga.id);
    const [digest, ...more] = mailsTo(iga.email);
    expect(more).toEqual([]);
    expect(digest.subject).toBe('Mizerka: 3 games waiting for your move');
    const at = (id: string) => digest.text.indexOf(`/#/games/${id}`);
    expect(at(sooner)).toBeGreaterThan(0);
    expect(at(sooner)).toBeLessThan(at(later));
    expect(at(later)).toBeLessThan(at(untimed));
    expect(digest.text).toContain('2 h left');
    expect(digest.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // Another turn an hour later: it waits for the interval.
    clock.t += 3600_000;
    await yourTurn(iga.id, await gameToMove(iga.id, 5));
    await work(iga.id);
    expect(mailsTo(iga.email)).toHaveLength(1);
    // The interval is over: the next digest lists every game still waiting (four now).
    clock.t += 3 * 3600_000 + 60_000;
    await email.send(iga.id);
    expect(mailsTo(iga.email)).toHaveLength(2);
    expect(mailsTo(iga.email)[1].subject).toBe('Mizerka: 4 games waiting for your move');
  });

  it('holds a notice in quiet hours of the player’s time zone and sends it when they end', async () => {
    const zosia = await player('Zosia');
    const set = await t.rest('PATCH', '/api/v1/me/notification-settings', { quietStart: '22:00', quietEnd: '07:00', timeZone: 'Europe/Warsaw' }, zosia.token);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ quietStart: '22:00', quietEnd: '07:00', timeZone: 'Europe/Warsaw' });
    clock.t = Date.parse('2026-12-02T21:30:00Z'); // 22:30 in Warsaw (UTC+1 in December)
    await yourTurn(zosia.id, await gameToMove(zosia.id, null));
    await work(zosia.id);
    expect(mailsTo(zosia.email)).toEqual([]);
    const [held] = await prisma.noticeSend.findMany({ where: { playerId: zosia.id } });
    expect(held.status).toBe('pending');
    expect(held.dueAt.toISOString()).toBe('2026-12-03T06:00:00.000Z'); // 07:00 in Warsaw
    clock.t = Date.parse('2026-12-03T05:59:00Z');
    await work(zosia.id);
    expect(mailsTo(zosia.email)).toEqual([]);
    clock.t = Date.parse('2026-12-03T06:00:00Z');
    await work(zosia.id);
    expect(mailsTo(zosia.email)).toHaveLength(1);
  });

  it('sends nothing while the player is active, and again once they have been away for the minutes they chose', async () => {
    const jan = await player('Jan');
    await t.rest('PATCH', '/api/v1/me/notification-settings', { activeMinutes: 10 }, jan.token);
    // The PATCH itself was a request: the player is here (written off the request's path).
    await waitFor(
      async () => (await prisma.notificationSettings.findUnique({ where: { playerId: jan.id } }))?.lastActiveAt?.getTime() === clock.t,
      'presence written',
    );
    await yourTurn(jan.id, await gameToMove(jan.id, null));
    await work(jan.id);
    expect(mailsTo(jan.email)).toEqual([]);
    expect(await statuses(jan.id)).toEqual(['email:dropped:active']);
    clock.t += 9 * 60_000;
    await yourTurn(jan.id, await gameToMove(jan.id, null));
    await work(jan.id);
    expect(mailsTo(jan.email)).toEqual([]);
    clock.t += 2 * 60_000; // 11 minutes since the request
    await yourTurn(jan.id, await gameToMove(jan.id, null));
    await work(jan.id);
    expect(mailsTo(jan.email)).toHaveLength(1);
  });

  it('drops a held turn the player has played meanwhile, and routes a reminder only to the channels it names', async () => {
    const piotr = await player('Piotr');
    await t.rest('PATCH', '/api/v1/me/notification-settings', { quietStart: '00:00', quietEnd: '23:59', timeZone: 'UTC' }, piotr.token);
    const game = await gameToMove(piotr.id, 3);
    await yourTurn(piotr.id, game);
    await work(piotr.id);
    await prisma.$executeRaw`UPDATE games SET to_move = 1 WHERE id = ${game}::uuid`; // played
    clock.t = Date.parse('2026-12-02T23:59:30Z');
    await work(piotr.id);
    expect(await statuses(piotr.id)).toEqual(['email:dropped:superseded']);
    await t.rest('PATCH', '/api/v1/me/notification-settings', { quietStart: null, quietEnd: null }, piotr.token);
    clock.t += 6 * 60_000; // away since that request
    const other = await gameToMove(piotr.id, 3);
    const deadline = new Date(clock.t + 3600_000).toISOString();
    const reminder = (s: number, channels: ('push' | 'email')[]): NewFeedEvent => ({
      playerId: piotr.id,
      type: 'turnReminder',
      gameId: other,
      lobbyId: null,
      seq: s,
      payload: { gameId: other, seq: s, seat: 0, deadline, before: 3600, channels },
    });
    await addEvent(reminder(1, ['push']));
    await work(piotr.id);
    expect(mailsTo(piotr.email)).toEqual([]);
    await addEvent(reminder(2, ['push', 'email']));
    await work(piotr.id);
    expect(await statuses(piotr.id)).toEqual(['email:dropped:superseded', 'email:sent']);
    expect(mailsTo(piotr.email).map((m) => m.subject)).toEqual(['Reminder: your move in Mizerka']);
  });
});

describe('notifications: settings', () => {
  it('answers the defaults, then refuses bad input naming the field, over GraphQL and REST', async () => {
    const { token } = await t.register(unique('Set'));
    const got = await t.gql('{ myNotificationSettings { pushKinds emailKinds emailMode digestMinutes quietStart quietEnd timeZone activeMinutes emailAvailable emailVerified pushAvailable } }', {}, token);
    expect(JSON.stringify(got.errors)).toBeUndefined();
    expect(got.data?.myNotificationSettings).toEqual({
      pushKinds: ['yourTurn', 'turnReminder', 'deadlineNear', 'timedOut', 'gameFinished', 'invited'],
      emailKinds: ['yourTurn', 'turnReminder', 'deadlineNear', 'timedOut', 'gameFinished', 'invited'],
      emailMode: 'immediate',
      digestMinutes: 240,
      quietStart: null,
      quietEnd: null,
      timeZone: 'UTC',
      activeMinutes: 5,
      emailAvailable: true,
      emailVerified: false,
      pushAvailable: true,
    });
    const zone = await t.gql('mutation { setNotificationSettings(input: { timeZone: "Mars/Olympus" }) { timeZone } }', {}, token);
    expect(zone.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'timeZone' });
    const half = await t.rest('PATCH', '/api/v1/me/notification-settings', { quietStart: '22:00' }, token);
    expect(half.status).toBe(400);
    expect(JSON.stringify(half.body)).toContain('quietEnd');
    const time = await t.rest('PATCH', '/api/v1/me/notification-settings', { quietStart: '25:00', quietEnd: '07:00' }, token);
    expect(time.status).toBe(400);
    expect(JSON.stringify(time.body)).toContain('quietStart must be a time of day');
    const digest = await t.rest('PATCH', '/api/v1/me/notification-settings', { digestMinutes: 1 }, token);
    expect(digest.status).toBe(400);
    const kinds = await t.rest('PATCH', '/api/v1/me/notification-settings', { emailKinds: ['yourTurn'], pushKinds: [] }, token);
    expect(kinds.body).toMatchObject({ emailKinds: ['yourTurn'], pushKinds: [] });
    // A read-only token reads but does not change.
    const read = await t.gql<{ createApiToken: { token: string } }>('mutation { createApiToken(input: { name: "r", scopes: [read] }) { token } }', {}, token);
    const readToken = read.data?.createApiToken.token;
    if (readToken) {
      expect((await t.rest('GET', '/api/v1/me/notification-settings', undefined, readToken)).status).toBe(200);
      expect((await t.rest('PATCH', '/api/v1/me/notification-settings', { activeMinutes: 1 }, readToken)).status).toBe(403);
    }
  });

  it('computes the end of quiet hours across midnight in a time zone', () => {
    const prefs = { quietStart: 22 * 60, quietEnd: 7 * 60, timeZone: 'America/New_York' };
    expect(quietUntil(prefs, Date.parse('2026-12-02T12:00:00Z'))).toBeNull(); // 07:00 in New York: over
    expect(new Date(quietUntil(prefs, Date.parse('2026-12-03T04:15:20Z'))!).toISOString()).toBe('2026-12-03T12:00:00.000Z');
    expect(quietUntil({ ...prefs, quietStart: null }, Date.parse('2026-12-03T04:15:20Z'))).toBeNull();
  });
});
