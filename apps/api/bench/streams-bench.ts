/**
 * npm run bench:streams — players' feed streams under load: `--streams` open SSE streams
 * (`GET /api/v1/me/events`) of the players of `--games` games played in a closed loop as
 * `bench:api` plays them, and for every `yourTurn` a stream reads, the time from the move's commit
 * to the read. First the same games are played without streams (the untimed benchmark's move rate,
 * on this run), then with them. A script that prints figures, not a test.
 *
 * The commit time is the move's game_events.created_at: the server's clock when it planned the
 * write, before the statement ran, so the lag includes the statement and its commit (it can only
 * overstate). The lag from the HTTP answer of that makeMove reaching the player is printed too;
 * it leaves out the commit and the answer's way back, so it flatters.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PRESETS } from '@mizerka/rules';
import { postgresCpuReader, postgresSettings, startDatabase, statsReader } from './database.js';
import { openFeedStreams, wallClock, type Delivery } from './feed-streams.js';
import { httpTransport, type GraphQLTransport } from './game-client/index.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { makeProbes, summarise } from './measure.js';
import { runMoveLevel, setUpGames, type LevelStats } from './players.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const USAGE = `npm run bench:streams -- [options]

Open players' feed streams (SSE /api/v1/me/events) while games are played: commit-to-delivery lag of yourTurn.

  --games N          games played at once, closed loop (default 100)
  --streams N        SSE streams open during the second run, spread over the games' players (default 1000)
  --seconds S        measured seconds per run (default 15)
  --warmup S         seconds of moves before measuring, per run (default 2)
  --think MS         mean pause between a game's moves, ±50 % (default 0: closed loop)
  --preset NAME      ${PRESETS.join(', ')} (default classic)
  --seed N           seed of the players' random choices (default 1)
  --no-baseline      skip the run without streams
  -h, --help         print this and exit
`;

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '100' },
    streams: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '2' },
    think: { type: 'string', default: '0' },
    preset: { type: 'string', default: 'classic' },
    seed: { type: 'string', default: '1' },
    'no-baseline': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
function usageError(message: string): never {
  process.stderr.write(`streams-bench: ${message}\n(npm run bench:streams -- --help lists the options)\n`);
  process.exit(2);
}
function number(name: keyof typeof values, min: number, integer = true): number {
  const raw = String(values[name]);
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    usageError(`--${name} takes ${integer ? 'a whole number' : 'a number'} ≥ ${min}, not ${JSON.stringify(raw)}`);
  }
  return value;
}
const gameCount = number('games', 1);
const streamCount = number('streams', 1);
const seconds = number('seconds', 1, false);
const warmup = number('warmup', 0, false);
const thinkMs = number('think', 0, false);
const seed = number('seed', 0);
const preset = values.preset;
if (!(PRESETS as readonly string[]).includes(preset)) usageError(`--preset: unknown preset ${JSON.stringify(preset)}`);

/** A transport that notes when each makeMove's answer arrived, by game and new version. */
function noteAnswers(inner: GraphQLTransport, answers: Map<string, number>): GraphQLTransport {
  return {
    async gql(query, variables, token) {
      const result = await inner.gql(query, variables, token);
      const move = (result.data as { makeMove?: { version?: number } } | null | undefined)?.makeMove;
      const gameId = (variables?.input as { gameId?: string } | undefined)?.gameId;
      if (move?.version !== undefined && gameId) answers.set(`${gameId}:${move.version}`, wallClock());
      return result;
    },
  };
}

async function main() {
  const started = Date.now();
  stopOnSignals();
  const database = await startDatabase();
  const settings = await postgresSettings(database.url);
  // Several streams per player: lift the per-player caps on live connections for the run.
  const env = { WS_MAX_SOCKETS_PER_PLAYER: '10000', WS_MAX_SUBSCRIPTIONS_PER_PLAYER: '100000' };
  const server = await startServer(database.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: [], env });
  log(`server at ${server.url}: ${server.mode}`);
  const http = httpTransport(server.url, { sockets: gameCount + 16 });
  onCleanUp('close the HTTP agent', async () => http.close());
  const answers = new Map<string, number>();
  const client = noteAnswers(http, answers);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanUp('close the monitoring connection', () => db.end());

  log(`setting up ${gameCount} games (${preset})`);
  const games = await setUpGames(client, gameCount, preset, seed);
  const probes = makeProbes({ counters: await statsReader(database.url), serverCpu: () => server.cpuMs(), postgresCpu: await postgresCpuReader(database.url) });
  const timing = { warmup, seconds, maxMoves: 10_000_000, thinkMs };

  let baseline: LevelStats | null = null;
  if (!values['no-baseline']) {
    log(`without streams: ${warmup} s warm-up, then ${seconds} s`);
    baseline = await runMoveLevel(client, games, timing, probes);
    log(`without streams: ${fmt(baseline.movesPerSecond, 0)} moves/s`);
  }

  // Stream i belongs to seat ⌊i / games⌋ mod seats of game i mod games: every player gets
  // ⌊streams / players⌋ or one more.
  const tokens = Array.from({ length: streamCount }, (_, i) => {
    const game = games[i % games.length];
    return game.tokens[Math.floor(i / games.length) % game.tokens.length];
  });
  const streamsOf = new Map<string, number>();
  for (const token of tokens) streamsOf.set(token, (streamsOf.get(token) ?? 0) + 1);
  log(`opening ${streamCount} streams for ${streamsOf.size} players`);
  const streams = await openFeedStreams(server.url, tokens);
  onCleanUp('close the streams', async () => streams.close());
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  log(`with ${streamCount} streams: ${warmup} s warm-up, then ${seconds} s`);
  const from = Date.now() + warmup * 1000;
  loopDelay.enable();
  const withStreams = await runMoveLevel(client, games, timing, probes);
  const to = Date.now();
  loopDelay.disable();
  await new Promise((done) => setTimeout(done, 2000)); // the last moves' events
  streams.close();
  log(`with streams: ${fmt(withStreams.movesPerSecond, 0)} moves/s; ${streams.deliveries.length} yourTurn events read`);
  // Without streams again: the machine's drift, and the warm-up the first run paid for.
  let after: LevelStats | null = null;
  if (!values['no-baseline']) {
    log(`without streams again: ${warmup} s warm-up, then ${seconds} s`);
    after = await runMoveLevel(client, games, timing, probes);
    log(`without streams again: ${fmt(after.movesPerSecond, 0)} moves/s`);
  }

  // The commits of the moves whose yourTurn was read, and the yourTurn rows written in the window.
  const keys = [...new Set(streams.deliveries.map((d) => `${d.gameId}:${d.seq}`))];
  const { rows } = await db.query<{ game_id: string; seq: number; at: number }>(
    `SELECT e.game_id::text, e.seq, extract(epoch FROM e.created_at) * 1000 AS at
       FROM game_events e JOIN unnest($1::uuid[], $2::int[]) AS k(game_id, seq) ON e.game_id = k.game_id AND e.seq = k.seq`,
    [keys.map((k) => k.split(':')[0]), keys.map((k) => Number(k.split(':')[1]))],
  );
  const committed = new Map(rows.map((r) => [`${r.game_id}:${r.seq}`, Number(r.at)]));
  const inWindow = (d: Delivery) => {
    const at = committed.get(`${d.gameId}:${d.seq}`);
    return at !== undefined && at >= from && at <= to;
  };
  const measured = streams.deliveries.filter(inWindow);
  const fromCommit = measured.map((d) => d.at - committed.get(`${d.gameId}:${d.seq}`)!);
  const fromAnswer = measured.flatMap((d) => {
    const answer = answers.get(`${d.gameId}:${d.seq}`);
    return answer === undefined ? [] : [d.at - answer];
  });
  const expected = await expectedDeliveries(db, client, streamsOf, from, to);
  const c = summarise(fromCommit);
  const a = summarise(fromAnswer);
  const p90 = (xs: number[]) => percentileOf(xs, 90);
  const line = (run: LevelStats | null) =>
    run
      ? `${fmt(run.movesPerSecond, 0)} (p50 ${fmt(run.latencyMs.p50, 1)} ms, p99 ${fmt(run.latencyMs.p99, 1)} ms; CPU per move: server ${fmt(run.cpuMsPerMove?.server ?? NaN, 2)} ms, PostgreSQL ${fmt(run.cpuMsPerMove?.postgres ?? NaN, 2)} ms)`
      : '–';

  const out = [
    '',
    `Mizerka feed-stream benchmark — ${new Date(started).toISOString()}`,
    `server:   ${server.mode}; WS_MAX_SOCKETS_PER_PLAYER and WS_MAX_SUBSCRIPTIONS_PER_PLAYER raised for the run`,
    `database: ${database.description}`,
    `postgres: ${Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' ')}`,
    `run:      ${gameCount} ${preset} games, ${thinkMs > 0 ? `think ${thinkMs} ms (±50 %)` : 'closed loop'}, ${warmup} s warm-up + ${seconds} s per run; ` +
      `${streamCount} SSE streams for ${streamsOf.size} players`,
    '',
    `moves/s without streams, before: ${line(baseline)}`,
    `moves/s with streams:            ${line(withStreams)}` +
      (baseline && after ? `; ratio to the mean without ${fmt((2 * withStreams.movesPerSecond) / (baseline.movesPerSecond + after.movesPerSecond), 2)}` : ''),
    `moves/s without streams, after:  ${line(after)}`,
    `errors: ${JSON.stringify(withStreams.errors)}; stream failures: ${JSON.stringify(streams.failures)}; other events read: ${JSON.stringify(streams.others)}`,
    '',
    `yourTurn deliveries (moves committed in the measured ${fmt((to - from) / 1000, 1)} s): ${measured.length} read, ${expected} expected (yourTurn rows × the player's streams); ${fmt(measured.length / ((to - from) / 1000), 0)}/s`,
    `commit → read (ms):      p50 ${fmt(c.p50, 1)}  p90 ${fmt(p90(fromCommit), 1)}  p99 ${fmt(c.p99, 1)}  max ${fmt(c.max, 1)}   (from the move's created_at: includes its statement and commit)`,
    `HTTP answer → read (ms): p50 ${fmt(a.p50, 1)}  p90 ${fmt(p90(fromAnswer), 1)}  p99 ${fmt(a.p99, 1)}  max ${fmt(a.max, 1)}   (from the mover's makeMove answer; flatters)`,
    `load generator's event-loop delay: p50 ${fmt(loopDelay.percentile(50) / 1e6, 1)} ms, p99 ${fmt(loopDelay.percentile(99) / 1e6, 1)} ms, max ${fmt(loopDelay.max / 1e6, 1)} ms (inflates every lag above)`,
    `goal (p99 commit → read < 50 ms): ${c.p99 < 50 ? 'met' : 'NOT met'}`,
    '',
  ];
  process.stdout.write(out.join('\n'));
  log(`done in ${fmt((Date.now() - started) / 1000, 0)} s`);
}

/** yourTurn rows of moves committed in [from, to] × the streams their player had open. */
async function expectedDeliveries(db: pg.Client, client: GraphQLTransport, streamsOf: Map<string, number>, from: number, to: number): Promise<number> {
  const byPlayer = new Map<string, number>();
  for (const [token, n] of streamsOf) {
    const me = await client.gql<{ me: { id: string } }>('{ me { id } }', {}, token);
    if (me.data) byPlayer.set(me.data.me.id, n);
  }
  const { rows } = await db.query<{ player_id: string; n: number }>(
    `SELECT f.player_id::text, count(*)::int AS n
       FROM player_events f JOIN game_events e ON e.game_id = f.game_id AND e.seq = f.seq
      WHERE f.type = 'yourTurn' AND e.created_at BETWEEN $1 AND $2
      GROUP BY f.player_id`,
    [new Date(from), new Date(to)],
  );
  return rows.reduce((sum, r) => sum + r.n * (byPlayer.get(r.player_id) ?? 0), 0);
}

function percentileOf(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

main()
  .catch((error: unknown) => {
    process.exitCode = 1;
    process.stderr.write(`streams-bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  })
  .finally(async () => {
    await cleanUp();
    process.exit(process.exitCode ?? (interrupted() ? 130 : 0));
  });
