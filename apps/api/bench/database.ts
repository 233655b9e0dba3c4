// PostgreSQL for the benchmark: an embedded server in a temporary folder, or a fresh database on
// DATABASE_URL's server; its settings, counters and CPU time; and the floor the moves are compared
// with, bare single-row INSERT commits on the same database, pool size and concurrency.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prepareDatabase } from '../src/database/job-queue.js';
import { interrupted, log, onCleanUp } from './lifecycle.js';
import { cpuPerOp, summarise, type LatencySummary, type PgCounters, type Probe, type Probes } from './measure.js';
import pg from 'pg';
import { withClient } from '../src/database/with-client.js';

export { withClient };

export interface Database {
  url: string;
  description: string;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}


/** A database for the run, migrated; what it is, for the report. Removed by the clean-up. */
export async function startDatabase(): Promise<Database> {
  const database = await createDatabase();
  log('applying migrations');
  await prepareDatabase(database.url);
  return database;
}

async function createDatabase(): Promise<Database> {
  const given = process.env.DATABASE_URL?.trim();
  if (given) {
    const name = `mizerka_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await withClient(given, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
    onCleanUp(`drop database ${name}`, () =>
      withClient(given, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      }),
    );
    const host = new URL(given).host;
    return { url: withDatabase(given, name), description: `DATABASE_URL server ${host}, fresh database ${name} (dropped at the end)` };
  }
  const tempDir = await mkdtemp(join(tmpdir(), 'mizerka-bench-'));
  onCleanUp(`remove ${tempDir}`, () => rm(tempDir, { recursive: true, force: true }));
  // Run as root, PostgreSQL runs as the `postgres` user, which must be able to enter the folder.
  await chmod(tempDir, 0o755);
  const { startEmbeddedPostgres } = await import('../src/database/embedded-postgres.js');
  const dataDir = join(tempDir, 'postgres');
  log(`starting the embedded PostgreSQL in ${dataDir}`);
  const embedded = await startEmbeddedPostgres({ dataDir });
  onCleanUp('stop the embedded PostgreSQL', () => embedded.stop());
  return { url: embedded.url, description: `embedded PostgreSQL, temporary cluster ${dataDir} (removed at the end)` };
}

/** The settings that bear on commit cost, as `name → value with unit`. */
export async function postgresSettings(url: string): Promise<Record<string, string>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string; setting: string }>(
      `SELECT name, setting || coalesce(unit, '') AS setting FROM pg_settings
        WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers',
                       'max_connections', 'commit_delay', 'full_page_writes', 'wal_level')`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  });
}

/** A connection kept for reading the counters during the run (closed by the clean-up). */
export async function statsReader(url: string): Promise<() => Promise<PgCounters | null>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  onCleanUp('close the stats connection', () => client.end());
  return () => pgCounters(client).catch(() => null);
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

/**
 * CPU time (ms) of a PostgreSQL running on this machine, from /proc: the postmaster, the children
 * it has reaped and those alive (backends, WAL writer, checkpointer…). Null where that cannot be
 * read (another machine, no /proc, no permission). On a shared server it counts every database.
 */
export async function postgresCpuReader(url: string): Promise<() => number | null> {
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

// ---------------------------------------------------------------------------------------------
// The floor: bare single-row INSERT commits.

export interface CommitStats {
  loops: number;
  seconds: number;
  commits: number;
  commitsPerSecond: number;
  latencyMs: LatencySummary;
  errors: number;
  cpuMsPerCommit: { postgres: number | null; client: number } | null;
}

export async function createCommitTable(url: string): Promise<void> {
  await withClient(url, (c) =>
    c.query('CREATE TABLE IF NOT EXISTS bench_commits (id bigserial PRIMARY KEY, worker int NOT NULL, n int NOT NULL, at timestamptz NOT NULL DEFAULT now())'),
  );
}

/**
 * `loops` loops of autocommit INSERTs on a pool of `poolSize` connections, `warmup` (at most 1 s)
 * then `seconds` measured. The pool is ended before returning: a backend reports its statistics
 * late (when idle, or when it exits), which would otherwise count these inserts in the next
 * level's moves.
 */
export async function runCommitLevel(
  url: string,
  poolSize: number,
  loops: number,
  timing: { warmup: number; seconds: number },
  probes: Probes,
): Promise<CommitStats> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000 });
  const endPool = onCleanUp('end the commit pool', () => pool.end());
  const warmup = Math.min(timing.warmup, 1);
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
    for (let n = 0; !stopped && !interrupted(); n++) {
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
  }, (warmup + timing.seconds) * 1000);
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
  await endPool();
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
