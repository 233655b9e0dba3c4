/**
 * npm run bench:api — many games played at once through GraphQL over HTTP.
 *
 *   npm run bench:api -- [--levels 10,100,500] [--seconds 15] [--warmup 2] [--max-moves 200000]
 *                        [--commit-seconds 8] [--preset classic] [--in-process] [--json FILE]
 *                        [--server-cpu-prof DIR] [--server-node-args "ARGS"] [--think MS] [--seed 1]
 *
 * PostgreSQL: without DATABASE_URL an embedded server in a temporary folder (never `.data/`),
 * stopped and removed at the end; with DATABASE_URL a fresh database on that server, dropped at
 * the end. Migrations are applied, then the application (createApp, silent logger, a rate limit
 * out of reach) runs in a separate Node process (default: the load generator's CPU is not the
 * server's) or, with --in-process, in this one.
 *
 * Per level of concurrency N: N games, each driven by one closed loop (one request in flight per
 * game) in which the seat to move makes a legal move with `makeMove`, chosen from the views the
 * API returned (the move result's `game` view: a move is one request). A seat whose hand it cannot
 * know from its own last view (a new deal, bidding, talon) asks `game(id)` first: a "refresh",
 * counted apart. Reported: moves/s, move latency p50/p95/p99 (ms, as the client sees it), errors
 * by code; then, on the same database with the same pool size and N loops, the rate of bare
 * single-row INSERT commits, and the ratio of the two. Also the CPU time per move of the server,
 * PostgreSQL (from /proc, when it runs on this machine) and this process, and PostgreSQL's
 * transactions, inserted rows and WAL bytes per move. By default each game is a closed loop (the
 * next move as soon as the last is answered); --think MS adds a player's pause between moves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../src/config/app-config.js';
import { applyMigrations } from '../src/database/migrations.js';
import type { ServerCpu, ServerReady } from './bench-server.js';

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  levels: number[];
  seconds: number;
  warmup: number;
  maxMoves: number;
  commitSeconds: number;
  preset: string;
  inProcess: boolean;
  json: string | null;
  cpuProfDir: string | null;
  serverNodeArgs: string[];
  seed: number;
  /** Mean pause of a game between moves (ms): 0 = closed loop, as fast as the server answers. */
  thinkMs: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    levels: [10, 100, 500],
    seconds: 15,
    warmup: 2,
    maxMoves: 200_000,
    commitSeconds: 8,
    preset: 'classic',
    inProcess: false,
    json: null,
    cpuProfDir: null,
    serverNodeArgs: [],
    seed: 1,
    thinkMs: 0,
  };
  const number = (name: string, raw: string | undefined, min: number) => {
    const value = Number(raw);
    if (raw === undefined || !Number.isFinite(value) || value < min) throw new Error(`${name} needs a number ≥ ${min}`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => argv[++i];
    switch (arg) {
      case '--levels':
        options.levels = (next() ?? '').split(',').map((s) => Math.floor(number('--levels', s.trim(), 1)));
        break;
      case '--seconds':
        options.seconds = number(arg, next(), 1);
        break;
      case '--warmup':
        options.warmup = number(arg, next(), 0);
        break;
      case '--max-moves':
        options.maxMoves = Math.floor(number(arg, next(), 1));
        break;
      case '--commit-seconds':
        options.commitSeconds = number(arg, next(), 1);
        break;
      case '--preset':
        options.preset = next() ?? 'classic';
        break;
      case '--in-process':
        options.inProcess = true;
        break;
      case '--json':
        options.json = next() ?? null;
        if (!options.json) throw new Error('--json needs a file name');
        break;
      case '--server-cpu-prof':
        options.cpuProfDir = next() ?? null;
        if (!options.cpuProfDir) throw new Error('--server-cpu-prof needs a folder');
        break;
      case '--server-node-args':
        options.serverNodeArgs = (next() ?? '').split(/\s+/).filter(Boolean);
        break;
      case '--think':
        options.thinkMs = number(arg, next(), 0);
        break;
      case '--seed':
        options.seed = Math.floor(number(arg, next(), 0));
        break;
      case '--help':
      case '-h':
        process.stdout.write(
          'npm run bench:api -- [--levels 10,100,500] [--seconds 15] [--warmup 2] [--max-moves 200000]\n' +
            '                     [--commit-seconds 8] [--preset classic] [--in-process] [--json FILE]\n' +
            '                     [--server-cpu-prof DIR] [--server-node-args "ARGS"] [--think MS] [--seed 1]\n',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${arg} (try --help)`);
    }
  }
  if (options.inProcess && (options.cpuProfDir || options.serverNodeArgs.length > 0)) {
    throw new Error('--server-cpu-prof and --server-node-args need the separate server process');
  }
  return options;
}

// ---------------------------------------------------------------------------------------------
// Clean-up: everything started registers how to stop it; run in reverse order, once, even on error.

const cleanups: { name: string; run: () => Promise<void> }[] = [];

async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    const step = cleanups.pop()!;
    try {
      await step.run();
    } catch (error) {
      process.stderr.write(`clean-up (${step.name}) failed: ${String(error)}\n`);
    }
  }
}

let interrupted = false;

function log(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: embedded in a temporary folder, or a fresh database on DATABASE_URL's server.

interface Database {
  url: string;
  description: string;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, query_timeout: 60_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function startDatabase(): Promise<Database> {
  const given = process.env.DATABASE_URL?.trim();
  if (given) {
    const name = `mizerka_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await withClient(given, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
    cleanups.push({
      name: `drop database ${name}`,
      run: () =>
        withClient(given, async (client) => {
          await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
        }),
    });
    const host = new URL(given).host;
    return { url: withDatabase(given, name), description: `DATABASE_URL server ${host}, fresh database ${name} (dropped at the end)` };
  }
  const tempDir = await mkdtemp(join(tmpdir(), 'mizerka-bench-'));
  cleanups.push({ name: `remove ${tempDir}`, run: () => rm(tempDir, { recursive: true, force: true }) });
  // Run as root, PostgreSQL runs as the `postgres` user, which must be able to enter the folder.
  await chmod(tempDir, 0o755);
  const { startEmbeddedPostgres } = await import('../src/database/embedded-postgres.js');
  const dataDir = join(tempDir, 'postgres');
  log(`starting the embedded PostgreSQL in ${dataDir}`);
  const embedded = await startEmbeddedPostgres({ dataDir });
  cleanups.push({ name: 'stop the embedded PostgreSQL', run: () => embedded.stop() });
  return { url: embedded.url, description: `embedded PostgreSQL, temporary cluster ${dataDir} (removed at the end)` };
}

async function postgresSettings(url: string): Promise<Record<string, string>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string; setting: string }>(
      `SELECT name, setting || coalesce(unit, '') AS setting FROM pg_settings
        WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers',
                       'max_connections', 'commit_delay', 'full_page_writes', 'wal_level')`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  });
}

interface PgCounters {
  xactCommit: number;
  tupInserted: number;
  tupUpdated: number;
  tupFetched: number;
  walRecords: number;
  walBytes: number;
  walFpi: number;
}

async function pgCounters(client: pg.Client): Promise<PgCounters> {
  const { rows } = await client.query<Record<string, string>>(
    `SELECT d.xact_commit, d.tup_inserted, d.tup_updated, d.tup_fetched, w.wal_records, w.wal_bytes, w.wal_fpi
       FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()`,
  );
  const r = rows[0];
  return {
    xactCommit: Number(r.xact_commit),
    tupInserted: Number(r.tup_inserted),
    tupUpdated: Number(r.tup_updated),
    tupFetched: Number(r.tup_fetched),
    walRecords: Number(r.wal_records),
    walBytes: Number(r.wal_bytes),
    walFpi: Number(r.wal_fpi),
  };
}

function counterDelta(a: PgCounters, b: PgCounters): PgCounters {
  return {
    xactCommit: b.xactCommit - a.xactCommit,
    tupInserted: b.tupInserted - a.tupInserted,
    tupUpdated: b.tupUpdated - a.tupUpdated,
    tupFetched: b.tupFetched - a.tupFetched,
    walRecords: b.walRecords - a.walRecords,
    walBytes: b.walBytes - a.walBytes,
    walFpi: b.walFpi - a.walFpi,
  };
}

/**
 * CPU time (ms) of a PostgreSQL running on this machine, from /proc: the postmaster, the children
 * it has reaped and those alive (backends, WAL writer, checkpointer…). Null where that cannot be
 * read (another machine, no /proc, no permission). On a shared server it counts every database.
 */
async function postgresCpuReader(url: string): Promise<() => number | null> {
  const none = () => null;
  try {
    const dir = await withClient(url, async (client) => (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory);
    const postmaster = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!Number.isInteger(postmaster) || postmaster <= 0) return none;
    const TICK_MS = 10; // USER_HZ is 100 on Linux
    const stat = (pid: string) => readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, 4096);
    const fieldsOf = (text: string) => text.slice(text.lastIndexOf(')') + 2).split(' ');
    return () => {
      try {
        const own = fieldsOf(stat(String(postmaster)));
        // utime, stime, cutime, cstime are fields 14-17 of /proc/<pid>/stat; ppid is field 4.
        let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
        for (const entry of readdirSync('/proc')) {
          if (!/^\d+$/.test(entry)) continue;
          try {
            const f = fieldsOf(stat(entry));
            if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
          } catch {
            // the process has just exited
          }
        }
        return ticks * TICK_MS;
      } catch {
        return null;
      }
    };
  } catch {
    return none;
  }
}

interface Probe {
  counters: PgCounters | null;
  serverCpuMs: number | null;
  serverSystemMs: number | null;
  postgresCpuMs: number | null;
  clientCpuMs: number;
}

interface Probes {
  take(): Promise<Probe>;
}

function makeProbes(server: Server, statsClient: pg.Client, postgresCpu: () => number | null): Probes {
  return {
    async take() {
      const [counters, serverCpu] = await Promise.all([pgCounters(statsClient).catch(() => null), server.cpuMs()]);
      const usage = process.cpuUsage();
      return {
        counters,
        serverCpuMs: serverCpu?.total ?? null,
        serverSystemMs: serverCpu?.system ?? null,
        postgresCpuMs: postgresCpu(),
        clientCpuMs: (usage.user + usage.system) / 1000,
      };
    },
  };
}

/** CPU per operation (ms) between two probes, by process; null where unknown. */
interface CpuPerOp {
  server: number | null;
  /** The kernel's part of `server` (system time: sockets, mostly). */
  serverSystem: number | null;
  postgres: number | null;
  client: number;
}

function cpuPerOp(a: Probe, b: Probe, ops: number): CpuPerOp {
  const per = (x: number | null, y: number | null) => (x === null || y === null || ops === 0 ? null : (y - x) / ops);
  return {
    server: per(a.serverCpuMs, b.serverCpuMs),
    serverSystem: per(a.serverSystemMs, b.serverSystemMs),
    postgres: per(a.postgresCpuMs, b.postgresCpuMs),
    client: ops === 0 ? NaN : (b.clientCpuMs - a.clientCpuMs) / ops,
  };
}

// ---------------------------------------------------------------------------------------------
// The server: a child process running bench-server.js, or the same application in this process.

interface Server {
  url: string;
  mode: string;
  poolSize: number;
  /** CPU time of the server process so far (ms), and its system part; null when it runs in this process. */
  cpuMs(): Promise<{ total: number; system: number } | null>;
}

async function startServer(databaseUrl: string, options: Options): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    BENCH_DATABASE_URL: databaseUrl,
  };
  const config = loadConfig(env);
  if (options.inProcess) {
    const { createApp } = await import('../src/app.js');
    const app = await createApp(config, databaseUrl, pino({ level: 'silent' }));
    cleanups.push({ name: 'close the application', run: () => app.close() });
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    return {
      url,
      mode: 'in-process (the load generator shares the server’s event loop and CPU)',
      poolSize: config.databasePoolSize,
      cpuMs: async () => null,
    };
  }

  const script = join(dirname(fileURLToPath(import.meta.url)), 'bench-server.js');
  const nodeArgs: string[] = [];
  if (options.cpuProfDir) nodeArgs.push('--cpu-prof', '--cpu-prof-dir', resolve(options.cpuProfDir));
  nodeArgs.push(...options.serverNodeArgs);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, script], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  cleanups.push({
    name: 'stop the server process',
    run: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  });
  const ready = await new Promise<ServerReady>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the server process did not start within 60 s')), 60_000);
    child.on('message', (message) => {
      if ((message as { type?: string }).type === 'ready') {
        clearTimeout(timer);
        done(message as ServerReady);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`the server process exited with code ${code} before it was ready`));
    });
  });
  const cpuMs = () =>
    new Promise<{ total: number; system: number } | null>((done) => {
      if (!child.connected) return done(null);
      const timer = setTimeout(() => finish(null), 2_000);
      const onMessage = (message: unknown) => {
        const cpu = message as ServerCpu;
        if (cpu.type === 'cpu') finish({ total: (cpu.user + cpu.system) / 1000, system: cpu.system / 1000 });
      };
      const finish = (value: { total: number; system: number } | null) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        done(value);
      };
      child.on('message', onMessage);
      child.send({ type: 'cpu' });
    });
  const extra = [options.cpuProfDir ? `--cpu-prof into ${resolve(options.cpuProfDir)}` : '', options.serverNodeArgs.join(' ')].filter(Boolean);
  return {
    url: ready.url,
    mode: `separate process (pid ${ready.pid}${extra.length ? `; ${extra.join('; ')}` : ''})`,
    poolSize: ready.poolSize,
    cpuMs,
  };
}

// ---------------------------------------------------------------------------------------------
// GraphQL over HTTP with a keep-alive agent.

interface GraphQLError {
  message: string;
  extensions?: { code?: string };
}

interface GraphQLResponse<T> {
  status: number;
  data: T | null;
  errors: GraphQLError[] | null;
}

class GraphQLClient {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string, sockets: number) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  }

  request<T>(query: string, variables: Record<string, unknown>, token?: string): Promise<GraphQLResponse<T>> {
    const body = JSON.stringify({ query, variables });
    return new Promise((done, fail) => {
      const req = http.request(
        {
          host: this.host,
          port: this.port,
          path: '/graphql',
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', fail);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: { data?: T | null; errors?: GraphQLError[] } = {};
            try {
              parsed = JSON.parse(text) as typeof parsed;
            } catch {
              parsed = { errors: [{ message: text.slice(0, 200), extensions: { code: `HTTP_${res.statusCode}` } }] };
            }
            done({ status: res.statusCode ?? 0, data: parsed.data ?? null, errors: parsed.errors ?? null });
          });
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

function errorCode<T>(response: GraphQLResponse<T>): string | null {
  if (response.errors && response.errors.length > 0) return response.errors[0].extensions?.code ?? `HTTP_${response.status}`;
  if (response.status !== 200) return `HTTP_${response.status}`;
  return null;
}

async function must<T>(promise: Promise<GraphQLResponse<T>>, what: string): Promise<T> {
  const response = await promise;
  const code = errorCode(response);
  if (code !== null || !response.data) throw new Error(`${what} failed: ${code} ${response.errors?.[0]?.message ?? ''}`);
  return response.data;
}

// What a client rendering the table would ask for: the whole seat view.
const SEAT_VIEW = `fragment SeatViewFields on SeatView {
  family preset players phase deal dealer toMove viewer hand handSizes talonSize
  contract chooser contractsLeft exchanged bids declarer bid trump activeSeats discards
  currentTrick { leader winner cards { seat card } }
  lastTrick { leader winner cards { seat card } }
  tricks totals over winners
  dealScores { deal dealer contract declarer bid trump tricks scores }
  legalMoves { kind seat cards contracts bids suits maxDiscards count }
}`;

const MAKE_MOVE = `mutation Move($input: MakeMoveInput!) {
  makeMove(input: $input) {
    version status
    events { seq type seat card cards winner deal }
    game { ...SeatViewFields }
  }
}
${SEAT_VIEW}`;

const GAME_VIEW = `query Game($id: ID!) { game(id: $id) { id version status mySeat view { ...SeatViewFields } } }
${SEAT_VIEW}`;

const REGISTER = 'mutation Register($name: String!) { register(input: { name: $name }) { player { id } token } }';
const CREATE_LOBBY =
  'mutation Create($preset: String!) { createLobby(input: { preset: $preset, visibility: unlisted }) { id players inviteCode gameId } }';
const JOIN_LOBBY = 'mutation Join($code: String!) { joinLobby(input: { inviteCode: $code }) { id gameId } }';
const PLAY_AGAIN = 'mutation Again($id: ID!) { playAgain(gameId: $id) { id gameId } }';

interface LegalMovesView {
  kind: string;
  seat: number;
  cards: string[] | null;
  contracts: string[] | null;
  bids: string[] | null;
  suits: string[] | null;
  maxDiscards: number | null;
  count: number | null;
}

interface SeatView {
  phase: string;
  deal: number;
  toMove: number | null;
  viewer: number | null;
  hand: string[] | null;
  contractsLeft: string[][];
  activeSeats: number[];
  currentTrick: { leader: number; winner: number | null; cards: { seat: number; card: string }[] } | null;
  over: boolean;
  legalMoves: LegalMovesView | null;
}

interface MoveResult {
  makeMove: { version: number; status: string; game: SeatView };
}

interface GameViewResult {
  game: { id: string; version: number; status: string; mySeat: number | null; view: SeatView };
}

// ---------------------------------------------------------------------------------------------
// Games and how a seat picks its move.

/** xorshift32: a reproducible choice of moves per game. */
class Random {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  below(n: number): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s % n;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)];
  }
  sample<T>(xs: readonly T[], k: number): T[] {
    const copy = [...xs];
    for (let i = 0; i < k; i++) {
      const j = i + this.below(copy.length - i);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, k);
  }
}

interface Game {
  index: number;
  id: string;
  /** Token per seat. */
  tokens: string[];
  version: number;
  finished: boolean;
  /** The most recent view returned for any seat: its public part is current. */
  latest: SeatView;
  /** Each seat's own last view: its hand as of then. */
  own: (SeatView | null)[];
  random: Random;
  played: number;
}

type MoveInput = Record<string, unknown> & { kind: string };

/** A legal move for the seat to move, or null when that seat must look at the table first. */
function chooseMove(game: Game): MoveInput | null {
  const latest = game.latest;
  const seat = latest.toMove;
  if (seat === null) return null;
  const random = game.random;
  if (latest.viewer === seat && latest.legalMoves) return fromLegalMoves(latest.legalMoves, random);
  switch (latest.phase) {
    case 'contract': {
      const left = latest.contractsLeft[seat];
      return left && left.length > 0 ? { kind: 'contract', contract: random.pick(left) } : null;
    }
    case 'exchange':
      // Exchanging no card is always legal; the seat learns its full hand from the result.
      return { kind: 'exchange', discards: [] };
    case 'play': {
      const mine = game.own[seat];
      // The hand is the seat's own, as of its last view: valid for this deal once the contract is chosen.
      if (!mine || mine.deal !== latest.deal || mine.phase === 'contract' || !mine.hand || mine.hand.length === 0) return null;
      const trick = latest.currentTrick;
      const led = trick && trick.winner === null && trick.cards.length > 0 ? suitOf(trick.cards[0].card) : null;
      const following = led ? mine.hand.filter((card) => suitOf(card) === led) : [];
      return { kind: 'play', card: random.pick(following.length > 0 ? following : mine.hand) };
    }
    default:
      return null; // bidding, discard, trump: ask the table
  }
}

function suitOf(card: string): string {
  return card.slice(-1);
}

function fromLegalMoves(legal: LegalMovesView, random: Random): MoveInput {
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', contract: random.pick(legal.contracts!) };
    case 'exchange': {
      const cards = legal.cards ?? [];
      const k = random.below(Math.min(legal.maxDiscards ?? 0, cards.length, 3) + 1);
      return { kind: 'exchange', discards: random.sample(cards, k) };
    }
    case 'bid':
      return { kind: 'bid', bid: random.pick(legal.bids!) };
    case 'discard':
      return { kind: 'discard', cards: random.sample(legal.cards!, legal.count ?? 2) };
    case 'trump':
      return { kind: 'trump', suit: random.pick(legal.suits!) };
    case 'play':
      return { kind: 'play', card: random.pick(legal.cards!) };
    default:
      throw new Error(`unknown legal move kind ${legal.kind}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Setting up: players, lobbies filled, games started.

async function forEachLimited<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !interrupted) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (interrupted) throw new Error('interrupted');
}

async function refresh(client: GraphQLClient, game: Game, seat: number): Promise<string | null> {
  const response = await client.request<GameViewResult>(GAME_VIEW, { id: game.id }, game.tokens[seat]);
  const code = errorCode(response);
  if (code !== null || !response.data) return code ?? 'NO_DATA';
  const { view, version, status } = response.data.game;
  game.latest = view;
  game.own[seat] = view;
  game.version = version;
  game.finished = status === 'finished';
  return null;
}

async function startGame(client: GraphQLClient, game: Game, gameId: string): Promise<void> {
  game.id = gameId;
  game.version = 0;
  game.finished = false;
  game.own = game.tokens.map(() => null);
  const code = await refresh(client, game, 0);
  if (code !== null) throw new Error(`game(${gameId}) failed: ${code}`);
}

async function setUpGames(client: GraphQLClient, count: number, preset: string, seed: number): Promise<Game[]> {
  const tag = randomBytes(3).toString('hex');
  const games: Game[] = Array.from({ length: count }, (_, index) => ({
    index,
    id: '',
    tokens: [],
    version: 0,
    finished: false,
    latest: null as unknown as SeatView,
    own: [],
    random: new Random(seed * 7919 + index * 104729 + 1),
    played: 0,
  }));
  await forEachLimited(games, 32, async (game) => {
    const register = async (seat: number) => {
      const data = await must(client.request<{ register: { token: string } }>(REGISTER, { name: `b${tag}_${game.index}_${seat}` }), 'register');
      return data.register.token;
    };
    const host = await register(0);
    const lobby = (await must(client.request<{ createLobby: { id: string; players: number; inviteCode: string } }>(CREATE_LOBBY, { preset }, host), 'createLobby'))
      .createLobby;
    game.tokens = [host];
    let gameId: string | null = null;
    for (let seat = 1; seat < lobby.players; seat++) {
      const token = await register(seat);
      game.tokens.push(token);
      const joined = await must(client.request<{ joinLobby: { gameId: string | null } }>(JOIN_LOBBY, { code: lobby.inviteCode }, token), 'joinLobby');
      gameId = joined.joinLobby.gameId;
    }
    if (!gameId) throw new Error(`lobby ${lobby.id} is full but has no game`);
    await startGame(client, game, gameId);
  });
  return games;
}

// ---------------------------------------------------------------------------------------------
// One level: N games played at once.

interface LevelStats {
  games: number;
  seconds: number;
  moves: number;
  movesPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  errors: Record<string, number>;
  refreshes: number;
  refreshP50Ms: number;
  gamesFinished: number;
  /** CPU time per move by process, during the measured window (all requests, refreshes included). */
  cpuMsPerMove: CpuPerOp | null;
  postgres: { xactsPerMove: number; tuplesInsertedPerMove: number; tuplesUpdatedPerMove: number; walBytesPerMove: number; walRecordsPerMove: number } | null;
}

function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

function summarise(latencies: number[]) {
  const sorted = Float64Array.from(latencies).sort();
  const mean = latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : NaN;
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    mean,
  };
}

async function runMoveLevel(
  client: GraphQLClient,
  games: Game[],
  options: Options,
  probes: Probes,
): Promise<LevelStats> {
  let measuring = options.warmup === 0;
  let stopped = false;
  const latencies: number[] = [];
  const refreshLatencies: number[] = [];
  const errors: Record<string, number> = {};
  let moves = 0;
  let refreshes = 0;
  let gamesFinished = 0;
  let startedAt = performance.now();
  let stoppedAt = 0;
  let before: Promise<Probe> | null = null;
  let after: Promise<Probe> | null = null;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    stoppedAt = performance.now();
    after = probes.take();
  };
  const countError = (code: string) => {
    if (measuring && !stopped) errors[code] = (errors[code] ?? 0) + 1;
  };

  const loop = async (game: Game) => {
    while (!stopped && !interrupted) {
      if (game.finished || game.latest.toMove === null) {
        // A finished game: its players play again (not measured).
        const data = await must(client.request<{ playAgain: { gameId: string | null } }>(PLAY_AGAIN, { id: game.id }, game.tokens[0]), 'playAgain');
        if (measuring && !stopped) gamesFinished++;
        await startGame(client, game, data.playAgain.gameId!);
        continue;
      }
      const seat = game.latest.toMove;
      const input = chooseMove(game);
      if (input === null) {
        const t0 = performance.now();
        const code = await refresh(client, game, seat);
        if (measuring && !stopped) {
          refreshes++;
          refreshLatencies.push(performance.now() - t0);
        }
        if (code !== null) countError(`refresh:${code}`);
        continue;
      }
      const t0 = performance.now();
      let response: GraphQLResponse<MoveResult>;
      try {
        response = await client.request<MoveResult>(MAKE_MOVE, { input: { gameId: game.id, expectedVersion: game.version, ...input } }, game.tokens[seat]);
      } catch (error) {
        countError(`NETWORK:${(error as NodeJS.ErrnoException).code ?? 'error'}`);
        await new Promise((done) => setTimeout(done, 50));
        continue;
      }
      const elapsed = performance.now() - t0;
      const code = errorCode(response);
      if (code !== null || !response.data) {
        countError(code ?? 'NO_DATA');
        // Look at the table again before the next try.
        game.own[seat] = null;
        const again = await refresh(client, game, seat);
        if (again !== null) countError(`refresh:${again}`);
        continue;
      }
      const result = response.data.makeMove;
      game.version = result.version;
      game.finished = result.status === 'finished';
      game.latest = result.game;
      if (result.game.viewer !== null) game.own[result.game.viewer] = result.game;
      game.played++;
      if (measuring && !stopped) {
        moves++;
        latencies.push(elapsed);
        if (moves >= options.maxMoves) stop();
      }
      if (options.thinkMs > 0 && !stopped) {
        // A player thinking: uniform in [0.5, 1.5] × the mean.
        await new Promise((done) => setTimeout(done, options.thinkMs * (0.5 + game.random.below(1001) / 1000)));
      }
    }
  };

  if (measuring) before = probes.take();
  const warmupTimer = setTimeout(() => {
    measuring = true;
    startedAt = performance.now();
    before = probes.take();
  }, options.warmup * 1000);
  const stopTimer = setTimeout(stop, (options.warmup + options.seconds) * 1000);
  try {
    await Promise.all(games.map(loop));
  } finally {
    clearTimeout(warmupTimer);
    clearTimeout(stopTimer);
    stop();
  }
  // Set from timers and callbacks, which TypeScript's narrowing does not follow.
  const first = await (before as Promise<Probe> | null);
  const last = await (after as Promise<Probe> | null);
  const seconds = (stoppedAt - startedAt) / 1000;
  const delta = first?.counters && last?.counters ? counterDelta(first.counters, last.counters) : null;
  const per = (x: number) => (moves > 0 ? x / moves : NaN);
  return {
    games: games.length,
    seconds,
    moves,
    movesPerSecond: moves / seconds,
    latencyMs: summarise(latencies),
    errors,
    refreshes,
    refreshP50Ms: summarise(refreshLatencies).p50,
    gamesFinished,
    cpuMsPerMove: first && last ? cpuPerOp(first, last, moves) : null,
    postgres: delta
      ? {
          xactsPerMove: per(delta.xactCommit),
          tuplesInsertedPerMove: per(delta.tupInserted),
          tuplesUpdatedPerMove: per(delta.tupUpdated),
          walBytesPerMove: per(delta.walBytes),
          walRecordsPerMove: per(delta.walRecords),
        }
      : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The floor: bare single-row INSERT commits on the same database, pool size and concurrency.

interface CommitStats {
  loops: number;
  seconds: number;
  commits: number;
  commitsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  errors: number;
  cpuMsPerCommit: { postgres: number | null; client: number } | null;
}

async function runCommitLevel(pool: pg.Pool, loops: number, options: Options, probes: Probes): Promise<CommitStats> {
  const warmup = Math.min(options.warmup, 1);
  let measuring = warmup === 0;
  let stopped = false;
  const latencies: number[] = [];
  let commits = 0;
  let errors = 0;
  let startedAt = performance.now();
  let stoppedAt = 0;
  let before: Promise<Probe> | null = measuring ? probes.take() : null;
  let after: Promise<Probe> | null = null;
  const loop = async (worker: number) => {
    for (let n = 0; !stopped && !interrupted; n++) {
      const t0 = performance.now();
      try {
        // Autocommit: one statement, one transaction, one WAL flush (shared by group commit).
        await pool.query('INSERT INTO bench_commits (worker, n) VALUES ($1, $2)', [worker, n]);
      } catch {
        if (measuring && !stopped) errors++;
        continue;
      }
      if (measuring && !stopped) {
        commits++;
        latencies.push(performance.now() - t0);
      }
    }
  };
  const warmupTimer = setTimeout(() => {
    measuring = true;
    startedAt = performance.now();
    before = probes.take();
  }, warmup * 1000);
  const stopTimer = setTimeout(() => {
    stopped = true;
    stoppedAt = performance.now();
    after = probes.take();
  }, (warmup + options.commitSeconds) * 1000);
  try {
    await Promise.all(Array.from({ length: loops }, (_, i) => loop(i)));
  } finally {
    clearTimeout(warmupTimer);
    clearTimeout(stopTimer);
    if (!stoppedAt) stoppedAt = performance.now();
    stopped = true;
  }
  const seconds = (stoppedAt - startedAt) / 1000;
  // Set from timers and callbacks, which TypeScript's narrowing does not follow.
  const first = await (before as Promise<Probe> | null);
  const last = await (after as Promise<Probe> | null);
  const cpu = first && last ? cpuPerOp(first, last, commits) : null;
  return {
    loops,
    seconds,
    commits,
    commitsPerSecond: commits / seconds,
    latencyMs: summarise(latencies),
    errors,
    cpuMsPerCommit: cpu ? { postgres: cpu.postgres, client: cpu.client } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function fmt(x: number, digits = 1): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

interface LevelResult {
  concurrency: number;
  moves: LevelStats;
  commits: CommitStats;
  ratio: number;
}

function report(results: LevelResult[]): string {
  const moveRows = results.map((r) => {
    const m = r.moves;
    const errors = Object.entries(m.errors)
      .map(([code, n]) => `${code}:${n}`)
      .join(' ');
    return [
      String(r.concurrency),
      fmt(m.seconds, 1),
      String(m.moves),
      fmt(m.movesPerSecond, 0),
      fmt(m.latencyMs.p50, 2),
      fmt(m.latencyMs.p95, 2),
      fmt(m.latencyMs.p99, 2),
      fmt(m.latencyMs.max, 1),
      String(m.refreshes),
      String(m.gamesFinished),
      errors || '0',
    ];
  });
  const commitRows = results.map((r) => [
    String(r.concurrency),
    fmt(r.commits.commitsPerSecond, 0),
    fmt(r.commits.latencyMs.p50, 2),
    fmt(r.commits.latencyMs.p99, 2),
    fmt(r.moves.movesPerSecond, 0),
    fmt(r.ratio, 2),
    r.moves.postgres ? fmt(r.moves.postgres.xactsPerMove, 2) : '–',
    r.moves.postgres ? fmt(r.moves.postgres.tuplesInsertedPerMove, 2) : '–',
    r.moves.postgres ? fmt(r.moves.postgres.walBytesPerMove, 0) : '–',
  ]);
  const ms = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '–' : fmt(x, digits));
  const cores = (perOp: number | null | undefined, rate: number) => (perOp === null || perOp === undefined ? '–' : fmt((perOp * rate) / 1000, 2));
  const cpuRows = results.map((r) => {
    const c = r.moves.cpuMsPerMove;
    const k = r.commits.cpuMsPerCommit;
    return [
      String(r.concurrency),
      ms(c?.server),
      ms(c?.serverSystem),
      cores(c?.server, r.moves.movesPerSecond),
      ms(c?.postgres),
      cores(c?.postgres, r.moves.movesPerSecond),
      ms(c?.client),
      ms(k?.postgres, 3),
      cores(k?.postgres, r.commits.commitsPerSecond),
    ];
  });
  return [
    'Moves (makeMove over GraphQL/HTTP, latency as the client sees it)',
    table(['games', 's', 'moves', 'moves/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'refreshes', 'finished', 'errors'], moveRows),
    '',
    'Bare commits (pg Pool, same pool size, N loops of INSERT one row + COMMIT) and the ratio',
    table(['loops', 'commits/s', 'p50 ms', 'p99 ms', 'moves/s', 'moves/commits', 'xacts/move', 'rows ins/move', 'WAL B/move'], commitRows),
    '',
    'CPU time per operation (ms) and cores busy, by process (/proc and process.cpuUsage; PostgreSQL: all its processes)',
    table(['games', 'server/move', 'of it sys', 'cores', 'pg/move', 'cores', 'client/move', 'pg/commit', 'cores'], cpuRows),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const load0 = loadavg();
  process.on('SIGINT', () => {
    if (interrupted) return;
    interrupted = true;
    log('interrupted: stopping');
  });
  process.on('SIGTERM', () => {
    interrupted = true;
  });

  const database = await startDatabase();
  log(`applying migrations`);
  await applyMigrations(database.url);
  const settings = await postgresSettings(database.url);
  const server = await startServer(database.url, options);
  log(`server at ${server.url}: ${server.mode}`);

  const maxLevel = Math.max(...options.levels);
  const client = new GraphQLClient(server.url, maxLevel + 16);
  cleanups.push({ name: 'close the HTTP agent', run: async () => client.close() });
  const setupStart = performance.now();
  log(`setting up ${maxLevel} games (${options.preset})`);
  const games = await setUpGames(client, maxLevel, options.preset, options.seed);
  const setupSeconds = (performance.now() - setupStart) / 1000;
  log(`set up in ${fmt(setupSeconds, 1)} s`);

  await withClient(database.url, (c) =>
    c.query('CREATE TABLE IF NOT EXISTS bench_commits (id bigserial PRIMARY KEY, worker int NOT NULL, n int NOT NULL, at timestamptz NOT NULL DEFAULT now())'),
  );
  const statsClient = new pg.Client({ connectionString: database.url });
  await statsClient.connect();
  cleanups.push({ name: 'close the stats connection', run: () => statsClient.end() });

  const probes = makeProbes(server, statsClient, await postgresCpuReader(database.url));
  const results: LevelResult[] = [];
  for (const level of options.levels) {
    if (interrupted) break;
    log(`level ${level}: ${options.warmup} s warm-up, then ${options.seconds} s of moves`);
    const moves = await runMoveLevel(client, games.slice(0, level), options, probes);
    if (interrupted) break;
    log(`level ${level}: ${fmt(moves.movesPerSecond, 0)} moves/s, p99 ${fmt(moves.latencyMs.p99, 2)} ms; now ${options.commitSeconds} s of bare commits`);
    // A pool per level, ended after it: a backend reports its statistics late (when idle, or when it
    // exits), which would otherwise count these inserts in the next level's moves.
    const pool = new pg.Pool({ connectionString: database.url, max: server.poolSize, connectionTimeoutMillis: 10_000 });
    const ending = { name: 'end the commit pool', run: () => pool.end() };
    cleanups.push(ending);
    const commits = await runCommitLevel(pool, level, options, probes);
    cleanups.splice(cleanups.indexOf(ending), 1);
    await pool.end();
    results.push({ concurrency: level, moves, commits, ratio: moves.movesPerSecond / commits.commitsPerSecond });
  }

  const load1 = loadavg();
  const header = [
    `Mizerka API benchmark — ${new Date(started).toISOString()}`,
    `server:   ${server.mode}; pool ${server.poolSize} connections; NODE_ENV=production, LOG_LEVEL=silent`,
    `database: ${database.description}`,
    `postgres: ${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
    `machine:  ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${load0.map((x) => x.toFixed(2)).join(' ')} at start, ${load1.map((x) => x.toFixed(2)).join(' ')} at end; node ${process.version}`,
    `run:      preset ${options.preset}, ${options.thinkMs > 0 ? `think ${options.thinkMs} ms (±50%) between moves` : 'closed loop (no think time)'}, ` +
      `${options.warmup} s warm-up + ${options.seconds} s (≤ ${options.maxMoves} moves) per level, ` +
      `${options.commitSeconds} s of commits; ${maxLevel} games set up in ${fmt(setupSeconds, 1)} s`,
  ].join('\n');
  process.stdout.write(`\n${header}\n\n${report(results)}\n`);
  const at100 = results.find((r) => r.concurrency === 100);
  if (at100) {
    const half = at100.ratio >= 0.5;
    const p99 = at100.moves.latencyMs.p99 < 20;
    process.stdout.write(
      `\nGoal at 100 games: moves/s ≥ ½ bare commits/s: ${half ? 'met' : 'NOT met'} (${fmt(at100.ratio, 2)}); ` +
        `p99 < 20 ms: ${p99 ? 'met' : 'NOT met'} (${fmt(at100.moves.latencyMs.p99, 2)} ms)\n`,
    );
  }
  process.stdout.write(
    '\nrefreshes: game(id) queries a seat made before moving when its own last view could not tell it its hand (not in moves/s).\n' +
      'xacts/move: PostgreSQL transactions committed per move (read-only statements count too), from pg_stat_database; approximate.\n' +
      (options.thinkMs > 0
        ? ''
        : 'Closed loop: each game waits only for its last answer, so latency ≈ games ÷ moves/s (Little’s law) once the server is saturated; --think MS adds players’ pauses.\n'),
  );
  if (options.json) {
    const file = resolve(options.json);
    await writeFile(
      file,
      `${JSON.stringify({ startedAt: new Date(started).toISOString(), options, server: server.mode, poolSize: server.poolSize, database: database.description, postgres: settings, machine: { cpus: cpus().length, loadavgStart: load0, loadavgEnd: load1, node: process.version }, setupSeconds, levels: results }, null, 2)}\n`,
    );
    process.stdout.write(`JSON written to ${file}\n`);
  }
  log(`done in ${fmt((Date.now() - started) / 1000, 0)} s`);
}

main()
  .catch((error: unknown) => {
    process.exitCode = 1;
    process.stderr.write(`api-bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  })
  .finally(async () => {
    await cleanUp();
    // Anything left (keep-alive sockets, timers) must not keep the process alive.
    process.exit(process.exitCode ?? (interrupted ? 130 : 0));
  });
