import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { wsClient, type WsClient } from '../../../../test/graphql-ws.js';
import { metricValue } from '../../../../test/metrics.js';
import { waitFor } from '../../../../test/wait.js';
import { LiveConnections } from '../auth/live-connections.js';
import { loadConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { GameLogBus } from './game-log-bus.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from './games.test-kit.js';

// Live followers of gameLog: they end with their socket, share one read per new entry, respect
// the caps, and end the moment their token is revoked.

const defaults = loadConfig({}).live;
let t: TestApp; // roomy caps: many sockets per player
let tight: TestApp; // small caps, a short idle time and small messages
const clients: Client[] = [];

beforeAll(async () => {
  [t, tight] = await Promise.all([
    startTestApp({ live: { ...defaults, socketsPerPlayer: 25 } }),
    startTestApp({
      live: { socketsPerPlayer: 2, subscriptionsPerSocket: 2, subscriptionsPerPlayer: 3, maxMessageBytes: 4096, idleSeconds: 1 },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all([t?.close(), tight?.close()]);
});

const GAME_LOG = `subscription($gameId: ID!, $after: Int) {
  gameLog(gameId: $gameId, after: $after) { seq kind events { type seat card count hand } }
}`;

interface Entry {
  seq: number;
  kind: string;
  events: Record<string, unknown>[];
}

function connect(app: TestApp, token: string, lazy = true): WsClient {
  const client = wsClient(app.baseUrl, token, { lazy });
  clients.push(client);
  return client;
}

/** A running subscription: what arrived so far, and how it ended. */
function follow(client: Client, gameId: string, after: number) {
  const entries: Entry[] = [];
  const state: { entries: Entry[]; completed: boolean; error: unknown; stop: () => void } = {
    entries,
    completed: false,
    error: undefined,
    stop: () => undefined,
  };
  state.stop = client.subscribe<{ gameLog: Entry }>(
    { query: GAME_LOG, variables: { gameId, after } },
    {
      next: (message) => {
        if (message.errors) state.error = message.errors;
        else entries.push(message.data!.gameLog);
      },
      error: (error) => {
        state.error = error;
      },
      complete: () => {
        state.completed = true;
      },
    },
  );
  return state;
}

/**
 * Followers of games, and games with a tail, on this process's servers (what /metrics reports):
 * the tests of this file run one at a time, so a change from a value read before is this test's.
 */
const gameFollowers = () => metricValue('mizerka_live_tail_followers', { tail: 'game' });
const gameTails = () => metricValue('mizerka_live_tails', { tail: 'game' });
const gameTailReads = () => metricValue('mizerka_live_tail_reads_total', { tail: 'game' });

async function move(app: TestApp, seated: TestPlayer[], gameId: string, random: (n: number) => number): Promise<number> {
  const turn = await app.gql(TURN_QUERY, { id: gameId });
  const mover = seated[turn.data!.game.view.toMove];
  const mine = await app.gql(TURN_QUERY, { id: gameId }, mover.token);
  const answer = await app.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.data!.game.view.legalMoves, random) } }, mover.token);
  expect(answer.errors).toBeUndefined();
  return answer.data!.makeMove.version as number;
}

const errorCode = (error: unknown) => JSON.stringify(error);

describe('followers of a game', () => {
  it('share one read per new entry, each redacted for its own seat, and all detach at once when their sockets close', async () => {
    const seated = await players(t, 3, 'hub');
    const gameId = await startGame(t, seated, 'short');
    const random = rng(5);
    await move(t, seated, gameId, random);
    // What wakes the game's tail: one listener while it runs.
    const wake = t.app.get(GameLogBus).wakes(gameId);
    const listening = () => wake.emitter.listenerCount(wake.event);
    const before = { followers: await gameFollowers(), tails: await gameTails() };

    // 20 sockets: seat 0 on ten of them, a spectator on the other ten.
    const [watcher] = await players(t, 1, 'hubw');
    const sockets = Array.from({ length: 20 }, (_, i) => connect(t, i < 10 ? seated[0].token : watcher.token));
    const streams = sockets.map((socket) => follow(socket, gameId, 0));
    await waitFor(async () => streams.every((s) => s.entries.length === 2) && (await gameFollowers()) === before.followers + 20, '20 followers', { timeout: 5000 });
    expect(await gameTails()).toBe(before.tails + 1); // one per game, not one per follower
    expect(listening()).toBe(1);

    const readsBefore = await gameTailReads();
    let version = 2;
    for (let i = 0; i < 3; i++) version = await move(t, seated, gameId, random);
    await waitFor(() => streams.every((s) => s.entries.at(-1)?.seq === version), 'every follower to get the moves', { timeout: 3000 });
    expect((await gameTailReads()) - readsBefore).toBe(3); // one shared read per move, for 20 followers

    for (const [i, stream] of streams.entries()) {
      expect(stream.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      const hand = stream.entries[0].events[0].hand;
      if (i < 10) expect(hand).toHaveLength(6); // seat 0 sees its own cards
      else expect(hand ?? null).toBeNull(); // the spectator sees none
    }
    expect(JSON.stringify(streams.slice(10).map((s) => s.entries))).not.toMatch(/"[2-9TJQKA][CDHS]"/);

    // The sockets go away: every follower leaves the hub at once, not after a poll interval.
    const closedAt = Date.now();
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await waitFor(
      async () => (await gameFollowers()) === before.followers && (await gameTails()) === before.tails && listening() === 0,
      'all followers to detach',
      { timeout: 1000 },
    );
    expect(Date.now() - closedAt).toBeLessThan(1000);
    expect(t.app.get(LiveConnections).socketsOf(seated[0].id)).toBe(0);
  });

  it('completes a subscription to a finished game resumed at its last seq', async () => {
    const seated = await players(t, 3, 'fin');
    const gameId = await startGame(t, seated, 'short');
    const before = await gameFollowers();
    const resigned = await t.gql('mutation($input: ResignInput!) { resign(input: $input) { version } }', { input: { gameId } }, seated[1].token);
    expect(resigned.errors).toBeUndefined();
    const last = resigned.data!.resign.version as number;

    const all = follow(connect(t, seated[0].token), gameId, 0);
    await waitFor(() => all.completed, 'the full log to complete', { timeout: 3000 });
    expect(all.entries.at(-1)!.seq).toBe(last);

    // The documented resume pattern: reconnect with the last seq received.
    const resumed = follow(connect(t, seated[0].token), gameId, last);
    await waitFor(() => resumed.completed, 'the resumed subscription to complete', { timeout: 3000 });
    expect(resumed.entries).toEqual([]);
    expect(resumed.error).toBeUndefined();
    await waitFor(async () => (await gameFollowers()) === before, 'no follower left', { timeout: 1000 });
  });

  it('ends a revoked token’s subscription at once, and no private card reaches it afterwards', async () => {
    const seated = await players(t, 3, 'rev');
    const gameId = await startGame(t, seated, 'short');
    const random = rng(9);
    const second = await t.gql<{ createApiToken: { token: string; apiToken: { id: string } } }>(
      'mutation { createApiToken(input: { name: "watch", scopes: [read] }) { token apiToken { id } } }',
      {},
      seated[0].token,
    );
    expect(second.errors).toBeUndefined();
    const leaked = second.data!.createApiToken;

    const before = await gameFollowers();
    const socket = connect(t, leaked.token);
    const revokedStream = follow(socket, gameId, 0);
    const control = follow(connect(t, seated[0].token), gameId, 0);
    await waitFor(() => revokedStream.entries.length === 1 && control.entries.length === 1, 'both followers', { timeout: 3000 });
    expect(revokedStream.entries[0].events[0].hand).toHaveLength(6); // the seat's private cards

    const revoke = await t.gql('mutation($id: ID!) { revokeApiToken(id: $id) { revokedAt } }', { id: leaked.apiToken.id }, seated[0].token);
    expect(revoke.errors).toBeUndefined();
    // Closed by the server as the revoke returns, with the code for a bad token.
    await waitFor(() => socket.closes.length > 0, 'the revoked socket to close', { timeout: 1000 });
    expect(socket.closes[0].code).toBe(4401);
    expect(socket.closes[0].reason).toMatch(/UNAUTHENTICATED.*revoked/);
    await waitFor(async () => (await gameFollowers()) === before + 1, 'the revoked follower to leave', { timeout: 1000 });

    // The game goes on; the control follower gets each entry from the same shared read.
    let version = 1;
    for (let i = 0; i < 3; i++) version = await move(t, seated, gameId, random);
    await waitFor(() => control.entries.at(-1)?.seq === version, 'the control follower', { timeout: 3000 });
    expect(revokedStream.entries.map((e) => e.seq)).toEqual([1]);

    // And the token cannot come back on a new socket.
    const again = connect(t, leaked.token);
    const refused = follow(again, gameId, 0);
    await waitFor(() => again.closes.length > 0, 'the new socket to be refused', { timeout: 3000 });
    expect(refused.entries).toEqual([]);
  });
});

describe('a revoke made on another instance', () => {
  it('closes the token’s sockets here at the next re-check of live tokens', async () => {
    // A second instance on the same database, which learns of the revoke from the database only.
    const other = await startTestApp({ authCacheSeconds: 1 }, t.databaseUrl);
    try {
      const seated = await players(t, 3, 'inst');
      const gameId = await startGame(t, seated, 'short');
      const made = await t.gql<{ createApiToken: { token: string; apiToken: { id: string } } }>(
        'mutation { createApiToken(input: { name: "elsewhere", scopes: [read] }) { token apiToken { id } } }',
        {},
        seated[0].token,
      );
      const { token, apiToken } = made.data!.createApiToken;
      const socket = connect(other, token);
      const stream = follow(socket, gameId, 0);
      await waitFor(() => stream.entries.length === 1, 'the subscription on the other instance', { timeout: 3000 });
      const revoked = await t.gql('mutation($id: ID!) { revokeApiToken(id: $id) { revokedAt } }', { id: apiToken.id }, seated[0].token);
      expect(revoked.errors).toBeUndefined();
      await waitFor(() => socket.closes.length > 0, 'the other instance to close the socket', { timeout: 8000 });
      expect(socket.closes[0].code).toBe(4401);
      expect(socket.closes[0].reason).toMatch(/revoked/);
    } finally {
      await other.close();
    }
  }, 20_000);
});

describe('expiring tokens', () => {
  it('closes a socket when its token expires (4401), ending its subscription', async () => {
    const seated = await players(t, 3, 'expl');
    const gameId = await startGame(t, seated, 'short');
    const made = await t.gql<{ createApiToken: { token: string; apiToken: { id: string } } }>(
      'mutation { createApiToken(input: { name: "brief", scopes: [read], expiresInSeconds: 60 }) { token apiToken { id } } }',
      {},
      seated[0].token,
    );
    const { token, apiToken } = made.data!.createApiToken;
    // Not used yet, so not cached: bring its expiry close.
    await t.app.get(PrismaService).apiToken.update({ where: { id: apiToken.id }, data: { expiresAt: new Date(Date.now() + 1500) } });
    const before = await gameFollowers();
    const socket = connect(t, token);
    const stream = follow(socket, gameId, 0);
    await waitFor(() => stream.entries.length === 1, 'the subscription', { timeout: 3000 });
    await waitFor(() => socket.closes.length > 0, 'the socket to close at expiry', { timeout: 4000 });
    expect(socket.closes[0].code).toBe(4401);
    expect(socket.closes[0].reason).toMatch(/expired/);
    await waitFor(async () => (await gameFollowers()) === before, 'the follower to leave', { timeout: 1000 });
  });
});

describe('caps on live subscriptions', () => {
  it('refuses a player’s socket beyond WS_MAX_SOCKETS_PER_PLAYER with RATE_LIMITED (close 4429)', async () => {
    const seated = await players(tight, 3, 'cap');
    const p = seated[0];
    const gameId = await startGame(tight, seated, 'short');
    const first = connect(tight, p.token);
    const second = connect(tight, p.token);
    // Each with a subscription, so that neither is idle.
    const streams = [follow(first, gameId, 0), follow(second, gameId, 0)];
    await waitFor(() => streams.every((s) => s.entries.length === 1), 'two sockets', { timeout: 3000 });
    const third = connect(tight, p.token, false);
    await waitFor(() => third.closes.length > 0, 'the third socket to be refused', { timeout: 3000 });
    expect(third.closes[0].code).toBe(4429);
    expect(third.closes[0].reason).toMatch(/RATE_LIMITED.*WS_MAX_SOCKETS_PER_PLAYER/);
    await Promise.all([first.dispose(), second.dispose()]);
    await waitFor(() => tight.app.get(LiveConnections).socketsOf(p.id) === 0, 'the sockets to be let go', { timeout: 1000 });
  });

  it('refuses subscriptions beyond WS_MAX_SUBSCRIPTIONS_PER_SOCKET and per player with RATE_LIMITED', async () => {
    const seated = await players(tight, 3, 'caps');
    const gameId = await startGame(tight, seated, 'short');
    const a = connect(tight, seated[0].token);
    const b = connect(tight, seated[0].token);
    const onA = [follow(a, gameId, 0), follow(a, gameId, 0)];
    await waitFor(() => onA.every((s) => s.entries.length === 1), 'two subscriptions on one socket', { timeout: 3000 });
    const thirdOnA = follow(a, gameId, 0);
    await waitFor(() => thirdOnA.error !== undefined, 'the third subscription on the socket to be refused', { timeout: 3000 });
    expect(errorCode(thirdOnA.error)).toMatch(/RATE_LIMITED/);
    expect(errorCode(thirdOnA.error)).toMatch(/WS_MAX_SUBSCRIPTIONS_PER_SOCKET/);

    const onB = follow(b, gameId, 0);
    await waitFor(() => onB.entries.length === 1, 'a third subscription of the player', { timeout: 3000 });
    const fourth = follow(b, gameId, 0);
    await waitFor(() => fourth.error !== undefined, 'the fourth subscription of the player to be refused', { timeout: 3000 });
    expect(errorCode(fourth.error)).toMatch(/RATE_LIMITED/);
    expect(errorCode(fourth.error)).toMatch(/WS_MAX_SUBSCRIPTIONS_PER_PLAYER/);

    // Completing one frees its place.
    onA[0].stop();
    const fifth = follow(a, gameId, 0);
    await waitFor(() => fifth.entries.length === 1 || fifth.error !== undefined, 'a subscription after one ended', { timeout: 3000 });
    expect(fifth.error).toBeUndefined();
    await Promise.all([a.dispose(), b.dispose()]);
  });

  it('closes a socket that sends a message over WS_MAX_MESSAGE_BYTES (1009)', async () => {
    const [p] = await players(tight, 1, 'big');
    const socket = new WebSocket(`${tight.baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${p.token}` } })));
      socket.on('message', (data) => (JSON.parse(String(data)).type === 'connection_ack' ? resolve() : undefined));
      socket.on('error', reject);
    });
    const query = `subscription { gameLog(gameId: "00000000-0000-0000-0000-000000000000") { seq } } # ${'x'.repeat(8192)}`;
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
    expect(await closed).toBe(1009);
  });

  it('closes a socket with no subscription after WS_IDLE_SECONDS (4408)', async () => {
    const [p] = await players(tight, 1, 'idle');
    const idle = connect(tight, p.token, false);
    await waitFor(() => idle.closes.length > 0, 'the idle socket to close', { timeout: 4000 });
    expect(idle.closes[0].code).toBe(4408);
    expect(tight.app.get(LiveConnections).socketsOf(p.id)).toBe(0);
  });
});
