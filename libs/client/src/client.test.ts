// @mizerka/client against the real server: sign-in (token, session with refresh, OAuth PKCE),
// moves (keys, versions, the retry), paging, the live streams resuming after a drop, typed
// errors, rate limits; and the bot kit (examples/bot.ts, examples/bot.py) playing whole games.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
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
} from './index.js';
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
  it('uses a personal token, and answers typed errors', async () => {
    const { client } = await botClient();
    expect(await client.me()).toMatchObject({ kind: 'bot', botLevel: null });
    const error = await client.game('not-a-uuid').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MizerkaError);
    expect(error).toMatchObject({ code: 'BAD_INPUT' });
    const missing = await client.game('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(isMizerkaError(missing, 'NOT_FOUND')).toBe(true);
    const anonymous = new MizerkaClient({ baseUrl: t.baseUrl });
    expect(await anonymous.me().catch((e: MizerkaError) => e.code)).toBe('UNAUTHENTICATED');
  });

  it('signs in with a password and trades the refresh token, once, before the access token expires', async () => {
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset, sleep: realClock.sleep };
    const client = new MizerkaClient({ baseUrl: t.baseUrl, clock });
    const name = uniqueName('person');
    await new MizerkaClient({ baseUrl: t.baseUrl }).signUp(name, 'correct horse battery');
    const pairs: string[] = [];
    const session = await client.signIn(name.toUpperCase(), 'correct horse battery', { onTokens: (tokens) => pairs.push(tokens.refreshToken) });
    const first = session.current;
    expect((await client.me()).name).toBe(name);
    expect(pairs).toHaveLength(0);

    // 30 s before expiry (inside the default 60 s margin): three requests at once, one refresh.
    offset = first.accessTokenExpiresAt - Date.now() - 30_000;
    const mes = await Promise.all([client.me(), client.me(), client.me()]);
    expect(mes.map((m) => m.name)).toEqual([name, name, name]);
    expect(pairs).toHaveLength(1);
    expect(session.current.accessToken).not.toBe(first.accessToken);
    // The first refresh token is used up: the server ends a session whose refresh token comes twice.
    const reused = await t.gql(`mutation($r: String!) { refreshSession(input: { refreshToken: $r }) { accessToken } }`, { r: first.refreshToken });
    expect(reused.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await client.me().catch((e: MizerkaError) => e.code)).toBe('UNAUTHENTICATED');
  });

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

describe('moves', () => {
  it('sends the version it read and a key; a lost answer is asked again with the same key and done once', async () => {
    const sent: { key: string; expectedVersion: number }[] = [];
    let loseNext = false;
    const lossy: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const response = await fetch(input, init);
      if (body.includes('mutation MakeMove')) {
        const { input: move } = JSON.parse(body).variables;
        sent.push({ key: move.idempotencyKey, expectedVersion: move.expectedVersion });
        if (loseNext) {
          loseNext = false;
          throw new TypeError('fetch failed'); // the move was done; its answer is lost on the way
        }
      }
      return response;
    };
    const { client } = await botClient({ fetch: lossy });
    const gameId = await gameAgainstBots(client);
    const game = await myTurnIn(client, gameId);
    loseNext = true;
    const result = await client.move(gameId, choose(game.view.legalMoves!));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toEqual({ key: sent[1].key, expectedVersion: game.version });
    expect(result.version).toBeGreaterThan(game.version);
    const log = await t.gql(`query($id: ID!) { gameEvents(gameId: $id, after: 0) { entries { seq seat actor } } }`, { id: gameId }, undefined);
    const mine = log.data!.gameEvents.entries.filter((e: { actor: string }) => e.actor === 'player');
    expect(mine).toHaveLength(1);

    // Out of turn, or on a version that is gone: typed errors.
    const stale = await client.move(gameId, choose(game.view.legalMoves!), { expectedVersion: game.version }).catch((e: unknown) => e);
    expect(isMizerkaError(stale, 'CONFLICT', 'NOT_YOUR_TURN')).toBe(true);
    await client.resign(gameId);
    expect((await client.game(gameId)).status).not.toBe('active');
  });

  it('play() reads the table again after a CONFLICT and decides again', async () => {
    let spoil = true;
    const spoiling: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (spoil && body.includes('mutation MakeMove')) {
        spoil = false;
        const parsed = JSON.parse(body);
        parsed.variables.input.expectedVersion -= 1; // as if the clock had moved for us meanwhile
        return fetch(input, { ...init, body: JSON.stringify(parsed) });
      }
      return fetch(input, init);
    };
    const { client } = await botClient({ fetch: spoiling });
    const gameId = await gameAgainstBots(client);
    await myTurnIn(client, gameId);
    let decisions = 0;
    const result = await client.play(gameId, (view) => {
      decisions++;
      return choose(view.legalMoves!);
    });
    expect(decisions).toBe(2);
    expect(result?.gameId).toBe(gameId);
    // Not the caller's move (a player not seated here; the bots may already have brought the
    // turn back to the seat above): no decision asked, null.
    const { client: onlooker } = await botClient();
    expect(await onlooker.play(gameId, () => expect.unreachable(), { attempts: 1 })).toBeNull();
    await client.resign(gameId);
  });
});

describe('paging', () => {
  it('walks every page of a list as an async iterator', async () => {
    const { client } = await botClient();
    const preset = 'classic-4';
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await client.createLobby({ preset })).id);
    const seen: string[] = [];
    let requests = 0;
    const counting = new MizerkaClient({ baseUrl: t.baseUrl, fetch: (input, init) => (requests++, fetch(input, init)) });
    for await (const lobby of counting.lobbies({ preset, pageSize: 1 })) seen.push(lobby.id);
    expect(seen).toEqual(expect.arrayContaining(made));
    expect(new Set(seen).size).toBe(seen.length);
    expect(requests).toBeGreaterThanOrEqual(3);
  });
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
