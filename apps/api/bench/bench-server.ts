/**
 * The server process of `npm run bench:api`: the application exactly as main.ts builds it
 * (createApp, the configuration from the environment), on a database that the benchmark has
 * already created and migrated (BENCH_DATABASE_URL), with a silent logger. It listens on a free
 * port of 127.0.0.1 and tells its parent the URL over the IPC channel; SIGTERM (or the parent
 * going away) closes it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/app-config.js';

export interface ServerReady {
  type: 'ready';
  url: string;
  pid: number;
  /** process.version: the server may run on another Node.js than the benchmark (--server-node). */
  node: string;
  poolSize: number;
}

/** The answer to `{ type: 'cpu' }`: this process's CPU time so far (process.cpuUsage, µs). */
export interface ServerCpu {
  type: 'cpu';
  user: number;
  system: number;
}

/**
 * The answer to `{ type: 'health' }`, for the soak: memory after a full GC (when the server runs
 * with --expose-gc) and the resources keeping the event loop alive, by type.
 */
export interface ServerHealth {
  type: 'health';
  gc: boolean;
  rssBytes: number;
  heapUsedBytes: number;
  resources: Record<string, number>;
}

function health(): ServerHealth {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const resources: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1;
  const memory = process.memoryUsage();
  return { type: 'health', gc: gc !== undefined, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, resources };
}

async function main() {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is not set (this process is started by api-bench.js)');
  const config = loadConfig(process.env);
  const app = await createApp(config, databaseUrl, pino({ level: 'silent' }));
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');

  const allocations = process.env.BENCH_ALLOC_PROF_DIR ? await sampleAllocations(process.env.BENCH_ALLOC_PROF_DIR) : null;

  let closing = false;
  const close = async (code: number) => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await allocations?.();
      await app.close();
    } finally {
      clearTimeout(force);
      // With --cpu-prof the profile is written on a normal exit.
      process.exit(code);
    }
  };
  process.on('SIGTERM', () => void close(0));
  process.on('SIGINT', () => void close(0));
  process.on('disconnect', () => void close(0));
  process.on('message', (message) => {
    const type = (message as { type?: string } | null)?.type;
    if (type === 'stop') void close(0);
    if (type === 'health') process.send?.(health());
    if (type === 'cpu') {
      const usage: ServerCpu = { type: 'cpu', ...process.cpuUsage() };
      process.send?.(usage);
    }
  });
  const ready: ServerReady = { type: 'ready', url, pid: process.pid, node: process.version, poolSize: config.databasePoolSize };
  process.send?.(ready);
}

/**
 * Samples what the process allocates from now on, objects already collected included (Node's
 * --heap-prof keeps only those still alive when it stops, which says nothing of a move's garbage);
 * the returned function writes the profile (Chrome DevTools' .heapprofile) into `dir`.
 */
async function sampleAllocations(dir: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `alloc.${process.pid}.heapprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`bench server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
