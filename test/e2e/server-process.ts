// The real server process for end-to-end tests: a build of our own, started on a free port,
// killed with any signal; every process started is killed after the test file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { everyTestFile } from '../per-file.js';
import { inCi } from '../services.js';
import { sleep } from './clients.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// A build of our own (not dist/, which others use), kept between runs and rebuilt when a source is newer.
const OUT = join(ROOT, 'node_modules', '.cache', 'mizerka-e2e', 'dist');
const mainOf = (dist: string) => join(dist, 'apps', 'api', 'src', 'main.js');
let MAIN = mainOf(OUT);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function build() {
  const sources = Math.max(newestSource(join(ROOT, 'apps')), newestSource(join(ROOT, 'libs')));
  const fresh = (main: string) => existsSync(main) && statSync(main).mtimeMs > sources;
  // In CI `npm ci` has just built dist/ from these sources (the "prepare" script) and nothing else
  // writes it: its build, rather than the same compile again (~35 s of CPU on the 2-core machine).
  if (inCi() && fresh(mainOf(join(ROOT, 'dist')))) {
    MAIN = mainOf(join(ROOT, 'dist'));
    return;
  }
  MAIN = mainOf(OUT);
  if (fresh(MAIN)) return;
  // tsc emits even when a file being edited elsewhere has a type error; what matters is main.js.
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', OUT], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (!existsSync(MAIN)) throw new Error(`build failed: ${result.stdout}\n${result.stderr}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

/** Starts main.js (on env.PORT, else a free port) and waits until it answers /health. */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<Server> {
  // env.PORT: the same port again (a restart that clients must find where they left it).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Every test's players register from 127.0.0.1.
      REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
      WS_MAX_SOCKETS_PER_IP: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`the server exited while starting:\n${output.join('')}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not come up in ${timeoutMs} ms:\n${output.join('')}`);
    }
    await sleep(150);
  }
  return { child, url, output, exited };
}

export async function kill(server: Server, signal: NodeJS.Signals) {
  server.child.kill(signal);
  await server.exited;
}

// The build before each test file that uses servers, and their end after it (hooks of every such
// file, also when files share this module: test/per-file.ts).
everyTestFile(() => {
  beforeAll(() => {
    build();
  }, 300_000);
  afterAll(async () => {
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
});
