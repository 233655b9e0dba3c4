/**
 * `npm run bench:api -- --instances N [--workers N] [--game-cache on,off] [--subscribers S]`:
 * several server instances on one PostgreSQL and one Redis, in one run. Modes, each with every
 * --game-cache value: one instance (bench-server.js), N instances (N bench-server.js processes,
 * each its own port, same DATABASE_URL and REDIS_URL) and, with --workers, one server process
 * started as `npm start` starts it (main.js) with WORKERS=N. Each mode's servers are started for
 * it and stopped after it (an idle instance would otherwise work the outbox jobs of the others).
 * Requests go round-robin over a mode's instances, one by one, as a load balancer without
 * stickiness would send them: the players of one game hit different instances.
 *
 * Per level and mode: moves/s, latency, CPU per move of the servers (all their processes), of
 * PostgreSQL (this database's backends and the server's background processes), of the load
 * generator and of Redis, and the ceiling: cores ÷ (server + PostgreSQL + load generator CPU per
 * move). With --subscribers, the N-instance mode plays each level again with S gameLog
 * subscribers spread over the instances: commit → delivery lag.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresCpuReader, postgresSettings, startDatabase, statsReader } from './database.js';
import { httpTransport, type GraphQLTransport, type HttpTransport } from './game-client/index.js';
import { followGameLogs, wallClock } from './game-log-followers.js';
import { interrupted, log, onCleanUp } from './lifecycle.js';
import { makeProbes, summarise, type LatencySummary, type Probe, type Probes } from './measure.js';
import type { Options } from './options.js';
import { runMoveLevel, setUpGames, type Game, type LevelStats, type Router } from './players.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const TICK_MS = 10; // USER_HZ
const stat = (pid: number | string) => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
};
/** utime + stime (+ cutime + cstime: children it reaped) of a process, in ticks. */
const ticksOf = (f: string[], reaped: boolean) => Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);

/** CPU (ms) of a process and all its descendants, alive or reaped; null once it is gone. */
function treeCpuMs(root: number): number | null {
  try {
    const parents = new Map<number, number>();
    const ticks = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const f = stat(entry);
        parents.set(Number(entry), Number(f[1]));
        ticks.set(Number(entry), ticksOf(f, true));
      } catch {
        // gone
      }
    }
    let total = 0;
    const inTree = (pid: number): boolean => {
      for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 16; p = parents.get(p), hops++) if (p === root) return true;
      return false;
    };
    for (const [pid, t] of ticks) if (inTree(pid)) total += t;
    return ticks.has(root) ? total * TICK_MS : null;
  } catch {
    return null;
  }
}

/**
 * PostgreSQL CPU (ms) spent for this run: the backends connected to its database and the server's
 * background processes (WAL writer, checkpointer…, shared with other databases), from /proc,
 * accumulated per process between readings (a backend that comes and goes between two readings
 * is missed). Other databases' backends, which the machine's other work keeps busy, are left out.
 */
async function ownPostgresCpuReader(url: string): Promise<(() => Promise<number | null>) | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  onCleanUp('close the PostgreSQL CPU connection', () => client.end());
  const seen = new Map<number, number>();
  let total = 0;
  try {
    stat(1);
  } catch {
    return null;
  }
  return async () => {
    try {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() OR backend_type NOT IN ('client backend', 'autovacuum worker', 'parallel worker')`,
      );
      for (const { pid } of rows) {
        try {
          const t = ticksOf(stat(pid), false) * TICK_MS;
          total += t - (seen.get(pid) ?? t); // a process seen for the first time counts from now
          seen.set(pid, t);
        } catch {
          seen.delete(pid);
        }
      }
      return total;
    } catch {
      return null;
    }
  };
}

/** Redis's CPU (ms) from /proc (its pid from INFO); null when it is not on this machine. */
async function redisCpuReader(url: string): Promise<() => number | null> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    return () => {
      try {
        return ticksOf(stat(pid), true) * TICK_MS;
      } catch {
        return null;
      }
    };
  } catch {
    return () => null;
  } finally {
    redis.disconnect();
  }
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

interface Running {
  urls: string[];
  /** CPU (ms) of every server process of the mode, summed; null if one cannot be read. */
  cpuMs(): Promise<number | null>;
  pids: string;
  stop(): Promise<void>;
}

/** N bench-server.js processes, each its own port, all on the same database and Redis. */
async function startInstances(databaseUrl: string, count: number, env: Record<string, string>, jobWorker: 'all' | 'first' = 'all'): Promise<Running> {
  const servers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startServer(databaseUrl, { inProcess: false, cpuProfDir: null, serverNodeArgs: [], env: { ...env, ...(jobWorker === 'first' && i > 0 ? { JOB_WORKER: 'false' } : {}) } }),
    ),
  );
  return {
    urls: servers.map((s) => s.url),
    async cpuMs() {
      const all = await Promise.all(servers.map((s) => s.cpuMs()));
      return all.every((c) => c !== null) ? all.reduce((sum, c) => sum + c!.total, 0) : null;
    },
    pids: servers.map((s) => /pid (\d+)/.exec(s.mode)?.[1] ?? '?').join(', '),
    stop: async () => void (await Promise.all(servers.map((s) => s.stop()))),
  };
}

/** One server process as `npm start` runs it (main.js) with WORKERS=N; CPU of its whole process tree. */
async function startWorkers(databaseUrl: string, workers: number, env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const main = join(dirname(fileURLToPath(import.meta.url)), '../src/main.js');
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', WORKERS: String(workers) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = onCleanUp('stop the WORKERS server', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    await exited;
    clearTimeout(timer);
  });
  const url = `http://127.0.0.1:${port}`;
  const probe = httpTransport(url, { sockets: 4 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the WORKERS=${workers} server exited with code ${child.exitCode}`);
    const ok = await probe.gql('{ __typename }').then(
      (r) => r.status === 200,
      () => false,
    );
    // Every worker listening: as many children of the primary as workers.
    if (ok && children(child.pid!) >= workers) break;
    if (Date.now() > deadline) throw new Error(`the WORKERS=${workers} server did not start within 60 s`);
    await new Promise((done) => setTimeout(done, 250));
  }
  probe.close();
  return { urls: [url], cpuMs: async () => treeCpuMs(child.pid!), pids: `${child.pid} and its ${workers} workers`, stop };
}

function children(pid: number): number {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(stat(entry)[1]) === pid) n++;
    } catch {
      // gone
    }
  }
  return n;
}

/** Round-robin per request over the instances' transports. */
function balance(
  transports: HttpTransport[],
): GraphQLTransport & Router & { writerOf(gameId: string, seq: number): number | undefined; latencies(instance: number, from: number, to: number): number[] } {
  let next = 0;
  // Every request's answer time (wall clock) and latency (ms), per instance.
  const answered = transports.map(() => ({ at: [] as number[], ms: [] as number[] }));
  const timed: GraphQLTransport[] = transports.map((t, i) => ({
    async gql(query, variables, token) {
      const t0 = performance.now();
      try {
        return await t.gql(query, variables, token);
      } finally {
        answered[i].at.push(wallClock());
        answered[i].ms.push(performance.now() - t0);
      }
    },
  }));
  const pick = () => {
    const instance = next;
    next = (next + 1) % transports.length;
    return { client: timed[instance], instance };
  };
  // Which instance wrote each log entry (game id → seq → instance), for the subscribers' lag by path.
  const writers = new Map<string, Map<number, number>>();
  return {
    pick,
    gql: (query, variables, token) => pick().client.gql(query, variables, token),
    moved(gameId, from, to, instance) {
      let seqs = writers.get(gameId);
      if (!seqs) writers.set(gameId, (seqs = new Map()));
      for (let seq = from + 1; seq <= to; seq++) seqs.set(seq, instance);
    },
    writerOf: (gameId: string, seq: number) => writers.get(gameId)?.get(seq),
    latencies(instance, from, to) {
      const { at, ms } = answered[instance];
      const out: number[] = [];
      for (let k = 0; k < at.length; k++) if (at[k] >= from && at[k] <= to) out.push(ms[k]);
      return out;
    },
  };
}

interface Mode {
  name: string;
  kind: 'one' | 'instances' | 'workers';
  cache: 'on' | 'off';
}

interface ModeLevel {
  mode: Mode;
  level: number;
  moves: LevelStats;
  /** CPU per move (ms). */
  cpu: { server: number | null; postgres: number | null; postgresAll: number | null; client: number; redis: number | null };
  /** cores ÷ (server + PostgreSQL + client CPU per move). */
  ceiling: number | null;
  loadavg: number;
  /** Latency of every request answered in the window, by the instance (or agent, with WORKERS) that took it. */
  byInstance: LatencySummary[];
  subscribers?: {
    count: number;
    connected: number;
    entries: number;
    lagMs: LatencySummary;
    lagP90Ms: number;
    /** Entries written through the subscriber's own instance, and through the other(s): Redis on the way. */
    sameInstance: LatencySummary & { n: number };
    otherInstance: LatencySummary & { n: number };
    errors: Record<string, number>;
    loopDelayP99Ms: number;
  };
}

/** The run of --instances/--workers: database, games, then every mode × level; prints the report. */
export async function runInstances(options: Options): Promise<void> {
  const started = Date.now();
  const redisUrl = process.env.REDIS_URL?.trim();
  if (!redisUrl) throw new Error('--instances/--workers need REDIS_URL (e.g. REDIS_URL=redis://127.0.0.1:6379)');
  const database = await startDatabase();
  const settings = await postgresSettings(database.url);
  const counters = await statsReader(database.url);
  const postgresAll = await postgresCpuReader(database.url);
  const postgresOwn = await ownPostgresCpuReader(database.url);
  const redisCpu = await redisCpuReader(redisUrl);
  const cores = cpus().length;
  const maxLevel = Math.max(...options.levels);
  const several = Math.max(options.instances, 2);

  const modes: Mode[] = options.gameCache.flatMap((cache) => [
    { name: `1 instance, GAME_CACHE=${cache}`, kind: 'one' as const, cache },
    ...(options.instances > 1 ? [{ name: `${options.instances} instances${options.jobWorker === 'first' ? ' (jobs on the 1st)' : ''}, GAME_CACHE=${cache}`, kind: 'instances' as const, cache }] : []),
    ...(options.workers > 1 ? [{ name: `WORKERS=${options.workers}, GAME_CACHE=${cache}`, kind: 'workers' as const, cache }] : []),
  ]);
  const baseEnv = (cache: string, subscribers: boolean): Record<string, string> => ({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
    WS_MAX_SOCKETS_PER_IP: '100000',
    REDIS_URL: redisUrl,
    GAME_CACHE: cache === 'on' ? 'true' : 'false',
    ...(subscribers ? { WS_MAX_SOCKETS_PER_PLAYER: '10000', WS_MAX_SUBSCRIPTIONS_PER_PLAYER: '100000', WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '100' } : {}),
  });
  const start = (mode: Mode, subscribers: boolean) =>
    mode.kind === 'one'
      ? startInstances(database.url, 1, baseEnv(mode.cache, subscribers))
      : mode.kind === 'instances'
        ? startInstances(database.url, several, baseEnv(mode.cache, subscribers), options.jobWorker)
        : startWorkers(database.url, options.workers, baseEnv(mode.cache, subscribers));

  let games: Game[] | null = null;
  const results: ModeLevel[] = [];
  const runLevels = async (mode: Mode, subscribers: number) => {
    const running = await start(mode, subscribers > 0);
    log(`${mode.name}${subscribers ? ` + ${subscribers} gameLog subscribers` : ''}: servers ${running.urls.join(' ')} (pids ${running.pids})`);
    // WORKERS: one URL, but as many agents as a table has seats, round-robin: players have connections of
    // their own, which the cluster's primary deals out to the workers. With one agent a game's next
    // request would mostly reuse the socket its last answer freed (the agent's LIFO): one worker.
    const urls = mode.kind === 'workers' ? Array.from({ length: 4 }, () => running.urls[0]) : running.urls;
    const transports = urls.map((url) => httpTransport(url, { sockets: maxLevel + 16 }));
    const client = balance(transports);
    try {
      if (!games) {
        log(`setting up ${maxLevel} games (${options.preset})`);
        const t0 = performance.now();
        games = await setUpGames(client, maxLevel, options.preset, options.seed);
        log(`set up in ${fmt((performance.now() - t0) / 1000, 1)} s`);
      }
      for (const game of games) game.cachedAt = undefined; // the new servers' caches are empty
      let redisAt: Array<number | null> = [];
      const probes: Probes = {
        async take(): Promise<Probe> {
          const own = postgresOwn ? await postgresOwn() : null;
          const base = await makeProbes({ counters, serverCpu: async () => ((cpu) => (cpu === null ? null : { total: cpu, system: NaN }))(await running.cpuMs()), postgresCpu: () => own }).take();
          redisAt.push(redisCpu());
          return { ...base, serverSystemMs: postgresAll() };
        },
      };
      for (const level of options.levels) {
        if (interrupted()) break;
        const slice = games.slice(0, level);
        let followers: ReturnType<typeof followGameLogs> | null = null;
        const delay = monitorEventLoopDelay({ resolution: 10 });
        if (subscribers > 0) {
          followers = followGameLogs(running.urls, slice, subscribers, client.writerOf);
          const until = Date.now() + 60_000;
          while (followers.connected() < subscribers && Date.now() < until && !interrupted()) await new Promise((done) => setTimeout(done, 200));
          log(`${followers.connected()} of ${subscribers} subscribers connected`);
          await new Promise((done) => setTimeout(done, 1000));
          delay.enable();
        }
        redisAt = [];
        log(`${mode.name}, ${level} games: ${options.warmup} s warm-up, then ${options.seconds} s of moves`);
        const from = wallClock() + options.warmup * 1000;
        const moves = await runMoveLevel(client, slice, options, probes, client);
        const to = wallClock();
        delay.disable();
        // Probe: serverSystemMs carries the whole PostgreSQL server's CPU (all databases) here.
        const c = moves.cpuMsPerMove;
        const redisPerMove = redisAt.length === 2 && redisAt[0] !== null && redisAt[1] !== null && moves.moves > 0 ? (redisAt[1] - redisAt[0]) / moves.moves : null;
        const cpu = { server: c?.server ?? null, postgres: c?.postgres ?? null, postgresAll: c?.serverSystem ?? null, client: c?.client ?? NaN, redis: redisPerMove };
        const per = cpu.server !== null && cpu.postgres !== null ? cpu.server + cpu.postgres + cpu.client : null;
        const byInstance = transports.map((_, i) => summarise(client.latencies(i, from, to)));
        const result: ModeLevel = { mode, level, moves, cpu, ceiling: per ? (cores * 1000) / per : null, loadavg: loadavg()[0], byInstance };
        if (followers) {
          await new Promise((done) => setTimeout(done, 1000)); // the last entries on their way
          const lags = followers.lags(from, to);
          const sorted = Float64Array.from(lags).sort();
          result.subscribers = {
            count: subscribers,
            connected: followers.connected(),
            entries: lags.length,
            lagMs: summarise(lags),
            lagP90Ms: sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] : NaN,
            sameInstance: ((l) => ({ ...summarise(l), n: l.length }))(followers.lags(from, to, 'same')),
            otherInstance: ((l) => ({ ...summarise(l), n: l.length }))(followers.lags(from, to, 'other')),
            errors: followers.errors,
            loopDelayP99Ms: delay.percentile(99) / 1e6,
          };
          await followers.close();
        }
        results.push(result);
        log(
          `${mode.name}, ${level} games: ${fmt(moves.movesPerSecond, 0)} moves/s, p99 ${fmt(moves.latencyMs.p99, 1)} ms, server ${fmt(cpu.server ?? NaN, 2)} + pg ${fmt(cpu.postgres ?? NaN, 2)} + client ${fmt(cpu.client, 2)} ms/move` +
            (result.subscribers ? `; log lag p99 ${fmt(result.subscribers.lagMs.p99, 1)} ms over ${result.subscribers.entries} deliveries` : ''),
        );
      }
    } finally {
      for (const t of transports) t.close();
      await running.stop();
    }
  };
  for (const mode of modes) {
    if (interrupted()) break;
    await runLevels(mode, 0);
  }
  if (options.subscribers > 0 && !interrupted()) {
    for (const cache of options.gameCache) await runLevels({ name: `${several} instances${options.jobWorker === 'first' ? ' (jobs on the 1st)' : ''}, GAME_CACHE=${cache}`, kind: 'instances', cache }, options.subscribers);
  }
  process.stdout.write(instancesReport(options, { started, database: database.description, settings, cores, loadavgEnd: loadavg() }, results));
  if (options.json) {
    const path = resolve(options.json);
    await writeFile(path, `${JSON.stringify({ startedAt: new Date(started).toISOString(), options, database: database.description, postgres: settings, cores, results }, null, 2)}\n`);
    process.stdout.write(`JSON written to ${path}\n`);
  }
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function instancesReport(
  options: Options,
  run: { started: number; database: string; settings: Record<string, string>; cores: number; loadavgEnd: number[] },
  results: ModeLevel[],
): string {
  const ms = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '–' : fmt(x, d));
  const plain = results.filter((r) => !r.subscribers);
  const rows = plain.map((r) => {
    const m = r.moves;
    const errors = Object.entries(m.errors).map(([code, n]) => `${code}:${n}`).join(' ') || '0';
    // WORKERS: the cluster's primary hands each connection to a worker, so which one a request reaches is not known here.
    const cache = r.mode.kind === 'workers' ? 'n/a' : m.cache && m.moves > 0 ? `${fmt((100 * m.cache.hits) / m.moves, 0)}/${fmt((100 * m.cache.stale) / m.moves, 0)}/${fmt((100 * m.cache.misses) / m.moves, 0)}` : '–';
    return [
      r.mode.name,
      String(r.level),
      fmt(m.movesPerSecond, 0),
      fmt(m.latencyMs.p50, 1),
      fmt(m.latencyMs.p99, 1),
      errors,
      ms(r.cpu.server),
      ms(r.cpu.postgres),
      ms(r.cpu.client),
      ms(r.cpu.server !== null && r.cpu.postgres !== null ? r.cpu.server + r.cpu.postgres + r.cpu.client : null),
      r.ceiling === null ? '–' : fmt(r.ceiling, 0),
      r.ceiling === null ? '–' : `${fmt((100 * m.movesPerSecond) / r.ceiling, 0)} %`,
      ms(m.postgres?.xactsPerMove),
      cache,
      ms(r.cpu.redis),
      ms(r.cpu.postgresAll),
      r.byInstance.map((l) => `${fmt(l.p50, 0)}/${fmt(l.p99, 0)}`).join(' '),
      fmt(r.loadavg, 1),
    ];
  });
  let text =
    `\nMizerka API benchmark, several instances — ${new Date(run.started).toISOString()}\n` +
    `database: ${run.database}\npostgres: ${Object.entries(run.settings).map(([k, v]) => `${k}=${v}`).join(' ')}\n` +
    `machine:  ${run.cores} CPUs, load average ${run.loadavgEnd.map((x) => x.toFixed(2)).join(' ')} at end; node ${process.version}\n` +
    `run:      preset ${options.preset}, ${options.thinkMs > 0 ? `think ${options.thinkMs} ms` : 'closed loop'}, ${options.warmup} s warm-up + ${options.seconds} s per level; requests round-robin over a mode's instances (WORKERS: over 4 HTTP agents to its one port)${options.withoutExpectedVersion ? '; moves WITHOUT expectedVersion' : ''}\n\n` +
    table(
      ['mode', 'games', 'moves/s', 'p50 ms', 'p99 ms', 'errors', 'server ms/move', 'pg', 'client', 'sum', 'ceiling/s', 'of ceiling', 'xacts/move', 'cache hit/stale/miss %', 'redis ms/move', 'pg all dbs', 'p50/p99 ms by instance', 'load'],
      rows,
    ) +
    '\n';
  text +=
    `\nserver: CPU of every server process of the mode (instances: process.cpuUsage over IPC, summed; WORKERS: /proc, the primary and its workers). ` +
    `pg: this database's backends + PostgreSQL's background processes (/proc); pg all dbs: every process of the PostgreSQL server (other sessions' databases too). ` +
    `client: the load generator. ceiling = ${run.cores} cores ÷ (server + pg + client) ms per move. cache: what the instance a move reached held in its game-state cache ` +
    `(modelled from the requests: hit = the version moved at, stale = an older one, so a read; with GAME_CACHE=off every move reads). Redis: its whole process (shared).\n`;
  for (const level of options.levels) {
    for (const several of plain.filter((r) => r.level === level && r.mode.kind !== 'one')) {
      const one = plain.find((r) => r.level === level && r.mode.kind === 'one' && r.mode.cache === several.mode.cache);
      if (!one || several.ceiling === null) continue;
      const share = several.moves.movesPerSecond / several.ceiling;
      const p99 = several.moves.latencyMs.p99 < one.moves.latencyMs.p99;
      text +=
        `${level} games, ${several.mode.name}: ${fmt(100 * share, 0)} % of the ceiling (goal ≥ 90 %: ${share >= 0.9 ? 'met' : 'NOT met'}), ` +
        `p99 ${fmt(several.moves.latencyMs.p99, 1)} ms vs ${fmt(one.moves.latencyMs.p99, 1)} ms with 1 instance (goal below: ${p99 ? 'met' : 'NOT met'}); ${fmt(several.moves.movesPerSecond / one.moves.movesPerSecond, 2)}× its moves/s` +
        (one.ceiling === null ? '' : `; ${fmt((100 * several.moves.movesPerSecond) / one.ceiling, 0)} % of the 1-instance ceiling (${fmt(one.ceiling, 0)}/s)`) +
        '\n';
    }
  }
  const fanOut = results.filter((r) => r.subscribers);
  if (fanOut.length > 0) {
    text +=
      '\ngameLog subscribers spread over the instances while moves go through all of them (lag = read by the subscriber − the entry’s createdAt, entries of the measured window)\n' +
      table(
        ['mode', 'games', 'subscribers', 'moves/s', 'move p99 ms', 'deliveries', 'lag p50 ms', 'p90', 'p99', 'max', 'same instance p50/p99 (n)', 'other instance p50/p99 (n)', 'errors', 'server ms/move', 'client ms/move', 'loop delay p99 ms', 'load'],
        fanOut.map((r) => {
          const s = r.subscribers!;
          return [
            r.mode.name,
            String(r.level),
            `${s.connected}/${s.count}`,
            fmt(r.moves.movesPerSecond, 0),
            fmt(r.moves.latencyMs.p99, 1),
            String(s.entries),
            fmt(s.lagMs.p50, 1),
            fmt(s.lagP90Ms, 1),
            fmt(s.lagMs.p99, 1),
            fmt(s.lagMs.max, 1),
            `${fmt(s.sameInstance.p50, 1)}/${fmt(s.sameInstance.p99, 1)} (${s.sameInstance.n})`,
            `${fmt(s.otherInstance.p50, 1)}/${fmt(s.otherInstance.p99, 1)} (${s.otherInstance.n})`,
            Object.entries(s.errors).map(([code, n]) => `${code}:${n}`).join(' ') || '0',
            ms(r.cpu.server),
            ms(r.cpu.client),
            fmt(s.loopDelayP99Ms, 1),
            fmt(r.loadavg, 1),
          ];
        }),
      ) +
      '\n';
    for (const r of fanOut) text += `${r.level} games, ${r.mode.name}: commit → delivery p99 < 50 ms: ${r.subscribers!.lagMs.p99 < 50 ? 'met' : 'NOT met'} (${fmt(r.subscribers!.lagMs.p99, 1)} ms)\n`;
  }
  return text;
}
