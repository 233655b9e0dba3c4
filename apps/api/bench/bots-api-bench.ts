/**
 * npm run bench:bots-api — scripted people, each against two server bots (default `strong`), through
 * the API, against the server in its own process: how long a person waits for their turn after
 * each of their moves, against how long the bots think. `--at-once N` plays N games at the same
 * time (a person each), and a probe asks GET /health every 20 ms meanwhile: how long any other
 * request waits while bots think. The person asks for their view every few
 * milliseconds (`--poll-ms`) and moves at once, so the game runs at the bots' and the server's
 * pace. Bot turns are read from the log (a bot's entry's created_at minus the entry before it: the
 * commit before, the head start or the job, and the think time), think times from the server's
 * mizerka_bot_think_seconds metric. A script that prints figures, not a test.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PRESETS } from '@mizerka/rules';
import { startDatabase } from './database.js';
import {
  chooseMove,
  createLobby,
  data,
  gameView,
  httpTransport,
  makeMove,
  register,
  seededChance,
  type GraphQLTransport,
} from './game-client/index.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { summarise, type LatencySummary } from './measure.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const USAGE = `npm run bench:bots-api -- [options]

One scripted person and two server bots through the API: the person's wait per turn vs the bots' think time.

  --level L          the bots' level: random, basic or strong (default strong)
  --preset NAME      ${PRESETS.join(', ')} (default bidding)
  --target N         the game's target score (default: the preset's own)
  --games N          games played in all (default 1)
  --at-once N        games played at the same time, each by its own person (default 1)
  --poll-ms MS       how often the person looks for their turn (default 5)
  --relay-delay-ms MS  the server's JOB_RELAY_DELAY_SECONDS × 1000 (default: the server's own, 50)
  --seed S           the person's choices (default 1)
  -h, --help         print this and exit
`;

const { values } = parseArgs({
  options: {
    level: { type: 'string', default: 'strong' },
    preset: { type: 'string', default: 'bidding' },
    target: { type: 'string' },
    games: { type: 'string', default: '1' },
    'at-once': { type: 'string', default: '1' },
    'poll-ms': { type: 'string', default: '5' },
    'relay-delay-ms': { type: 'string' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
function usageError(message: string): never {
  process.stderr.write(`bots-api-bench: ${message}\n(npm run bench:bots-api -- --help lists the options)\n`);
  process.exit(2);
}
function whole(name: 'games' | 'at-once' | 'target' | 'poll-ms' | 'relay-delay-ms', min: number): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) usageError(`--${name} takes a whole number ≥ ${min}, not ${JSON.stringify(values[name])}`);
  return value;
}
const level = values.level;
if (!['random', 'basic', 'strong'].includes(level)) usageError(`--level is random, basic or strong, not ${JSON.stringify(level)}`);
const preset = values.preset;
if (!(PRESETS as readonly string[]).includes(preset)) usageError(`--preset: unknown preset ${JSON.stringify(preset)}`);
if (preset.endsWith('-4')) usageError('--preset: a table of three (one person, two bots)');
const games = whole('games', 1);
const atOnce = Math.min(games, whole('at-once', 1));
const options = values.target === undefined ? undefined : { target: whole('target', 1) };
const pollMs = whole('poll-ms', 1);
const relayDelayMs = values['relay-delay-ms'] === undefined ? null : whole('relay-delay-ms', 0);

const METRICS_TOKEN = 'bots-api-bench-metrics';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const ADD_BOT = `mutation AddBot($lobbyId: ID!, $level: BotLevel!) { addBot(lobbyId: $lobbyId, level: $level) { gameId } }`;

/** Plays the person's seat to the end; answers each wait, from a move's answer to the next turn seen. */
async function playGame(client: GraphQLTransport, token: string, seed: number): Promise<{ gameId: string; waits: number[]; moves: number }> {
  const lobby = data(await createLobby(client, token, { preset, options, visibility: 'unlisted' }), 'createLobby');
  await client.gql(ADD_BOT, { lobbyId: lobby.id, level }, token);
  const gameId = data(await client.gql<{ addBot: { gameId: string } }>(ADD_BOT, { lobbyId: lobby.id, level }, token), 'addBot').gameId;
  const chance = seededChance(seed);
  const waits: number[] = [];
  let moves = 0;
  let since = performance.now();
  for (;;) {
    const game = data(await gameView(client, gameId, token), 'game');
    if (game.status === 'finished') return { gameId, waits, moves };
    const legal = game.view.legalMoves;
    if (legal === null || legal === undefined) {
      await sleep(pollMs);
      continue;
    }
    if (moves > 0) waits.push(performance.now() - since);
    data(await makeMove(client, token, { gameId, expectedVersion: game.version, ...chooseMove(legal as never, chance) }), 'makeMove');
    since = performance.now();
    moves++;
  }
}

/** GET /health every `everyMs` until stopped: each answer's time (ms), how long any request waits behind the server's work. */
function probeHealth(url: string, everyMs: number): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const sent = performance.now();
      await (await fetch(`${url}/health`)).arrayBuffer();
      times.push(performance.now() - sent);
      await sleep(everyMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return times;
    },
  };
}

/** Each bot entry's time since the entry before it (ms). */
async function botTurns(db: pg.Client, gameIds: string[]): Promise<number[]> {
  const { rows } = await db.query<{ ms: number }>(
    `SELECT extract(epoch FROM e.created_at - p.created_at) * 1000 AS ms
       FROM game_events e JOIN game_events p ON p.game_id = e.game_id AND p.seq = e.seq - 1
      WHERE e.game_id = ANY($1::uuid[]) AND e.actor = 'bot'`,
    [gameIds],
  );
  return rows.map((r) => Number(r.ms));
}

/** The think-time histogram's sum and count by level, from /metrics. */
async function thinkTimes(url: string): Promise<Map<string, { seconds: number; count: number }>> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const out = new Map<string, { seconds: number; count: number }>();
  for (const m of text.matchAll(/^mizerka_bot_think_seconds_(sum|count)\{level="(\w+)"\} ([\d.e+-]+)$/gm)) {
    const entry = out.get(m[2]) ?? { seconds: 0, count: 0 };
    if (m[1] === 'sum') entry.seconds = Number(m[3]);
    else entry.count = Number(m[3]);
    out.set(m[2], entry);
  }
  return out;
}

const line = (name: string, s: LatencySummary, n: number) =>
  `  ${name.padEnd(38)} n=${String(n).padStart(4)}  p50 ${fmt(s.p50, 0).padStart(5)}  p95 ${fmt(s.p95, 0).padStart(5)}  max ${fmt(s.max, 0).padStart(5)}  mean ${fmt(s.mean, 0).padStart(5)} ms`;

async function main() {
  stopOnSignals();
  const database = await startDatabase();
  const env: Record<string, string> = { METRICS_TOKEN };
  if (relayDelayMs !== null) env.JOB_RELAY_DELAY_SECONDS = String(relayDelayMs / 1000);
  const server = await startServer(database.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: [], env });
  log(`server at ${server.url}: ${server.mode}`);
  const client = httpTransport(server.url, { sockets: 4 });
  onCleanUp('close the HTTP agent', async () => client.close());
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanUp('close the monitoring connection', () => db.end());

  const waits: number[] = [];
  const ids: string[] = [];
  let personMoves = 0;
  let next = 0;
  const started = performance.now();
  const probe = probeHealth(server.url, 20);
  // Each of `atOnce` people plays games until `games` have been played; a person per game at a time.
  await Promise.all(
    Array.from({ length: atOnce }, async (_, p) => {
      const token = data(await register(client, `bench${Date.now().toString(36)}p${p}`), 'register').token;
      for (let g = next++; g < games; g = next++) {
        const played = await playGame(client, token, Number(values.seed) + g);
        waits.push(...played.waits);
        ids.push(played.gameId);
        personMoves += played.moves;
        log(`game ${g + 1}/${games}: ${played.moves} moves of the person`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const health = await probe.stop();
  const turns = await botTurns(db, ids);
  const think = await thinkTimes(server.url);

  const out = [
    `bots-api-bench: ${games} ${preset} game(s)${options ? ` to ${options.target}` : ''}, ${atOnce} at once, each one person and two ${level} bots, person polling every ${pollMs} ms`,
    `  ${fmt(seconds, 1)} s in all; ${personMoves} moves of the person, ${turns.length} of the bots`,
    line("person's wait per turn", summarise(waits), waits.length),
    line('bot turn (previous entry → its move)', summarise(turns), turns.length),
    line('GET /health meanwhile', summarise(health), health.length),
    ...[...think].map(([answered, t]) => `  think time, ${answered.padEnd(26)} n=${String(t.count).padStart(4)}  mean ${fmt((t.seconds / Math.max(1, t.count)) * 1000, 1)} ms`),
  ];
  const thought = [...think.values()].reduce((a, t) => a + t.seconds * 1000, 0);
  const turnTotal = turns.reduce((a, b) => a + b, 0);
  if (turns.length > 0) out.push(`  queue and move path per bot move: ${fmt((turnTotal - thought) / turns.length, 1)} ms (turn time less think time, mean)`);
  process.stdout.write(`${out.join('\n')}\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bots-api-bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanUp();
    process.exit(process.exitCode ?? (interrupted() ? 130 : 0));
  });
