import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 30_000 });
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { wsClient } from '../../../../test/graphql-ws.js';
import { metricValue } from '../../../../test/metrics.js';
import { waitFor } from '../../../../test/wait.js';
import { LiveConnections } from '../auth/live-connections.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { FEED_START } from '../player-events/feed.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { openSse, type SseStream } from './sse.test-kit.js';

const KEEP_ALIVE_MS = 150;
// The feed shows a commit once every older transaction of the whole PostgreSQL server has ended;
// other test files share that server, so the poll (the safety net) runs often here.
const POLL_MS = 200;
let t: TestApp;
const clients: Client[] = [];
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await startTestApp({ streams: { keepAliveMs: KEEP_ALIVE_MS, feedPollMs: POLL_MS } });
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

const LOBBY = '00000000-0000-4000-8000-000000000001';

/** Adds `count` lobbyJoined events to a player's feed, each in its own transaction, and wakes the streams. */
async function addEvents(app: TestApp, playerId: string, count: number, from = 0): Promise<void> {
  const feed = app.app.get(PlayerEventsService);
  for (let i = 0; i < count; i++) {
    const event: NewFeedEvent = {
      playerId,
      type: 'lobbyJoined',
      gameId: null,
      lobbyId: LOBBY,
      seq: null,
      payload: { lobbyId: LOBBY, playerId, name: `n${from + i}`, seat: from + i },
    };
    await app.app.get(PrismaService).$transaction((tx) => feed.add(tx, [event]));
    feed.published([event]);
  }
  // Committed is not yet visible while an older transaction runs anywhere on the server.
  await expect.poll(async () => (await feed.feed(playerId, FEED_START, 1000)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(from + count);
}

function sse(app: TestApp, path: string, token?: string, headers: Record<string, string> = {}) {
  return openSse(`${app.baseUrl}${path}`, { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }).then((s) => {
    streams.push(s);
    return s;
  });
}

/** The id of the player's first feed event, as issued: a real id to resume after. */
async function firstId(app: TestApp, playerId: string): Promise<string> {
  const [first] = await app.app.get(PlayerEventsService).feed(playerId, FEED_START, 1);
  return first.id;
}

const names = (frames: { data?: string }[]) => frames.map((f) => JSON.parse(f.data!).payload.name as string);

const MY_TURN = `query($first: Int, $after: String) {
  myTurn(first: $first, after: $after) {
    items { gameId preset seat version deadline opponents { seat playerId name total place } lastMove { seq kind seat actor events { seq type seat card count hand cards } } }
    nextCursor hasMore
  }
}`;

describe('myTurn', () => {
  it('lists the games waiting for the caller, soonest deadline first, untimed last, by page', async () => {
    const [me, a, b] = await players(t, 3, 'turn');
    const prisma = t.app.get(PrismaService);
    const hour = 3_600_000;
    const base = Date.now() + 10 * hour;
    const deadlines = [3 * hour, 1 * hour, null, 2 * hour, null];
    const ids: string[] = [];
    for (const d of deadlines) {
      const id = await startGame(t, [me, a, b], 'short');
      await prisma.game.update({ where: { id }, data: { toMove: 0, turnDeadline: d === null ? null : new Date(base + d) } });
      ids.push(id);
    }
    // Not the caller's move, and a finished game: neither is listed.
    const theirs = await startGame(t, [me, a, b], 'short');
    await prisma.game.update({ where: { id: theirs }, data: { toMove: 1 } });
    const over = await startGame(t, [me, a, b], 'short');
    await prisma.game.update({ where: { id: over }, data: { toMove: 0, status: 'finished' } });

    const untimed = [ids[2], ids[4]].sort();
    const expected = [ids[1], ids[3], ids[0], ...untimed];
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 3; page++) {
      const answer: { data?: Record<string, any> | null; errors?: unknown } = await t.gql(MY_TURN, { first: 2, after }, me.token);
      expect(answer.errors).toBeUndefined();
      const p: { items: { gameId: string; opponents: unknown }[]; nextCursor: string | null; hasMore: boolean } & Record<string, any> = answer.data!.myTurn;
      seen.push(...p.items.map((i: { gameId: string }) => i.gameId));
      expect(p.hasMore).toBe(page < 2);
      after = p.nextCursor;
      if (page === 0) {
        expect(p.items[0]).toMatchObject({ preset: 'short', seat: 0, version: 1, deadline: new Date(base + hour).toISOString(), lastMove: null });
        expect(p.items[0].opponents).toEqual([
          { seat: 1, playerId: a.id, name: a.name, total: 0, place: 1 },
          { seat: 2, playerId: b.id, name: b.name, total: 0, place: 1 },
        ]);
      }
    }
    expect(seen).toEqual(expected);
    expect(after).toBeNull();

    // The same over REST, page by page.
    const rest: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await t.rest('GET', `/api/v1/me/turns?first=2${cursor ? `&after=${cursor}` : ''}`, undefined, me.token);
      expect(r.status).toBe(200);
      rest.push(...r.body.items.map((i: { gameId: string }) => i.gameId));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(rest).toEqual(expected);

    const bad = await t.rest('GET', '/api/v1/me/turns?after=nonsense', undefined, me.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_INPUT', field: 'after' });
    expect((await t.rest('GET', '/api/v1/me/turns')).status).toBe(401);
  });

  it("shows the last move as the caller's seat sees it in the log", async () => {
    const seated = await players(t, 3, 'turnlm');
    const gameId = await startGame(t, seated, 'short');
    const random = rng(5);
    for (let i = 0; i < 2; i++) {
      const turn = await t.gql(TURN_QUERY, { id: gameId });
      const mover = seated[turn.data!.game.view.toMove];
      const mine = await t.gql(TURN_QUERY, { id: gameId }, mover.token);
      const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.data!.game.view.legalMoves, random) } }, mover.token);
      expect(moved.errors).toBeUndefined();
    }
    const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    const me: TestPlayer = seated[toMove];
    const item = (await t.gql(MY_TURN, {}, me.token)).data!.myTurn.items.find((i: { gameId: string }) => i.gameId === gameId);
    expect(item.seat).toBe(toMove);
    expect(item.version).toBe(3);
    const log = await t.gql(
      `query($id: ID!) { gameEvents(gameId: $id, after: 2) { entries { seq kind seat actor events { seq type seat card count hand cards } } } }`,
      { id: gameId },
      me.token,
    );
    expect(item.lastMove).toEqual(log.data!.gameEvents.entries[0]);
    // Nobody else's turn lists it.
    for (const other of seated.filter((p) => p !== me)) {
      const theirs = (await t.gql(MY_TURN, {}, other.token)).data!.myTurn.items;
      expect(theirs.map((i: { gameId: string }) => i.gameId)).not.toContain(gameId);
    }
  });
});

function connect(token: string): Client {
  const client = wsClient(t.baseUrl, token);
  clients.push(client);
  return client;
}

function follow(client: Client, after: string | null, count: number) {
  const got: { id: string; type: string; payload: { name: string }; lobbyId: string | null; gameId: string | null; seq: number | null }[] = [];
  const done = new Promise<typeof got>((resolve, reject) => {
    const stop = client.subscribe<{ myEvents: (typeof got)[number] }>(
      { query: 'subscription($after: String) { myEvents(after: $after) { id type gameId lobbyId seq payload createdAt } }', variables: { after } },
      {
        next: (message) => {
          if (message.errors) return reject(new Error(JSON.stringify(message.errors)));
          got.push(message.data!.myEvents);
          if (got.length >= count) {
            stop();
            resolve(got);
          }
        },
        error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
        complete: () => resolve(got),
      },
    );
  });
  return { done };
}

/** Streams of players' feeds following on this process's servers (each once it knows where it starts). */
const feedFollowers = () => metricValue('mizerka_live_tail_followers', { tail: 'feed' });

/** The errors a myEvents subscription is refused with; its first event instead fails the test. */
function refusal(client: Client, after: string): Promise<readonly { message: string; extensions?: Record<string, unknown> }[]> {
  return new Promise((resolve, reject) => {
    client.subscribe<{ myEvents: { id: string } }>(
      { query: 'subscription($after: String) { myEvents(after: $after) { id } }', variables: { after } },
      {
        next: (message) => (message.errors ? resolve(message.errors) : reject(new Error(`accepted: sent ${JSON.stringify(message.data)}`))),
        error: (error) => (Array.isArray(error) ? resolve(error) : reject(error instanceof Error ? error : new Error(JSON.stringify(error)))),
        complete: () => reject(new Error('completed without a refusal')),
      },
    );
  });
}

describe('the myEvents subscription', () => {
  it('delivers the backlog after an id, then live events, in order; without an id only new ones', async () => {
    const [p] = await players(t, 1, 'evsub');
    await addEvents(t, p.id, 3, 0);
    const before = await feedFollowers();
    const first = follow(connect(p.token), await firstId(t, p.id), 4);
    const fromNow = follow(connect(p.token), null, 2);
    // Both know where they start: what is committed from now on reaches them.
    await waitFor(async () => (await feedFollowers()) === before + 2, 'both subscriptions to follow');
    await addEvents(t, p.id, 2, 3);
    const all = await first.done;
    expect(all.map((e) => e.payload.name)).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(all[0]).toMatchObject({ type: 'lobbyJoined', lobbyId: LOBBY, gameId: null, seq: null });
    expect((await fromNow.done).map((e) => e.payload.name)).toEqual(['n3', 'n4']);

    // Resuming after the third: the rest, neither gap nor duplicate.
    const resumed = follow(connect(p.token), all[1].id, 2);
    expect((await resumed.done).map((e) => e.payload.name)).toEqual(['n3', 'n4']);
  });

  it('refuses an event id it did not make, naming the argument', async () => {
    const [p] = await players(t, 1, 'evbad');
    await expect(follow(connect(p.token), 'nope', 1).done).rejects.toThrow(/after must be an event id/);
  });
});

describe('GET /api/v1/me/events', () => {
  it('streams the feed with ids and types, resumes by Last-Event-ID or after (the header wins), with keep-alives', async () => {
    const [p] = await players(t, 1, 'sse');
    await addEvents(t, p.id, 3, 0);
    const s = await sse(t, `/api/v1/me/events?after=${await firstId(t, p.id)}`, p.token);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.headers.get('cache-control')).toBe('no-cache');
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    const backlog = await s.take(2);
    expect(names(backlog)).toEqual(['n1', 'n2']);
    expect(backlog.every((f) => f.event === 'lobbyJoined')).toBe(true);
    expect(backlog.map((f) => JSON.parse(f.data!).id)).toEqual(backlog.map((f) => f.id));
    await addEvents(t, p.id, 2, 3);
    const live = await s.take(2);
    expect(names(live)).toEqual(['n3', 'n4']);
    // An idle stream says it is alive.
    await waitFor(() => s.comments.filter((c) => c === 'keep-alive').length >= 2, 'two keep-alives', { timeout: KEEP_ALIVE_MS * 20 });
    s.close();

    const byHeader = await sse(t, `/api/v1/me/events?after=${backlog[0].id}`, p.token, { 'last-event-id': backlog[1].id! });
    expect(names(await byHeader.take(2))).toEqual(['n3', 'n4']);
    const byQuery = await sse(t, `/api/v1/me/events?after=${backlog[0].id}`, p.token);
    expect(names(await byQuery.take(3))).toEqual(['n2', 'n3', 'n4']);
    await addEvents(t, p.id, 1, 5);
    expect(names(await byHeader.take(1))).toEqual(['n5']);
    expect(names(await byQuery.take(1))).toEqual(['n5']);
    // Without an id: only what comes from now on.
    const fromNow = await sse(t, '/api/v1/me/events', p.token);
    expect(s.comments[0]).toBe('ready'); // the first stream said so before its first event
    await fromNow.ready();
    await addEvents(t, p.id, 1, 6);
    expect(names(await fromNow.take(1))).toEqual(['n6']);
  });

  it('shares one follower between a player\'s streams', async () => {
    const [p] = await players(t, 1, 'ssesh');
    const feed = (name: string, labels: Record<string, string> = {}) => metricValue(name, { tail: 'feed', ...labels });
    const before = { followers: await feed('mizerka_live_tail_followers'), tails: await feed('mizerka_live_tails') };
    const a = await sse(t, '/api/v1/me/events', p.token);
    const b = await sse(t, '/api/v1/me/events', p.token);
    await Promise.all([a.ready(), b.ready()]);
    expect(await feed('mizerka_live_tail_followers')).toBe(before.followers + 2);
    expect(await feed('mizerka_live_tails')).toBe(before.tails + 1);
    const read = { all: await feed('mizerka_live_tail_reads_total'), found: await feed('mizerka_live_tail_reads_total', { result: 'found' }) };
    await addEvents(t, p.id, 1);
    expect(names(await a.take(1))).toEqual(['n0']);
    expect(names(await b.take(1))).toEqual(['n0']);
    // One shared read found the event for both streams; any other read found nothing (a retry
    // while the feed's horizon lags behind a transaction elsewhere on the server, another
    // player's poll).
    expect((await feed('mizerka_live_tail_reads_total', { result: 'found' })) - read.found).toBe(1);
    expect((await feed('mizerka_live_tail_reads_total')) - read.all).toBeGreaterThanOrEqual(1);
    a.close();
    b.close();
    // Both leave, and the player's tail with them.
    await waitFor(
      async () => (await feed('mizerka_live_tail_followers')) === before.followers && (await feed('mizerka_live_tails')) === before.tails,
      'both streams and their tail to leave',
    );
  });

  it('refuses a missing or unknown token (401) and a bad event id (400 naming the field)', async () => {
    const none = await sse(t, '/api/v1/me/events');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await sse(t, '/api/v1/me/events', 'mzk_nope')).status).toBe(401);
    const [p] = await players(t, 1, 'ssebad');
    const header = await sse(t, '/api/v1/me/events', p.token, { 'last-event-id': 'x' });
    expect(header.status).toBe(400);
    expect(header.body).toMatchObject({ code: 'BAD_INPUT', field: 'Last-Event-ID' });
    const query = await sse(t, '/api/v1/me/events?after=1-2-3', p.token);
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ code: 'BAD_INPUT', field: 'after' });
  });

  it('ends an open stream when its token is revoked, saying why', async () => {
    const [p] = await players(t, 1, 'sserev');
    const created = await t.gql('mutation { createApiToken(input: { name: "sse", scopes: [read] }) { token apiToken { id } } }', {}, p.token);
    const { token, apiToken } = created.data!.createApiToken;
    const s = await sse(t, '/api/v1/me/events', token);
    expect(s.status).toBe(200);
    await waitFor(() => t.app.get(LiveConnections).socketsOf(p.id) === 1, 'the stream to be held by its token');
    const revoked = await t.gql('mutation($id: ID!) { revokeApiToken(id: $id) { id } }', { id: apiToken.id }, p.token);
    expect(revoked.errors).toBeUndefined();
    const last = await s.next();
    expect(last?.event).toBe('error');
    expect(JSON.parse(last!.data!)).toMatchObject({ code: 'UNAUTHENTICATED' });
    await s.ended;
    expect(await s.next()).toBeNull();
    expect((await sse(t, '/api/v1/me/events', token)).status).toBe(401);
  });

  it('counts streams against the per-player socket cap', async () => {
    const app = await startTestApp({
      live: { socketsPerPlayer: 2, subscriptionsPerSocket: 20, subscriptionsPerPlayer: 50, maxMessageBytes: 65_536, idleSeconds: 300 },
      streams: { keepAliveMs: 1_000, feedPollMs: POLL_MS },
    });
    try {
      const [p] = await players(app, 1, 'ssecap');
      const a = await sse(app, '/api/v1/me/events', p.token);
      const b = await sse(app, '/api/v1/me/events', p.token);
      const c = await sse(app, '/api/v1/me/events', p.token);
      expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
      expect(c.body).toMatchObject({ code: 'RATE_LIMITED' });
      a.close();
      await waitFor(() => app.app.get(LiveConnections).socketsOf(p.id) === 1, 'the closed stream to give back its place');
      expect((await sse(app, '/api/v1/me/events', p.token)).status).toBe(200);
    } finally {
      streams.forEach((s) => s.close());
      await app.close();
    }
  });
});

describe('an event id the server never issued to the caller', () => {
  it('is refused on the stream (400 naming after or Last-Event-ID) and on myEvents (BAD_INPUT): 0-0 and an id of another player', async () => {
    const [p, other] = await players(t, 2, 'evforeign');
    await addEvents(t, other.id, 1);
    // p has an event after other's: an id accepted by mistake would hand it out at once.
    await addEvents(t, p.id, 1);
    const [theirs] = await t.app.get(PlayerEventsService).feed(other.id, FEED_START, 1);
    for (const id of ['0-0', theirs.id]) {
      const query = await sse(t, `/api/v1/me/events?after=${id}`, p.token);
      expect(query.status, `after=${id}`).toBe(400);
      expect(query.body).toMatchObject({ code: 'BAD_INPUT', field: 'after' });
      const header = await sse(t, '/api/v1/me/events?after=nonsense', p.token, { 'last-event-id': id });
      expect(header.status, `Last-Event-ID: ${id}`).toBe(400);
      expect(header.body).toMatchObject({ code: 'BAD_INPUT', field: 'Last-Event-ID' });
      const [error] = await refusal(connect(p.token), id);
      expect(error.extensions).toMatchObject({ code: 'BAD_INPUT', field: 'after' });
    }
    // The same id in its own player's feed resumes after it.
    const own = await sse(t, `/api/v1/me/events?after=${theirs.id}`, other.token);
    expect(own.status).toBe(200);
    await addEvents(t, other.id, 1, 1);
    expect(names(await own.take(1))).toEqual(['n1']);
  });
});

describe('resuming across a restart', () => {
  it('picks up after the last id on a restarted server, and shutdown does not wait for open streams', async () => {
    const first = await startTestApp({ streams: { keepAliveMs: 60_000, feedPollMs: POLL_MS } });
    const [p] = await players(first, 1, 'sserestart');
    await addEvents(first, p.id, 3, 0);
    const s = await sse(first, `/api/v1/me/events?after=${await firstId(first, p.id)}`, p.token);
    const got = await s.take(1);
    const started = Date.now();
    await first.close();
    expect(Date.now() - started).toBeLessThan(900);
    await s.ended;

    const second = await startTestApp({ streams: { keepAliveMs: 60_000, feedPollMs: POLL_MS } }, first.databaseUrl);
    try {
      const resumed = await sse(second, '/api/v1/me/events', p.token, { 'last-event-id': got[0].id! });
      expect(names(await resumed.take(1))).toEqual(['n2']);
      await addEvents(second, p.id, 1, 3);
      expect(names(await resumed.take(1))).toEqual(['n3']);
    } finally {
      streams.forEach((x) => x.close());
      await second.close();
    }
  });
});
