// @mizerka/client against the real server: sign-in (token, session with refresh, OAuth PKCE),
// moves (keys, versions, the retry), paging, the live streams resuming after a drop, typed
// errors, rate limits; and the bot kit (examples/bot.ts, examples/bot.py) playing whole games.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { quietFor, waitFor } from '../../../test/wait.js';
import { PrismaService } from '../../../apps/api/src/prisma/prisma.service.js';
import { FAST } from '../../../apps/api/src/bots/bots.test-kit.js';
import { ERROR_STATUS } from '../../../apps/api/src/common/errors.js';
import { choose, runBot } from '../../../examples/bot.js';
import {
  authorizeUrl,
  createPkcePair,
  createState,
  exchangeCode,
  isMizerkaError,
  MizerkaError,
  MizerkaClient,
  readRedirect,
  readSse,
  realClock,
  SERVER_ERROR_CODES,
  type Clock,
  type FeedEvent,
  type GameLogEntry,
  type SocketState,
} from './index.js';
import * as sdk from './index.js';
import { coreScenarios } from './core.test-kit.js';
// @ts-expect-error: a plain ESM script of the build, without types
import { generateClientTypes, OUTPUT_FILE } from '../codegen.mjs';

const PYTHON_BOT = fileURLToPath(new URL('../../../examples/bot.py', import.meta.url));

let t: TestApp;
let n = 0;
const uniqueName = (prefix: string) => `${prefix}${process.pid % 10_000}x${n++}`;

beforeAll(async () => {
  t = await startTestApp(FAST);
});
afterAll(async () => {
  await t?.close();
});

/** A client of the test app as a new bot account. */
async function botClient(options: Partial<ConstructorParameters<typeof MizerkaClient>[0]> = {}) {
  const client = new MizerkaClient({ baseUrl: t.baseUrl, webSocket: WebSocket, reconnect: { minMs: 10, maxMs: 50 }, ...options });
  const { token } = await client.register(uniqueName('sdk'), { bot: true });
  return { client, token };
}

/** A `short` game of `client`'s player at seat 0 against two server bots of `level`: its id. */
async function gameAgainstBots(client: MizerkaClient, level: 'random' | 'basic' = 'random'): Promise<string> {
  const lobby = await client.createLobby({ preset: 'short', rated: false });
  await client.addBot(lobby.id, level);
  const started = await client.addBot(lobby.id, level);
  expect(started.status).toBe('started');
  return started.gameId!;
}

/** Waits, without polling the server in a loop of its own, until it is `client`'s turn in the game. */
async function myTurnIn(client: MizerkaClient, gameId: string) {
  for (let i = 0; i < 400; i++) {
    const game = await client.game(gameId);
    if (game.view.legalMoves?.seat === game.mySeat || game.status !== 'active') return game;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('never my turn');
}

describe('the package', () => {
  it('knows every error code the server answers with', () => {
    expect([...SERVER_ERROR_CODES].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
  });

  it('reads server-sent events as the standard says, split anywhere', async () => {
    const text = ': keep-alive\n\nid: 7-1\nevent: yourTurn\ndata: {"a":\ndata: 1}\n\r\ndata:x\r\n\r\nid: 9\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 5) controller.enqueue(bytes.slice(i, i + 5));
        controller.close();
      },
    });
    const messages = [];
    const comments: string[] = [];
    for await (const message of readSse(body, undefined, (text) => comments.push(text))) messages.push(message);
    expect(comments).toEqual(['keep-alive']);
    expect(messages).toEqual([
      { id: '7-1', event: 'yourTurn', data: '{"a":\n1}' },
      { id: undefined, event: 'message', data: 'x' },
    ]);
  });

  it('is typed from the committed schema as it stands (npm run client:codegen)', async () => {
    expect(await generateClientTypes()).toBe(readFileSync(OUTPUT_FILE, 'utf8'));
  });
});

describe('signing in', () => {
  it('signs in a browser app with OAuth PKCE and refreshes its grant', async () => {
    const { client: owner, token } = await botClient();
    const redirectUri = 'http://127.0.0.1:9/callback';
    const made = await owner.request(`mutation($input: CreateOAuthAppInput!) { createOAuthApp(input: $input) { clientId } }`, {
      input: { name: 'SDK test app', redirectUris: [redirectUri] },
    });
    const clientId = (made as { createOAuthApp: { clientId: string } }).createOAuthApp.clientId;

    const pkce = await createPkcePair();
    expect(pkce.verifier).toMatch(/^[A-Za-z0-9\-_]{64}$/);
    const state = createState();
    const url = authorizeUrl({ baseUrl: t.baseUrl, clientId, redirectUri, challenge: pkce.challenge, state, scopes: ['read', 'play'] });
    // The browser goes there; the server sends it to the consent page, where the player approves.
    const consent = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!, t.baseUrl);
    const approved = await t.gql(`mutation($id: ID!) { approveOAuthRequest(id: $id) { redirectTo } }`, { id: consent.searchParams.get('request') }, token);
    const redirectedTo = approved.data!.approveOAuthRequest.redirectTo as string;
    expect(() => readRedirect(redirectedTo, 'another state')).toThrow(/state/);
    const code = readRedirect(redirectedTo, state);

    const tokens = await exchangeCode({ baseUrl: t.baseUrl, clientId, redirectUri, code, verifier: pkce.verifier });
    expect(tokens.scopes.sort()).toEqual(['play', 'read']);
    const app = new MizerkaClient({ baseUrl: t.baseUrl });
    const session = app.useOAuthTokens(tokens, clientId);
    const me = await owner.me();
    expect((await app.me()).id).toBe(me.id);
    await session.refresh();
    expect(session.current.refreshToken).not.toBe(tokens.refreshToken);
    expect((await app.me()).id).toBe(me.id);
    // A code is good once.
    const again = await exchangeCode({ baseUrl: t.baseUrl, clientId, redirectUri, code, verifier: pkce.verifier }).catch((e: MizerkaError) => e);
    expect(again).toMatchObject({ code: 'UNAUTHENTICATED', details: { oauthError: 'invalid_grant' } });
  });
});

describe('the socket', () => {
  /** A WebSocket whose connections this test sees: their URLs and the token each connected with. */
  function recordingWebSocket() {
    const opened: { url: string; token: string | null; socket: WebSocket }[] = [];
    class Recording extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        const seen = { url: String(args[0]), token: null as string | null, socket: this as WebSocket };
        opened.push(seen);
        const send = this.send.bind(this);
        this.send = ((data: string, ...rest: never[]) => {
          const message = JSON.parse(String(data)) as { type: string; payload?: { authorization?: string } };
          if (message.type === 'connection_init') seen.token = message.payload?.authorization?.replace('Bearer ', '') ?? null;
          return send(data, ...rest);
        }) as typeof this.send;
      }
    }
    return { Recording, opened };
  }

  /** Resolves once `check` holds, looking every 20 ms (for 20 s at most). */
  async function until(check: () => boolean, what: string) {
    for (let i = 0; i < 2500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    if (!check()) throw new Error(`never: ${what}`);
  }

  it('takes a baseUrl relative to the page (same origin) for requests and the socket', async () => {
    const page = new URL(`${t.baseUrl}/#/games`);
    vi.stubGlobal('location', { href: page.href });
    onTestFinished(() => void vi.unstubAllGlobals());
    const asked: string[] = [];
    // What a browser's fetch does with a relative URL: resolve it against the page.
    const browserFetch: typeof fetch = (input, init) => (asked.push(String(input)), fetch(new URL(String(input), page), init));
    const { Recording, opened } = recordingWebSocket();
    const { client } = await botClient({ baseUrl: '', fetch: browserFetch, webSocket: Recording });
    const gameId = await gameAgainstBots(client);
    for await (const entry of client.gameLog(gameId)) if (entry.seq >= 1) break;
    expect(asked.every((url) => url === '/graphql')).toBe(true);
    expect(opened[0].url).toBe(`ws://${page.host}/graphql`);
    await client.close();
    expect(() => new MizerkaClient({ baseUrl: 'localhost:3000' })).toThrow(/baseUrl/);
  }, 60_000);

  it('tells its state (connecting, connected, reconnecting after a loss, idle) and when it is back', async () => {
    const { Recording, opened } = recordingWebSocket();
    const { client } = await botClient({ webSocket: Recording });
    const states: SocketState[] = [];
    client.onSocketState((state) => states.push(state));
    let reconnected = 0;
    client.onReconnected(() => reconnected++);
    const gameId = await gameAgainstBots(client);
    const entries: number[] = [];
    // Entries after the loss: this player's moves once the socket is back, until there are three
    // (the bots' come anyway; a move of this player may be followed by another of its own).
    const moving = (async () => {
      await until(() => opened.length === 2 && client.socketState === 'connected', 'reconnected');
      for (let i = 0; i < 400 && entries.length < 3; i++) {
        const game = await client.game(gameId);
        if (game.status !== 'active') break;
        if (game.view.legalMoves?.seat === game.mySeat) await client.play(gameId, (view) => choose(view.legalMoves!));
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    for await (const entry of client.gameLog(gameId)) {
      entries.push(entry.seq);
      if (entries.length === 1) {
        await until(() => client.socketState === 'connected', 'connected');
        opened[0].socket.terminate(); // the network drops it
        await until(() => client.socketState === 'reconnecting', 'reconnecting');
      }
      if (entries.length === 3) break;
    }
    await moving;
    expect(entries).toEqual([entries[0], entries[0] + 1, entries[0] + 2]);
    expect(reconnected).toBe(1);
    await until(() => client.socketState === 'idle', 'idle after the last subscription');
    expect(states).toEqual(['idle', 'connecting', 'connected', 'reconnecting', 'connected', 'idle']);
    await client.close();
  }, 120_000);

  it("renews a session's socket with the next token before the old one expires, without a loss", async () => {
    // The renewal's wait (minutes) is held here and ended by the test; a short wait (backoff) is real.
    let offset = 0;
    const planned: { ms: number; wake: () => void }[] = [];
    const clock: Clock = {
      now: () => Date.now() + offset,
      sleep: (ms, signal) =>
        ms < 30_000
          ? realClock.sleep(ms, signal)
          : new Promise((resolve, reject) => {
              planned.push({ ms, wake: resolve });
              signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
            }),
    };
    const { Recording, opened } = recordingWebSocket();
    const client = new MizerkaClient({ baseUrl: t.baseUrl, clock, webSocket: Recording, reconnect: { minMs: 10, maxMs: 50 } });
    const name = uniqueName('renew');
    await new MizerkaClient({ baseUrl: t.baseUrl }).signUp(name, 'correct horse battery');
    // Once refreshed, the clock is right again.
    const session = await client.signIn(name, 'correct horse battery', { onTokens: () => (offset = 0) });
    const states: SocketState[] = [];
    client.onSocketState((state) => states.push(state));
    const gameId = await gameAgainstBots(client);
    const stop = new AbortController();
    const entries: number[] = [];
    const following = (async () => {
      for await (const entry of client.gameLog(gameId, { signal: stop.signal })) entries.push(entry.seq);
    })();
    // Connected, the socket plans its renewal for the session's renewAt (60 s before expiry).
    await until(() => planned.length === 1, 'a renewal planned');
    const renewAt = session.renewAt()!;
    expect(planned[0].ms).toBeGreaterThanOrEqual(renewAt - Date.now());
    expect(planned[0].ms).toBeLessThan(renewAt - Date.now() + 30_000); // planned as it connected, moments ago
    // That time comes.
    offset = renewAt - Date.now() + 1000;
    planned[0].wake();
    // By the plan: the socket opens again with the refreshed token.
    await until(() => opened.length === 2 && opened[1].token !== null, 'renewed by the plan');
    expect(opened[1].token).toBe(session.current.accessToken);
    expect(opened[1].token).not.toBe(opened[0].token);
    // By a refresh made elsewhere (a request near expiry, another tab): the same.
    await until(() => client.socketState === 'connected', 'connected again');
    await session.refresh();
    await until(() => opened.length === 3 && opened[2].token === session.current.accessToken, 'renewed after a refresh');
    await until(() => client.socketState === 'connected', 'connected a third time');
    // The subscription goes on over the renewed socket: neither gap nor repeat.
    const before = entries.length;
    await myTurnIn(client, gameId);
    await client.play(gameId, (view) => choose(view.legalMoves!));
    await until(() => entries.length > before, 'the move over the renewed socket');
    stop.abort();
    await following;
    expect(entries).toEqual(entries.map((_, i) => entries[0] + i));
    expect(states).not.toContain('reconnecting');
    await client.close();
  }, 120_000);
});

describe('core scenarios', () => {
  coreScenarios(() => sdk, () => t);
});

// A short game is ~400 log entries (a third of them the bot's moves). On a shared 2-core machine
// at a load of ~30 a game took 92 s (Python) to 418 s (TypeScript, with three followers), at a
// load of ~10 33 s (TypeScript) and 42 s (Python): the time-outs are for such a machine.
describe('the bot kit', () => {
  it('examples/bot.ts plays a whole short game through its feed; gameLog over graphql-ws and over SSE resume after a dropped connection with neither gap nor repeat', async () => {
    // Sockets and streams this test can cut, as a network would.
    const sockets: WebSocket[] = [];
    class CuttableWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets.push(this);
      }
    }
    const streamCuts: (() => void)[] = [];
    const lastEventIds: (string | null)[] = [];
    const cuttable: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/events/stream') || !response.body) return response;
      lastEventIds.push(new Headers(init?.headers).get('last-event-id'));
      const reader = response.body.getReader();
      let cut: (error: Error) => void = () => undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          cut = (error) => {
            controller.error(error);
            void reader.cancel();
          };
        },
        async pull(controller) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      streamCuts.push(() => cut(new TypeError('terminated')));
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const { client, token } = await botClient({ webSocket: CuttableWebSocket, fetch: cuttable });
    const gameId = await gameAgainstBots(client);
    const watcher = new MizerkaClient({ baseUrl: t.baseUrl, token, webSocket: CuttableWebSocket, fetch: cuttable, reconnect: { minMs: 10, maxMs: 50 } });

    // Followers of the game's first entries, cut after the third; and the feed over graphql-ws.
    const overWs: GameLogEntry[] = [];
    const overSse: GameLogEntry[] = [];
    const feedOverWs: FeedEvent[] = [];
    const stopAll = new AbortController(); // a failing test leaves nothing reconnecting to a closed app
    onTestFinished(() => stopAll.abort());
    const following = Promise.all([
      (async () => {
        for await (const entry of watcher.gameLog(gameId, { signal: stopAll.signal })) {
          overWs.push(entry);
          if (overWs.length === 3) sockets.filter((socket) => socket.readyState === WebSocket.OPEN).forEach((socket) => socket.terminate());
          if (overWs.length === 8) break;
        }
      })(),
      (async () => {
        for await (const entry of watcher.gameStream(gameId, { signal: stopAll.signal })) {
          overSse.push(entry);
          if (overSse.length === 3) streamCuts.forEach((cut) => cut());
          if (overSse.length === 8) break;
        }
      })(),
      (async () => {
        for await (const event of watcher.myEvents({ signal: stopAll.signal })) {
          feedOverWs.push(event);
          if (event.type === 'yourTurn' && event.gameId === gameId) break;
        }
      })(),
    ]);

    const started = performance.now();
    await runBot(client, gameId);
    const took = performance.now() - started;
    await following;

    const game = await client.game(gameId);
    expect(game.status).toBe('finished');
    const seqs = (entries: GameLogEntry[]) => entries.map((e) => e.seq);
    const first8 = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(seqs(overWs)).toEqual(first8);
    expect(seqs(overSse)).toEqual(first8);
    expect(sockets.length).toBeGreaterThan(1); // reconnected
    expect(lastEventIds).toContain('3'); // resumed after the last entry received
    expect(feedOverWs.some((e) => e.type === 'yourTurn' && e.gameId === gameId)).toBe(true);
    const moves = await t.gql(`query($id: ID!) { gameEvents(gameId: $id, after: 0) { entries { seat actor } } }`, { id: gameId });
    const entries = moves.data!.gameEvents.entries as { seat: number | null; actor: string }[];
    expect(entries.filter((e) => e.seat === 0 && e.actor === 'player').length).toBeGreaterThan(0);
    expect(entries.every((e) => e.seat !== 0 || e.actor === 'player')).toBe(true);
    console.log(`examples/bot.ts: a short game of ${game.version} log entries in ${Math.round(took)} ms`);
    await watcher.close();
    await client.close();
  }, 600_000);

  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)('examples/bot.py (standard library only) plays a whole short game over REST and SSE', async () => {
    const { client, token } = await botClient();
    const gameId = await gameAgainstBots(client);
    const started = performance.now();
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('python3', [PYTHON_BOT], { env: { PATH: process.env.PATH ?? '', BASE_URL: t.baseUrl, BOT_TOKEN: token, GAME_ID: gameId }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const stop = setTimeout(() => child.kill(), 580_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(stop);
        resolve({ code, output });
      });
    });
    expect(run.code, run.output).toBe(0);
    expect(JSON.parse(run.output.trim().split('\n').at(-1)!)).toMatchObject({ finished: gameId });
    expect((await client.game(gameId)).status).toBe('finished');
    console.log(`examples/bot.py: a short game in ${Math.round(performance.now() - started)} ms`);
  }, 600_000);
  if (!python) it('examples/bot.py: skipped, no python3 on this machine', () => undefined);
});

describe('live streams', () => {
  it("feed(): `ready` waits for the server's `: ready` (its start fixed), not only its headers, so nothing committed after it is missed", async () => {
    // The headers of the SSE answer, as they reach the client.
    let headersCame = false;
    const watching: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes('/me/events')) headersCame = true;
      return response;
    };
    const { client } = await botClient({ fetch: watching });
    // Hold the server's read of where the feed stands (the stream's start) behind a lock.
    const prisma = t.app.get(PrismaService);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const lock = prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`LOCK TABLE player_events IN ACCESS EXCLUSIVE MODE`;
        locked();
        await held;
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
    lock.catch(() => undefined); // awaited below
    onTestFinished(() => release());
    await isLocked;
    const stop = new AbortController();
    onTestFinished(() => stop.abort());
    const feed = client.feed({ signal: stop.signal });
    let ready = false;
    void feed.ready.then(() => (ready = true));
    await waitFor(() => headersCame, 'the stream\'s headers');
    await quietFor(300); // far longer than a resolved promise takes to be seen
    expect(ready).toBe(false);
    release();
    await lock;
    await feed.ready;
    // What is committed from now on reaches the stream.
    const gameId = await gameAgainstBots(client);
    for await (const event of feed) {
      expect(event.gameId).toBe(gameId);
      break;
    }
  });
});

describe('rate limits', () => {
  it('waits the window out when the budget is spent, and retries a RATE_LIMITED answer after retryAfter', async () => {
    const limited = await startTestApp({ rateLimitPerMinute: 4 }, t.databaseUrl);
    try {
      const waits: number[] = [];
      const clock: Clock = { now: () => Date.now(), sleep: async (ms) => void waits.push(ms) };
      const client = new MizerkaClient({ baseUrl: limited.baseUrl, clock, rateLimitRetries: 1 });
      const { token } = await limited.register(uniqueName('limited'));
      client.useCredentials({ token: async () => token, refused: async () => null });
      for (let i = 0; i < 3; i++) await client.me();
      expect(client.rateLimit).toMatchObject({ limit: 4, remaining: 1 });
      await client.me(); // the last of the budget: remaining 0
      expect(waits).toEqual([]);
      // The budget is spent: the client waits for the window's end before sending (this clock
      // does not really wait, so the server refuses, and the client waits retryAfter once more).
      const error = await client.me().catch((e: unknown) => e);
      expect(isMizerkaError(error, 'RATE_LIMITED')).toBe(true);
      expect(waits.length).toBeGreaterThanOrEqual(2);
      expect(waits[0]).toBeGreaterThan(1000);
      expect(waits[0]).toBeLessThanOrEqual(60_000);
    } finally {
      await limited.close();
    }
  });
});
