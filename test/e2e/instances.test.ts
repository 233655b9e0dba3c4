// Issue "Several instances", its Tests section: two real server processes (HTTP and graphql-ws)
// on one database and one Redis. A game played move by move through A and B alternately reaches
// gameLog subscribers on both, every entry once and in order (and a player's SSE feed on B gets
// every yourTurn); a token revoked on A is refused on
// B at the next request (with AUTH_CACHE_SECONDS=60 only the notice can explain it); a rate limit
// spent through A counts on B. Redis killed mid-game: moves go on, readiness says degraded, the
// other instance's subscribers get every entry by the periodic re-read, and once redis-server is
// back on its port the buses reconnect and notices flow again. One instance SIGKILLed while games
// are played through both: no acknowledged move is lost, the survivor keeps serving, and the
// killed one's clients resume there (a subscriber with its last seq: nothing missed, nothing twice).
// Each test prints its figures (delivery delays across instances, with Redis up, down and back).
//
// Every Redis here is a redis-server child of this file on a free port (never the machine's
// 6379), so the rate-limit counts and the bus's channels are this file's alone.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openSse } from '../../apps/api/src/inbox/sse.test-kit.js';
import { createTestDatabase, withClient } from '../database.js';
import {
  chooseMove,
  data,
  EVENT_FIELDS,
  http,
  MAKE_MOVE,
  register,
  registerMany,
  restEventLog,
  rng,
  seatTable,
  sleep,
  toMove,
  turnOf,
  withoutNulls,
  type Chance,
  type Http,
  type Player,
} from './clients.js';
import { freePort, kill, startServer, type Server } from './server-process.js';
import { serviceThere } from '../services.js';

const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';
const haveRedisServer = serviceThere(
  'the several-instances tests',
  spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' }).status === 0 ? null : `no ${REDIS_SERVER} binary to run a Redis of their own (apt-get install -y redis-server, or set REDIS_SERVER)`,
);

/** A game's hub re-reads every 5 s with REDIS_URL (GameFollowers' pollMs). */
const REREAD_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// redis-server children

interface RedisChild {
  port: number;
  url: string;
  child: ChildProcess;
  exited: Promise<void>;
}

const redisChildren: ChildProcess[] = [];

/** PING over a raw socket: true when +PONG comes back within half a second. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(String(chunk).startsWith('+PONG')));
  });
}

async function startRedis(port?: number): Promise<RedisChild> {
  const chosen = port ?? (await freePort());
  const child = spawn(REDIS_SERVER, ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  redisChildren.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await ping(chosen))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not come up on port ${chosen}`);
    await sleep(50);
  }
  return { port: chosen, url: `redis://127.0.0.1:${chosen}`, child, exited };
}

/** The bus's channels (instance-bus.ts, with the default REDIS_PREFIX). */
const BUS_CHANNELS = ['game-log', 'feed', 'revoked'].map((c) => `mizerka:bus:${c}`);

/** PUBSUB NUMSUB over a raw socket: how many connections are subscribed to `channel` (null: no answer). */
function subscribers(port: number, channel: string): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (n: number | null) => (socket.destroy(), resolve(n));
    socket.setTimeout(500, () => done(null));
    socket.once('error', () => done(null));
    socket.once('connect', () => socket.write(['PUBSUB', 'NUMSUB', channel].reduce((out, arg) => `${out}$${Buffer.byteLength(arg)}\r\n${arg}\r\n`, '*3\r\n')));
    socket.on('data', (chunk) => {
      reply += String(chunk);
      const count = /\r\n:(\d+)\r\n$/.exec(reply); // *2, the channel, then its count
      if (count) done(Number(count[1]));
    });
  });
}

async function stopRedis(redis: RedisChild, signal: NodeJS.Signals = 'SIGKILL') {
  if (redis.child.exitCode === null && redis.child.signalCode === null) redis.child.kill(signal);
  await redis.exited;
}

afterAll(() => {
  for (const child of redisChildren) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

// ---------------------------------------------------------------------------------------------
// Small helpers

async function until<T>(check: () => T | null | undefined | false | Promise<T | null | undefined | false>, what: string, ms = 20_000, every = 20): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

/** `info.redis.state` of /health/ready, with the HTTP status. */
async function readiness(server: Server): Promise<{ status: number; state: string | undefined }> {
  const response = await fetch(`${server.url}/health/ready`, { signal: AbortSignal.timeout(3000) });
  const body = (await response.json()) as { info?: { redis?: { state?: string } } };
  return { status: response.status, state: body.info?.redis?.state };
}

function stats(values: number[]): string {
  if (values.length === 0) return 'none';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `n=${sorted.length} min=${sorted[0]} median=${at(0.5)} p95=${at(0.95)} max=${sorted.at(-1)} ms`;
}

/** A network failure (the server is gone), as opposed to an answer. */
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));
}

// ---------------------------------------------------------------------------------------------
// gameLog subscribers over graphql-ws

const GAME_LOG = `subscription($gameId: ID!, $after: Int) {
  gameLog(gameId: $gameId, after: $after) { seq kind dealIndex seat events { ${EVENT_FIELDS} } }
}`;

interface Entry {
  seq: number;
  kind: string;
  dealIndex: number;
  seat: number | null;
  events: Record<string, unknown>[];
}

interface Follower {
  label: string;
  token: string;
  gameId: string;
  /** Everything received, over every subscription it made, in arrival order. */
  entries: Entry[];
  /** seq → when it arrived (the first time). */
  arrivals: Map<number, number>;
  completed: boolean;
  /** An error that is not a dropped socket (GraphQL errors, a refused subscription). */
  errors: unknown[];
  /** Close codes of its sockets. */
  closes: { code: number; reason: string; at: number }[];
  /** Its subscription ended because the socket went away (not completed). */
  dropped: boolean;
  client: Client | null;
}

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
});

function follower(label: string, token: string, gameId: string): Follower {
  return { label, token, gameId, entries: [], arrivals: new Map(), completed: false, errors: [], closes: [], dropped: false, client: null };
}

/** Subscribes `f` on `server` after its last seq received (0 at first). */
function subscribe(f: Follower, server: Server): void {
  const client = createClient({
    url: `${server.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${f.token}` },
    retryAttempts: 0,
    lazy: true,
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: unknown };
        f.closes.push({ code, reason: String(reason), at: Date.now() });
      },
    },
  });
  clients.push(client);
  f.client = client;
  f.dropped = false;
  const after = f.entries.at(-1)?.seq ?? 0;
  client.subscribe<{ gameLog: Entry }>(
    { query: GAME_LOG, variables: { gameId: f.gameId, after } },
    {
      next: (message) => {
        if (message.errors) f.errors.push(message.errors);
        else {
          const entry = message.data!.gameLog;
          if (!f.arrivals.has(entry.seq)) f.arrivals.set(entry.seq, Date.now());
          f.entries.push(entry);
        }
      },
      error: (error) => {
        // A dropped socket arrives as its CloseEvent; anything else is a real error.
        if (!Array.isArray(error) && typeof (error as { code?: unknown })?.code === 'number') f.dropped = true;
        else f.errors.push(error);
      },
      complete: () => {
        f.completed = true;
      },
    },
  );
}

/** The same entry, as a subscriber and the REST log show it. */
function comparable(entry: { seq: number; kind: string; dealIndex: number; seat: number | null; events: unknown[] }) {
  return withoutNulls({ seq: entry.seq, kind: entry.kind, dealIndex: entry.dealIndex, seat: entry.seat, events: entry.events });
}

/** The follower saw exactly the REST log of its viewer: every entry once, in order, the same content. */
async function expectSawTheLog(h: Http, f: Follower) {
  const log = await restEventLog(h, f.gameId, f.token);
  expect(log.entries.map((e) => e.seq), `${f.label}: the REST log is contiguous`).toEqual(Array.from({ length: log.version }, (_, i) => i + 1));
  expect(f.entries.map((e) => e.seq), `${f.label}: every entry exactly once, in order`).toEqual(log.entries.map((e) => e.seq));
  expect(f.entries.map(comparable), `${f.label}: the same entries as the REST log`).toEqual(log.entries.map(comparable));
  expect(f.errors, `${f.label}: no errors`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// A table played move by move through a chosen instance

interface Ack {
  gameId: string;
  version: number;
  seat: number;
  /** The seat to move after it (null: the game is over). */
  next: number | null;
  kind: string;
  via: string;
  sentAt: number;
  answeredAt: number;
}

/** Moves played through A and B before a resignation ends the game (a deal of `short` is ~45). */
const MOVES_BEFORE_RESIGNING = 100;

class Table {
  nextSeat: number | null = null;
  readonly acks: Ack[] = [];
  readonly random: Chance;

  constructor(
    readonly gameId: string,
    readonly players: Player[],
    seed: number,
  ) {
    this.random = rng(seed);
  }

  get finished() {
    return this.nextSeat === null && this.acks.length > 0;
  }

  /** A move sent without an answer (its server went away): the next step sends it again, same key. */
  pending: { input: Record<string, unknown>; seat: number; via: string } | null = null;

  /**
   * One move through `h`: the seat to move reads its own view there and sends a legal move with
   * an idempotency key (or resends the pending one). Throws on a refused move; a network failure
   * is thrown as is, leaving the move in `pending`.
   */
  async step(h: Http, via: string): Promise<Ack> {
    if (this.pending) return this.send(h, via, this.pending.input, this.pending.seat);
    if (this.nextSeat === null) this.nextSeat = await toMove(h, this.gameId);
    if (this.nextSeat === null) throw new Error(`game ${this.gameId} is over`);
    const turn = await turnOf(h, this.gameId, this.players[this.nextSeat]);
    const input = { gameId: this.gameId, expectedVersion: turn.version, idempotencyKey: randomBytes(8).toString('hex'), ...chooseMove(turn.legal, this.random) };
    this.pending = { input, seat: turn.seat, via };
    return this.send(h, via, input, turn.seat);
  }

  private async send(h: Http, via: string, input: Record<string, unknown>, seat: number): Promise<Ack> {
    const sentAt = Date.now();
    const answer = await h.gql(MAKE_MOVE, { input }, this.players[seat].token);
    this.pending = null;
    if (answer.errors) throw new Error(`move ${JSON.stringify(input)} through ${via}: ${JSON.stringify(answer.errors)}`);
    const result = answer.data.makeMove;
    this.nextSeat = result.status === 'finished' ? null : result.game.toMove;
    const ack: Ack = { gameId: this.gameId, version: result.version, seat, next: this.nextSeat, kind: String(input.kind), via, sentAt, answeredAt: Date.now() };
    this.acks.push(ack);
    return ack;
  }
}

/** The seq of the entry of a move answered with `version` (a deal dealt with it comes after). */
const moveSeq = (entries: any[], version: number) => (entries[version - 1]?.kind === 'deal' ? version - 1 : version);

/** Every acknowledged move is in the log at its place, by its seat, of its kind. */
async function expectAcknowledgedInLog(h: Http, table: Table) {
  const log = await restEventLog(h, table.gameId);
  expect(log.entries.map((e) => e.seq), 'versions are contiguous').toEqual(Array.from({ length: log.version }, (_, i) => i + 1));
  for (const ack of table.acks) {
    const entry = log.entries[moveSeq(log.entries, ack.version) - 1];
    expect(entry, `acknowledged move at version ${ack.version} (${ack.via})`).toBeDefined();
    expect(entry.seat).toBe(ack.seat);
    expect(entry.kind).toBe(ack.kind);
  }
  const moves = log.entries.filter((e) => e.kind !== 'deal').length;
  expect(moves, 'no move in the log that was not acknowledged (or retried)').toBe(new Set(table.acks.map((a) => moveSeq(log.entries, a.version))).size);
  return log;
}

/** How long after its request `f` (on the other instance) received each acknowledged move's entry. */
function delays(acks: Ack[], f: Follower, entries: { seq: number; kind: string }[]): number[] {
  return acks.map((a) => {
    const arrived = f.arrivals.get(moveSeq(entries, a.version));
    if (arrived === undefined) throw new Error(`${f.label} never got version ${a.version}`);
    return Math.max(0, arrived - a.sentAt);
  });
}

const REVOKE = 'mutation($id: ID!) { revokeApiToken(id: $id) { id revokedAt } }';
const CREATE_TOKEN = 'mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { token apiToken { id } } }';

// ---------------------------------------------------------------------------------------------

describe.skipIf(!haveRedisServer)('two instances on one database and one Redis', () => {
  let redis: RedisChild;
  let a: Server;
  let b: Server;
  let hA: Http;
  let hB: Http;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { DATABASE_URL: await createTestDatabase(), REDIS_URL: redis.url, AUTH_CACHE_SECONDS: '60' };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    hA = http(a.url, { timeoutMs: 20_000 });
    hB = http(b.url, { timeoutMs: 20_000 });
    for (const server of [a, b]) expect(await readiness(server)).toEqual({ status: 200, state: 'up' });
  }, 120_000);
  afterAll(async () => {
    for (const server of [a, b]) if (server) await kill(server, 'SIGTERM');
    if (redis) await stopRedis(redis, 'SIGTERM');
  });

  it('plays a game to its end through A and B alternately; subscribers on both see every entry once, in order', async () => {
    const players = await registerMany(hA, 2, 'inA');
    players.push(await register(hB, 'inB'));
    const [watcher] = await registerMany(hB, 1, 'inW');
    const { gameId } = await seatTable(hB, players, 'short');

    const onA = follower('seat 0 on A', players[0].token, gameId);
    const onB = follower('seat 1 on B', players[1].token, gameId);
    const spectatorB = follower('spectator on B', watcher.token, gameId);
    subscribe(onA, a);
    subscribe(onB, b);
    subscribe(spectatorB, b);
    await until(() => [onA, onB, spectatorB].every((f) => f.entries.length >= 1), 'the subscribers to get the first deal');
    // Seat 2's feed, as server-sent events from B (from now on).
    const feed = await openSse(`${b.url}/api/v1/me/events`, { authorization: `Bearer ${players[2].token}` });
    expect(feed.status).toBe(200);
    const feedFrames: { at: number; event: string; payload: any }[] = [];
    const reading = (async () => {
      for (;;) {
        const frame = await feed.next(120_000);
        if (!frame) return;
        feedFrames.push({ at: Date.now(), event: frame.event ?? '', payload: JSON.parse(frame.data ?? '{}').payload });
        if (frame.event === 'gameFinished') return;
      }
    })();
    await feed.ready(); // the stream follows from now on: it must have started before the first move

    const table = new Table(gameId, players, 11);
    const started = Date.now();
    // Two deals and more (a whole short game is ~390 moves: the cost, not the coverage, of the
    // rest), then seat 0 resigns through A: the end reaches every stream as a game's end does.
    for (let i = 0; !table.finished && i < MOVES_BEFORE_RESIGNING; i++) {
      if (i % 2 === 0) await table.step(hA, 'A');
      else await table.step(hB, 'B');
    }
    const playMs = Date.now() - started;
    if (!table.finished) {
      const sentAt = Date.now();
      const resigned = await hA.gql('mutation($input: ResignInput!) { resign(input: $input) { version status } }', { input: { gameId } }, players[0].token);
      expect(resigned.errors).toBeUndefined();
      expect(resigned.data.resign.status).not.toBe('active');
      // The log's `end` entry is acknowledged like a move.
      table.acks.push({ gameId, version: resigned.data.resign.version, seat: 0, next: null, kind: 'end', via: 'A', sentAt, answeredAt: Date.now() });
      table.nextSeat = null;
    }
    await until(() => [onA, onB, spectatorB].every((f) => f.completed), 'every subscription to complete after the last entry', 15_000);

    const log = await expectAcknowledgedInLog(hA, table);
    for (const f of [onA, onB, spectatorB]) await expectSawTheLog(hB, f);
    await reading;
    feed.close();
    // Seat 2's yourTurn events on B: one per turn of seat 2's, in order, then gameFinished.
    const turns = feedFrames.filter((f) => f.event === 'yourTurn');
    expect(turns.map((f) => f.payload.seq), 'a yourTurn on B for every turn of seat 2').toEqual(table.acks.filter((x) => x.next === 2).map((x) => x.version));
    expect(feedFrames.at(-1)?.event).toBe('gameFinished');
    const feedCross = turns.flatMap((f) => {
      const ack = table.acks.find((x) => x.version === f.payload.seq)!;
      return ack.via === 'A' ? [f.at - ack.sentAt] : [];
    });
    // The spectator got the entries redacted for a spectator: no hand, no exchanged cards.
    for (const event of spectatorB.entries.flatMap((e) => e.events)) {
      expect(event.hand ?? null).toBeNull();
      expect(event.discards ?? null).toBeNull();
      expect(event.drawn ?? null).toBeNull();
    }

    const viaA = table.acks.filter((x) => x.via === 'A');
    const viaB = table.acks.filter((x) => x.via === 'B');
    const crossAB = delays(viaA, onB, log.entries);
    const crossBA = delays(viaB, onA, log.entries);
    const local = [...delays(viaA, onA, log.entries), ...delays(viaB, onB, log.entries)];
    console.info(
      `[instances] short game, resigned after: ${table.acks.length} moves (${log.version} entries) in ${playMs} ms through A and B alternately\n` +
        `  move through A → subscriber on B (request sent → entry received): ${stats(crossAB)}\n` +
        `  move through B → subscriber on A: ${stats(crossBA)}\n` +
        `  same instance, for comparison: ${stats(local)}\n` +
        `  move through A → seat 2's yourTurn on its SSE stream on B: ${stats(feedCross)}`,
    );
    // Notices, not the 5 s re-read, carried them.
    const cross = [...crossAB, ...crossBA].sort((x, y) => x - y);
    expect(cross[Math.floor(cross.length * 0.95)]).toBeLessThan(1000);
  }, 120_000);

  it('a token revoked on A is refused on B at the very next request, and its socket on B closes', async () => {
    const players = await registerMany(hA, 3, 'rv');
    const { gameId } = await seatTable(hA, players, 'short');
    const figures: number[] = [];
    for (let round = 0; round < 3; round++) {
      const made = data(await hA.gql(CREATE_TOKEN, { input: { name: `second ${round}` } }, players[0].token), 'createApiToken');
      // B checks the token and caches it for AUTH_CACHE_SECONDS=60.
      expect(data(await hB.gql('query { me { id } }', {}, made.token), 'me').id).toBe(players[0].id);
      expect((await hB.rest('GET', '/api/v1/me', undefined, made.token)).status).toBe(200);
      const live = follower(`revoked token ${round} on B`, made.token, gameId);
      subscribe(live, b);
      await until(() => live.entries.length >= 1, 'the subscriber on B to start');

      const revoked = data(await hA.gql(REVOKE, { id: made.apiToken.id }, players[0].token), 'revokeApiToken');
      const revokedAt = Date.now();
      expect(revoked.revokedAt).not.toBeNull();
      const next = await hB.gql('query { me { id } }', {}, made.token);
      expect(next.errors?.[0]?.extensions?.code, 'B refuses the revoked token at the next request').toBe('UNAUTHENTICATED');
      expect((await hB.rest('GET', '/api/v1/me', undefined, made.token)).status).toBe(401);
      await until(() => live.closes.length > 0, 'the revoked token’s socket on B to close', 4_000, 5);
      figures.push(live.closes[0].at - revokedAt);
      expect(live.closes[0]).toMatchObject({ code: 4401, reason: 'UNAUTHENTICATED: this API token has been revoked' });
      // The player's first token is untouched, on both.
      expect(data(await hB.gql('query { me { id } }', {}, players[0].token), 'me').id).toBe(players[0].id);
    }
    console.info(`[instances] revoke on A → socket on B closed 4401 after: ${figures.join(', ')} ms (AUTH_CACHE_SECONDS=60)`);
  }, 60_000);
});

describe.skipIf(!haveRedisServer)('a rate limit spent through A', () => {
  it('counts on B: B answers 429 with the RateLimit headers', async () => {
    const LIMIT = 12;
    const redis = await startRedis();
    const env = { DATABASE_URL: await createTestDatabase(), REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    const hA = http(a.url);
    const hB = http(b.url);
    const player = await register(hA, 'rl');

    const first = await hB.rest('GET', '/api/v1/me', undefined, player.token);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    // The rest of the budget, through A: A's count goes on from B's.
    for (let spent = 2; spent <= LIMIT; spent++) {
      const response = await hA.rest('GET', '/api/v1/me', undefined, player.token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-remaining'), `request ${spent}`).toBe(String(LIMIT - spent));
    }
    const refused = await hB.rest('GET', '/api/v1/me', undefined, player.token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(refused.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const reset = Number(refused.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(Number(refused.headers.get('retry-after'))).toBe(reset);
    // GraphQL on B too, with the figures in extensions.
    const gql = await fetch(`${b.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${player.token}` },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(gql.status).toBe(429);
    const body = (await gql.json()) as any;
    expect(body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(body.extensions.rateLimit).toMatchObject({ limit: LIMIT, remaining: 0 });
    // Another player's budget is its own.
    const other = await register(hB, 'rl');
    expect((await hA.rest('GET', '/api/v1/me', undefined, other.token)).status).toBe(200);
    console.info(`[instances] RATE_LIMIT_PER_MINUTE=${LIMIT}: 1 request on B + ${LIMIT - 1} on A, then B answered 429 (Retry-After ${reset} s)`);

    await Promise.all([kill(a, 'SIGTERM'), kill(b, 'SIGTERM')]);
    await stopRedis(redis, 'SIGTERM');
  }, 90_000);
});

describe.skipIf(!haveRedisServer)('Redis killed mid-game', () => {
  it('moves go on, readiness is degraded, subscribers re-read; Redis back on its port: the buses reconnect and notices flow again', async () => {
    let redis = await startRedis();
    const env = { DATABASE_URL: await createTestDatabase(), REDIS_URL: redis.url };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    const hA = http(a.url, { timeoutMs: 20_000 });
    const hB = http(b.url, { timeoutMs: 20_000 });
    const players = await registerMany(hA, 3, 'rd');
    const { gameId } = await seatTable(hA, players, 'short');
    const onA = follower('seat 0 on A', players[0].token, gameId);
    const onB = follower('seat 1 on B', players[1].token, gameId);
    subscribe(onA, a);
    subscribe(onB, b);
    await until(() => onA.entries.length >= 1 && onB.entries.length >= 1, 'the subscribers to start');

    const table = new Table(gameId, players, 21);
    let turn = 0;
    /** `n` moves alternating A and B (or all through one); returns their acknowledgements. */
    const play = async (n: number, gapMs = 0, only?: 'A' | 'B') => {
      const acks: Ack[] = [];
      for (let i = 0; i < n; i++, turn++) {
        const viaA = only ? only === 'A' : turn % 2 === 0;
        acks.push(viaA ? await table.step(hA, 'A') : await table.step(hB, 'B'));
        if (gapMs) await sleep(gapMs);
      }
      return acks;
    };
    const caughtUp = () => until(() => [onA, onB].every((f) => f.entries.at(-1)?.seq === table.acks.at(-1)!.version), 'both subscribers to catch up', 15_000, 10);
    const crossDelays = (acks: Ack[], entries: { seq: number; kind: string }[]) => [
      ...delays(acks.filter((x) => x.via === 'A'), onB, entries),
      ...delays(acks.filter((x) => x.via === 'B'), onA, entries),
    ];

    const before = await play(8);
    await caughtUp();

    // Redis dies.
    await stopRedis(redis, 'SIGKILL');
    const killedAt = Date.now();
    await until(async () => (await readiness(a)).state === 'degraded' && (await readiness(b)).state === 'degraded', 'readiness to say degraded', 10_000, 50);
    const degradedAfter = Date.now() - killedAt;
    for (const server of [a, b]) expect(await readiness(server), 'ready, degraded').toEqual({ status: 200, state: 'degraded' });

    // Moves keep working on both; the other instance's subscribers get them by re-reading. Three
    // through A alone, then three through B alone, a second apart: a move through the subscriber's
    // own instance would wake its hub and carry the other's entries along, which is not the re-read.
    const down = await play(3, 1000, 'A');
    await caughtUp();
    down.push(...(await play(3, 1000, 'B')));
    await caughtUp();
    for (const server of [a, b]) expect((await readiness(server)).state).toBe('degraded');

    // redis-server again, on the same port: the buses reconnect by themselves.
    redis = await startRedis(redis.port);
    const restartedAt = Date.now();
    await until(async () => (await readiness(a)).state === 'up' && (await readiness(b)).state === 'up', 'readiness to say up again', 15_000, 50);
    const upAfter = Date.now() - restartedAt;
    // Ready is not yet subscribed: both instances' subscribers resubscribe once ready.
    await until(
      async () => (await Promise.all(BUS_CHANNELS.map((channel) => subscribers(redis.port, channel)))).every((n) => n === 2),
      'both instances to subscribe to the bus again',
      10_000,
      50,
    );
    const after = await play(8, 100);
    await caughtUp();

    const log = await expectAcknowledgedInLog(hA, table);
    for (const f of [onA, onB]) await expectSawTheLog(hB, f);
    const beforeDelays = crossDelays(before, log.entries);
    const downDelays = crossDelays(down, log.entries);
    const afterDelays = crossDelays(after, log.entries);
    console.info(
      `[instances] Redis SIGKILLed: readiness degraded on both after ${degradedAfter} ms; restarted: up again after ${upAfter} ms\n` +
        `  move through one instance → subscriber on the other, Redis up:        ${stats(beforeDelays)}\n` +
        `  … Redis down (the hubs' re-read every ${REREAD_MS} ms):               ${stats(downDelays)}\n` +
        `  … Redis back (notices again):                                          ${stats(afterDelays)}`,
    );
    // While Redis was down, the periodic re-read carried the entries: within its interval (and a read).
    expect(Math.max(...downDelays)).toBeLessThan(REREAD_MS + 1500);
    // … and nothing faster: three moves a second apart cannot all meet a tick of a 5 s timer within 1 s.
    expect(Math.max(...downDelays)).toBeGreaterThan(1000);
    // Once back, notices: well under the re-read interval, every one of them.
    expect(Math.max(...afterDelays)).toBeLessThan(1000);

    await Promise.all([kill(a, 'SIGTERM'), kill(b, 'SIGTERM')]);
    await stopRedis(redis, 'SIGTERM');
  }, 120_000);
});

describe.skipIf(!haveRedisServer)('SIGKILL one of two instances mid-load', () => {
  it('keeps every acknowledged move; the survivor serves on; the killed one’s clients resume there', async () => {
    const redis = await startRedis();
    const databaseUrl = await createTestDatabase();
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    const hA = http(a.url, { timeoutMs: 10_000, retryReset: false });
    const hB = http(b.url, { timeoutMs: 10_000, retryReset: false });
    const GAMES = 3;
    const tables: Table[] = [];
    const followers: { onA: Follower; onB: Follower }[] = [];
    for (let g = 0; g < GAMES; g++) {
      const players = await registerMany(g % 2 ? hB : hA, 3, `k${g}`);
      const { gameId } = await seatTable(g % 2 ? hB : hA, players, 'short');
      tables.push(new Table(gameId, players, 100 + g));
      const pair = { onA: follower(`game ${g} seat 0 on A`, players[0].token, gameId), onB: follower(`game ${g} seat 1 on B`, players[1].token, gameId) };
      subscribe(pair.onA, a);
      subscribe(pair.onB, b);
      followers.push(pair);
    }
    await until(() => followers.every((p) => p.onA.entries.length >= 1 && p.onB.entries.length >= 1), 'every subscriber to start');

    let aDead = false;
    const AFTER_KILL = 20;
    const retried: string[] = [];
    const refusedOnB: string[] = [];
    /** Each game's client: moves alternating A and B, then only B once A is gone. */
    const drivers = tables.map(async (table, g) => {
      let movesAfterKill = 0;
      for (let i = 0; movesAfterKill < AFTER_KILL && !table.finished; i++) {
        const useA = !aDead && i % 2 === 0;
        try {
          await table.step(useA ? hA : hB, useA ? 'A' : 'B');
        } catch (error) {
          if (!(useA && isNetworkError(error) && aDead)) {
            if (!useA) refusedOnB.push(String(error));
            throw error;
          }
          // A died under this request: the same move (its idempotency key) goes to B.
          if (table.pending) {
            retried.push(`game ${g}`);
            await table.step(hB, 'B (retry of a move sent to A)');
          }
        }
        if (aDead) movesAfterKill++;
      }
    });

    const driving = Promise.all(drivers);
    driving.catch(() => undefined); // awaited below; a failure must not surface as unhandled meanwhile
    const random = rng(7);
    await until(() => tables.reduce((n, t) => n + t.acks.length, 0) >= 30, 'some load on both instances', 30_000);
    await sleep(random(400));
    // Kill while a move is on its way to A, if one comes along within a second.
    await until(() => tables.some((t) => t.pending?.via === 'A'), 'a move in flight to A', 1000, 1).catch(() => undefined);
    const inFlight = tables.filter((t) => t.pending?.via === 'A').length;
    aDead = true;
    const killedAt = Date.now();
    await kill(a, 'SIGKILL');

    // A's subscribers lose their socket and resubscribe on B with their last seq.
    const resumed: number[] = [];
    await until(() => followers.every((p) => p.onA.dropped), 'A’s subscribers to see their socket drop', 10_000, 5);
    for (const { onA } of followers) {
      subscribe(onA, b);
      resumed.push(Date.now() - killedAt);
    }
    await driving;
    const versions = tables.map((t) => t.acks.at(-1)!.version);
    await until(
      () => followers.every((p, g) => p.onA.entries.at(-1)?.seq === versions[g] && p.onB.entries.at(-1)?.seq === versions[g]),
      'every subscriber to reach the last version',
      15_000,
    );
    expect(refusedOnB).toEqual([]);
    expect(await readiness(b)).toEqual({ status: 200, state: 'up' });

    // A move retried on B was either committed by A before it died (B answers from the
    // idempotency record) or never reached A's database (B makes it now): the log says which.
    const retryOutcomes: string[] = [];
    for (const table of tables) {
      const log = await expectAcknowledgedInLog(hB, table);
      for (const ack of table.acks.filter((x) => x.via.includes('retry'))) {
        const entry = log.entries[moveSeq(log.entries, ack.version) - 1];
        retryOutcomes.push(new Date(entry.createdAt).getTime() < killedAt ? 'committed by A, replayed by B' : 'made by B');
      }
    }
    for (const { onA, onB } of followers) {
      expect(onB.closes, `${onB.label} was never interrupted`).toEqual([]);
      expect(onA.closes.length).toBeGreaterThanOrEqual(1);
      await expectSawTheLog(hB, onA);
      await expectSawTheLog(hB, onB);
    }
    const viaA = tables.flatMap((t) => t.acks.filter((x) => x.via === 'A')).length;
    const total = tables.reduce((n, t) => n + t.acks.length, 0);
    const beforeKill = tables.flatMap((t) => t.acks.filter((x) => x.answeredAt < killedAt)).length;
    console.info(
      `[instances] SIGKILL of A after ${beforeKill} answered moves (${viaA} through A, ${inFlight} in flight to A at the kill, ` +
        `${retried.length} retried on B with their key: ${retryOutcomes.join(', ') || 'none'}); ${total} moves acknowledged in all, every one in the log; ` +
        `A's subscribers resubscribed on B ${resumed.join(', ')} ms after the kill and missed nothing`,
    );

    // A job the dead instance had locked (graphile-worker fetches and locks a batch) is unlocked
    // by the survivor once the dead pool has not been seen for 15 s, and worked.
    const stranded = async () =>
      withClient(databaseUrl, async (client) => {
        const { rows } = await client.query<{ identifier: string }>(
          `SELECT t.identifier FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
            WHERE j.locked_at IS NOT NULL AND j.locked_at < $1`,
          [new Date(killedAt)],
        );
        return rows;
      });
    const freeBy = Date.now() + 25_000;
    let left = await stranded();
    while (left.length > 0 && Date.now() < freeBy) {
      await sleep(500);
      left = await stranded();
    }
    expect(left).toEqual([]);
    console.info(`[instances] the killed instance's locked jobs were free ${Date.now() - killedAt} ms after the kill`);

    await kill(b, 'SIGTERM');
    await stopRedis(redis, 'SIGTERM');
  }, 120_000);
});
