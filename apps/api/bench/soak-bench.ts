/**
 * npm run bench:soak — a long run at a correspondence site's shape: many games whose players pause
 * between moves, and many followers on `gameLog` subscriptions, against the server in its own
 * process (with --expose-gc). Prints what should not grow: the server's memory after a full GC,
 * the resources keeping its event loop alive, its database connections, and the errors that are
 * not the clients' fault. A script that prints figures, not a test.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { ServerHealth } from './bench-server.js';
import { postgresCpuReader, startDatabase, statsReader, withClient } from './database.js';
import { httpTransport } from './game-client/index.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { makeProbes } from './measure.js';
import { runMoveLevel, setUpGames, type Game } from './players.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '500' },
    subscribers: { type: 'string', default: '1000' },
    minutes: { type: 'string', default: '10' },
    think: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '20' },
    preset: { type: 'string', default: 'classic' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    'npm run bench:soak -- [--games 500] [--subscribers 1000] [--minutes 10] [--think 2000 (mean ms between a game’s moves)]\n' +
      '                      [--warmup 20 (seconds before the first sample)] [--preset classic] [--seed 1]\n',
  );
  process.exit(0);
}
const games = whole('games', 1);
const subscribers = whole('subscribers', 0);
const minutes = Number(values.minutes);
const thinkMs = whole('think', 0);
const warmupSeconds = whole('warmup', 0);
const seed = whole('seed', 0);
if (!(minutes > 0)) usageError('--minutes takes a number > 0');

function whole(name: keyof typeof values, min: number): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) usageError(`--${name} takes a whole number ≥ ${min}`);
  return value;
}
function usageError(message: string): never {
  process.stderr.write(`soak-bench: ${message}\n`);
  process.exit(2);
}

const GAME_LOG = 'subscription($gameId: ID!, $after: Int) { gameLog(gameId: $gameId, after: $after) { seq kind } }';

interface Followers {
  entries: number;
  completed: number;
  errors: Record<string, number>;
  close(): Promise<void>;
}

/** `count` followers, each on its own socket as one of a game's players, two or more per game. */
function follow(url: string, table: Game[], count: number): Followers {
  const followers: Followers = { entries: 0, completed: 0, errors: {}, close: async () => undefined };
  const clients: Client[] = [];
  let closing = false;
  for (let i = 0; i < count; i++) {
    const game = table[i % table.length];
    const token = game.tokens[Math.floor(i / table.length) % game.tokens.length];
    const client = createClient({
      url: url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: false,
    });
    clients.push(client);
    // Follows the game its seat is in now: after a rematch, the new one.
    const subscribe = () =>
      client.subscribe<{ gameLog: { seq: number } }>(
        { query: GAME_LOG, variables: { gameId: game.id, after: game.version } },
        {
          next: (message) => {
            if (message.errors) {
              const code = String(message.errors[0]?.extensions?.code ?? 'ERROR');
              followers.errors[code] = (followers.errors[code] ?? 0) + 1;
            } else followers.entries++;
          },
          error: (error) => {
            if (closing) return;
            const code = error instanceof Error ? error.message.slice(0, 40) : 'socket closed';
            followers.errors[code] = (followers.errors[code] ?? 0) + 1;
          },
          complete: () => {
            if (closing) return;
            followers.completed++;
            if (!interrupted()) setTimeout(subscribe, 1000).unref();
          },
        },
      );
    subscribe();
  }
  followers.close = async () => {
    closing = true;
    await Promise.all(clients.map((c) => c.dispose()));
  };
  return followers;
}

async function databaseConnections(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows[0].n;
  });
}

function resources(h: ServerHealth | null): string {
  if (!h) return 'n/a';
  return Object.entries(h.resources)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
}

const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${fmt(bytes / 2 ** 20, 1)} MB`);

async function main() {
  stopOnSignals();
  const started = performance.now();
  const database = await startDatabase();
  const server = await startServer(database.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: ['--expose-gc'] });
  log(`server at ${server.url}: ${server.mode}`);
  const client = httpTransport(server.url, { sockets: Math.min(games, 256) + 16 });
  onCleanUp('close the HTTP agent', async () => client.close());
  log(`setting up ${games} games (${values.preset})`);
  const table = await setUpGames(client, games, values.preset!, seed);
  log(`${subscribers} followers subscribing`);
  const followers = follow(server.url, table, subscribers);
  onCleanUp('close the followers', () => followers.close());

  const probes = makeProbes({ counters: await statsReader(database.url), serverCpu: () => server.cpuMs(), postgresCpu: await postgresCpuReader(database.url) });
  let first: { health: ServerHealth | null; connections: number } | null = null;
  const sampleAfterWarmup = new Promise<void>((done) => {
    setTimeout(async () => {
      first = { health: await server.health(), connections: await databaseConnections(database.url) };
      log(`first sample: RSS ${mb(first.health?.rssBytes)}, heap ${mb(first.health?.heapUsedBytes)}`);
      done();
    }, warmupSeconds * 1000);
  });
  log(`playing for ${minutes} min (first sample after ${warmupSeconds} s), ${thinkMs} ms mean pause between a game's moves`);
  const stats = await runMoveLevel(client, table, { warmup: warmupSeconds, seconds: minutes * 60, maxMoves: Number.MAX_SAFE_INTEGER, thinkMs }, probes);
  await sampleAfterWarmup;
  const last = { health: await server.health(), connections: await databaseConnections(database.url) };
  await followers.close();
  client.close(); // the players' keep-alive connections too: what is left is the server's own
  // Every follower's socket is gone: what it held on the server must be gone with it.
  await new Promise((done) => setTimeout(done, 2000));
  const closed = { health: await server.health(), connections: await databaseConnections(database.url) };

  const firstSample = first as { health: ServerHealth | null; connections: number } | null;
  const clientErrors = ['CONFLICT', 'NOT_YOUR_TURN', 'ILLEGAL_MOVE', 'BAD_INPUT', 'RATE_LIMITED'];
  const serverFaults = Object.entries(stats.errors).filter(([code]) => !clientErrors.some((c) => code.endsWith(c)));
  const out = [
    '',
    `Soak: ${games} games (${values.preset}), ${thinkMs} ms mean pause, ${subscribers} followers, ${fmt(stats.seconds / 60, 1)} min measured`,
    `moves             ${stats.moves} (${fmt(stats.movesPerSecond, 1)}/s), p50 ${fmt(stats.latencyMs.p50, 2)} ms, p99 ${fmt(stats.latencyMs.p99, 2)} ms, max ${fmt(stats.latencyMs.max, 1)} ms; games finished ${stats.gamesFinished}`,
    `errors            ${JSON.stringify(stats.errors)}; not the clients' fault: ${serverFaults.reduce((n, [, k]) => n + k, 0)}`,
    `followers         ${followers.entries} entries received, ${followers.completed} streams completed (a game over), errors ${JSON.stringify(followers.errors)}`,
    `server CPU        ${stats.cpuMsPerMove ? `${fmt(stats.cpuMsPerMove.server ?? NaN, 2)} ms/move` : 'n/a'}`,
    '',
    'server after a full GC       first sample        end                 followers gone',
    `RSS                          ${mb(firstSample?.health?.rssBytes).padEnd(20)}${mb(last.health?.rssBytes).padEnd(20)}${mb(closed.health?.rssBytes)}`,
    `heap used                    ${mb(firstSample?.health?.heapUsedBytes).padEnd(20)}${mb(last.health?.heapUsedBytes).padEnd(20)}${mb(closed.health?.heapUsedBytes)}`,
    `database connections         ${String(firstSample?.connections ?? 'n/a').padEnd(20)}${String(last.connections).padEnd(20)}${closed.connections}`,
    `live resources, first        ${resources(firstSample?.health ?? null)}`,
    `live resources, end          ${resources(last.health)}`,
    `live resources, gone         ${resources(closed.health)}`,
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');
  log(`done in ${fmt((performance.now() - started) / 1000, 0)} s`);
}

main()
  .catch((error: unknown) => {
    process.exitCode = 1;
    process.stderr.write(`soak-bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  })
  .finally(async () => {
    await cleanUp();
    process.exit();
  });
