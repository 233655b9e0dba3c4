/**
 * npm run bench:clocks — many timed games with pending deadlines and nobody moving: do the move
 * clocks fire on time? The games are real ones, made through the API (lobbies filled by
 * registered players) against the server in its own process, each with a move clock whose
 * deadline the server wrote when the game started. The clocks are chosen so that the deadlines
 * fall, evenly spread, over a window (`--spread` seconds) that begins after the last game was
 * made; then nobody moves and the server's clock jobs make the time-outs. Lateness is read from
 * the log only: the time-out entry's created_at (the time of the server's move) minus the deadline
 * the entry before it had set. A script that prints figures, not a test.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PRESETS } from '@mizerka/rules';
import { postgresCpuReader, postgresSettings, startDatabase } from './database.js';
import { createLobby, data, httpTransport, joinLobby, register, type CreateLobbyInput, type GraphQLTransport } from './game-client/index.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { summarise } from './measure.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const USAGE = `npm run bench:clocks -- [options]

Timed games through the API, nobody moving: how late the server's time-outs are (see apps/api/bench/README.md).

  --games N            timed games, each with one pending deadline (default 10000)
  --spread S           seconds over which their deadlines fall, evenly (default 60)
  --policy P           what a time-out does: autoMove or forfeit (default autoMove)
  --preset NAME        the games' preset: ${PRESETS.join(', ')} (default classic)
  --warmup-games N     games made first with 1-hour clocks (pending all run long), to measure how fast
                       timed games are made (default 300)
  --lead S             seconds between the estimated end of making games and the first deadline (default 10)
  --grace S            seconds to wait after the last deadline before a game counts as missed (default 30)
  --concurrency N      games made at once (default 32)
  --job-poll-ms MS     the server's JOB_POLL_SECONDS × 1000 (default: the server's own, 1000)
  -h, --help           print this and exit
`;

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '10000' },
    spread: { type: 'string', default: '60' },
    policy: { type: 'string', default: 'autoMove' },
    preset: { type: 'string', default: 'classic' },
    'warmup-games': { type: 'string', default: '300' },
    lead: { type: 'string', default: '10' },
    grace: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '32' },
    'job-poll-ms': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
function usageError(message: string): never {
  process.stderr.write(`clocks-bench: ${message}\n(npm run bench:clocks -- --help lists the options)\n`);
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
const games = number('games', 1);
const spread = number('spread', 1, false);
const warmupGames = number('warmup-games', 1);
const lead = number('lead', 0, false);
const grace = number('grace', 1, false);
const concurrency = number('concurrency', 1);
if (values.policy !== 'autoMove' && values.policy !== 'forfeit') usageError(`--policy is autoMove or forfeit, not ${JSON.stringify(values.policy)}`);
const policy: 'autoMove' | 'forfeit' = values.policy;
const preset = values.preset;
if (!(PRESETS as readonly string[]).includes(preset)) usageError(`--preset: unknown preset ${JSON.stringify(preset)}; known: ${PRESETS.join(', ')}`);
const jobPollMs = values['job-poll-ms'] === undefined ? null : number('job-poll-ms', 100);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function forEachLimited(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !interrupted()) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  if (interrupted()) throw new Error('interrupted');
}

/**
 * Players for the tables: `tables` groups of `seats`. Game i sits group i mod tables, so the
 * games made at the same time (at most `concurrency`) never share a player and nobody sits in
 * more than one open lobby; each player is in many games, as a correspondence player is.
 */
async function registerPlayers(client: GraphQLTransport, tables: number, seats: number): Promise<string[][]> {
  const tag = Date.now().toString(36);
  const groups: string[][] = Array.from({ length: tables }, () => []);
  await forEachLimited(tables * seats, concurrency, async (i) => {
    const group = Math.floor(i / seats);
    groups[group][i % seats] = data(await register(client, `c${tag}_${group}_${i % seats}`), 'register').token;
  });
  return groups;
}

/** One game through the API: the host opens an unlisted lobby, the others join by its code; the last join starts it. */
async function makeGame(client: GraphQLTransport, tokens: string[], timeControl: CreateLobbyInput['timeControl']): Promise<string> {
  const lobby = data(await createLobby(client, tokens[0], { preset, visibility: 'unlisted', ...(timeControl ? { timeControl } : {}) }), 'createLobby');
  let gameId: string | null = null;
  for (let seat = 1; seat < lobby.players; seat++) {
    gameId = data(await joinLobby(client, tokens[seat], { inviteCode: lobby.inviteCode }), 'joinLobby').gameId;
  }
  if (!gameId) throw new Error(`lobby ${lobby.id} is full but has no game`);
  return gameId;
}

interface Fired {
  lateMs: number;
  deadline: number;
  at: number;
  cause: string;
}

/** Each game's first time-out (autoMove or forfeit) with the deadline the entry before it set. */
async function firstTimeOuts(db: pg.Client, ids: string[]): Promise<Map<string, Fired>> {
  const { rows } = await db.query<{ game_id: string; late_ms: number; deadline: Date; at: Date; cause: string }>(
    `WITH first AS (
       SELECT DISTINCT ON (game_id) game_id, seq, created_at, cause
         FROM game_events
        WHERE game_id = ANY($1::uuid[]) AND actor = 'system' AND cause IN ('timeout', 'forfeit')
        ORDER BY game_id, seq)
     SELECT f.game_id::text, extract(epoch FROM f.created_at - p.deadline) * 1000 AS late_ms, p.deadline, f.created_at AS at, f.cause
       FROM first f JOIN game_events p ON p.game_id = f.game_id AND p.seq = f.seq - 1`,
    [ids],
  );
  return new Map(rows.map((r) => [r.game_id, { lateMs: Number(r.late_ms), deadline: r.deadline.getTime(), at: r.at.getTime(), cause: r.cause }]));
}

async function main() {
  const started = Date.now();
  stopOnSignals();
  const database = await startDatabase();
  const settings = await postgresSettings(database.url);
  const env: Record<string, string> = { MIN_MOVE_SECONDS: '1' };
  if (jobPollMs !== null) env.JOB_POLL_SECONDS = String(jobPollMs / 1000);
  const server = await startServer(database.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: [], env });
  log(`server at ${server.url}: ${server.mode}`);
  const client = httpTransport(server.url, { sockets: concurrency + 8 });
  onCleanUp('close the HTTP agent', async () => client.close());
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanUp('close the monitoring connection', () => db.end());
  const postgresCpu = await postgresCpuReader(database.url);

  const seats = preset.endsWith('-4') ? 4 : 3;
  const tables = concurrency * 4;
  log(`registering ${tables * seats} players`);
  const players = await registerPlayers(client, tables, seats);

  // How fast timed games are made, on games whose clocks (1 hour) do not fall due during the run:
  // they are not counted, but their pending deadlines stay in the queue like everyone else's.
  log(`making ${warmupGames} games with 1-hour clocks to measure the rate`);
  // The rate is taken over the second half: the first warms the server up.
  let t0 = performance.now();
  let halfAt = 0;
  let warmMade = 0;
  await forEachLimited(warmupGames, concurrency, async (i) => {
    await makeGame(client, players[i % tables], { moveSeconds: 3600, bankSeconds: 0, onTimeout: policy, maxTimeouts: 3 });
    if (++warmMade === Math.ceil(warmupGames / 2)) halfAt = performance.now();
  });
  const warmupRate = (warmupGames - Math.ceil(warmupGames / 2)) / ((performance.now() - (halfAt || t0)) / 1000);
  // A margin on the estimate keeps the deadlines after the making (which slows as the tables grow).
  const estimatedSeconds = (games / warmupRate) * 1.25;
  const windowStart = Date.now() + (estimatedSeconds + lead) * 1000;
  log(`${fmt(warmupRate, 0)} games/s; making ${games} timed games (est. ${fmt(estimatedSeconds, 0)} s), deadlines from +${fmt((windowStart - Date.now()) / 1000, 0)} s over ${spread} s`);

  // Game i's deadline is due at windowStart + spread·i/games: its clock is that far from now.
  const ids: string[] = new Array(games);
  let shortest = Infinity;
  let longest = 0;
  t0 = performance.now();
  let lastLog = t0;
  let made = 0;
  await forEachLimited(games, concurrency, async (i) => {
    const due = windowStart + (spread * 1000 * i) / games;
    const moveSeconds = Math.max(1, Math.round((due - Date.now()) / 1000));
    shortest = Math.min(shortest, moveSeconds);
    longest = Math.max(longest, moveSeconds);
    ids[i] = await makeGame(client, players[i % tables], { moveSeconds, bankSeconds: 0, onTimeout: policy, maxTimeouts: 3 });
    made++;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`${made} games made`);
    }
  });
  const madeAt = Date.now();
  const makeSeconds = (performance.now() - t0) / 1000;
  log(`${games} games made in ${fmt(makeSeconds, 1)} s (${fmt(games / makeSeconds, 0)}/s); clocks ${shortest}–${longest} s`);

  // The deadlines as the server wrote them (the first entry of each game, its deal, set them).
  const { rows: dl } = await db.query<{ first: Date; last: Date; early: number }>(
    `SELECT min(deadline) AS first, max(deadline) AS last, count(*) FILTER (WHERE deadline < $2)::int AS early
       FROM game_events WHERE game_id = ANY($1::uuid[]) AND seq = 1`,
    [ids, new Date(madeAt)],
  );
  const firstDeadline = dl[0].first.getTime();
  const lastDeadline = dl[0].last.getTime();
  log(`deadlines ${new Date(firstDeadline).toISOString()} … ${new Date(lastDeadline).toISOString()}; ${dl[0].early} before the last game was made`);

  // Wait for every game's first time-out, or until the grace after the last deadline is over.
  const cpuAt = async () => ({ server: (await server.cpuMs())?.total ?? null, postgres: postgresCpu() });
  const waitUntil = Math.max(firstDeadline - 1000, Date.now());
  await sleep(waitUntil - Date.now());
  const cpuBefore = await cpuAt();
  const timedFrom = performance.now();
  while (!interrupted()) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(DISTINCT game_id)::int AS n FROM game_events WHERE actor = 'system' AND cause IN ('timeout', 'forfeit') AND game_id = ANY($1::uuid[])`,
      [ids],
    );
    const fired = rows[0].n;
    const now = Date.now();
    log(`${fired} of ${games} timed out; ${now < lastDeadline ? `last deadline in ${fmt((lastDeadline - now) / 1000, 0)} s` : `${fmt((now - lastDeadline) / 1000, 0)} s past the last deadline`}`);
    if (fired >= games || now > lastDeadline + grace * 1000) break;
    await sleep(2000);
  }
  const cpuAfter = await cpuAt();
  const timedSeconds = (performance.now() - timedFrom) / 1000;

  const found = await firstTimeOuts(db, ids);
  const lateness = [...found.values()].map((f) => f.lateMs);
  const late = summarise(lateness);
  const over2s = lateness.filter((x) => x > 2000).length;
  const early = lateness.filter((x) => x < 0).length;
  const ats = [...found.values()].map((f) => f.at).sort((a, b) => a - b);
  const firing = ats.length > 1 ? (ats[ats.length - 1] - ats[0]) / 1000 : NaN;
  const perSecond = new Map<number, number>();
  for (const at of ats) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
  const peak = Math.max(0, ...perSecond.values());
  const causes: Record<string, number> = {};
  for (const f of found.values()) causes[f.cause] = (causes[f.cause] ?? 0) + 1;
  const cpuPer = (a: number | null, b: number | null) => (a === null || b === null || found.size === 0 ? '–' : fmt((b - a) / found.size, 2));
  const missed = games - found.size;

  const out = [
    '',
    `Mizerka move-clock benchmark — ${new Date(started).toISOString()}`,
    `server:   ${server.mode}; MIN_MOVE_SECONDS=1, JOB_POLL_SECONDS=${jobPollMs === null ? 'default (1)' : jobPollMs / 1000}`,
    `database: ${database.description}`,
    `postgres: ${Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' ')}`,
    `games:    ${games} ${preset}, policy ${policy}, bank 0; made in ${fmt(makeSeconds, 1)} s (${fmt(games / makeSeconds, 0)}/s) after ${warmupGames} with 1-hour clocks (${fmt(warmupRate, 0)}/s)`,
    `clocks:   ${shortest}–${longest} s per move; deadlines over ${fmt((lastDeadline - firstDeadline) / 1000, 1)} s (${fmt(games / Math.max(0.001, (lastDeadline - firstDeadline) / 1000), 0)}/s due), ${dl[0].early} before the last game was made`,
    '',
    `time-outs fired:   ${found.size} of ${games} (${Object.entries(causes).map(([c, n]) => `${c} ${n}`).join(', ') || 'none'}); missed ${missed} (none within ${grace} s after the last deadline)`,
    `lateness (ms):     p50 ${fmt(late.p50, 0)}  p90 ${fmt(percentile(lateness, 90), 0)}  p99 ${fmt(late.p99, 0)}  max ${fmt(late.max, 0)}  mean ${fmt(late.mean, 0)}`,
    `                   over 2 s: ${over2s}; before the deadline: ${early}`,
    `rate:              ${fmt(found.size / firing, 0)} time-outs/s over ${fmt(firing, 1)} s (first to last), peak ${peak} in one second`,
    `CPU per time-out:  server ${cpuPer(cpuBefore.server, cpuAfter.server)} ms, PostgreSQL ${cpuPer(cpuBefore.postgres, cpuAfter.postgres)} ms (over ${fmt(timedSeconds, 0)} s from 1 s before the first deadline; includes the warnings and the next turns' clocks)`,
    `goal (p99 ≤ 2 s, none missed): ${late.p99 <= 2000 && missed === 0 ? 'met' : 'NOT met'}`,
    '',
    'lateness = created_at of the time-out entry − deadline of the entry before it (both written by the server, in game_events).',
    '',
  ];
  process.stdout.write(out.join('\n'));
  log(`done in ${fmt((Date.now() - started) / 1000, 0)} s`);
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

main()
  .catch((error: unknown) => {
    process.exitCode = 1;
    process.stderr.write(`clocks-bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  })
  .finally(async () => {
    await cleanUp();
    process.exit(process.exitCode ?? (interrupted() ? 130 : 0));
  });
