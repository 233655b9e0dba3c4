// The server under load: bench-server.js in a child process (spawned, ready when it sends its URL
// over IPC, asked for its CPU time over IPC), or the same application inside this process.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from '../src/config/app-config.js';
import type { ServerCpu, ServerHealth, ServerReady } from './bench-server.js';
import { onCleanUp } from './lifecycle.js';

export interface Server {
  url: string;
  mode: string;
  /** The server's Node.js release (process.version). */
  node: string;
  poolSize: number;
  /** CPU time of the server process so far (ms), and its system part; null when it runs in this process. */
  cpuMs(): Promise<{ total: number; system: number } | null>;
  /** Memory after a GC and live resources of the server process; null when it runs in this process. */
  health(): Promise<ServerHealth | null>;
  /** Stops the server now (and takes it off the clean-up list). */
  stop(): Promise<void>;
}

export interface ServerOptions {
  inProcess: boolean;
  /** Write a --cpu-prof profile into this folder (separate process only). */
  cpuProfDir: string | null;
  /** Sample the separate process's allocations into this folder (bench-server.ts). */
  allocProfDir?: string | null;
  /** More Node options for the separate process. */
  serverNodeArgs: string[];
  /** The Node.js binary of the separate process; null: this process's. */
  serverNode?: string | null;
  /** More environment for the server (e.g. MIN_MOVE_SECONDS for short clocks), over the defaults below. */
  env?: Record<string, string>;
}

const READY_TIMEOUT_MS = 60_000;
const CPU_TIMEOUT_MS = 2_000;
const HEALTH_TIMEOUT_MS = 20_000; // a full GC of a big heap takes a while
const STOP_TIMEOUT_MS = 15_000;

export async function startServer(databaseUrl: string, options: ServerOptions): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
    WS_MAX_SOCKETS_PER_IP: '100000',
    BENCH_DATABASE_URL: databaseUrl,
    ...options.env,
  };
  return options.inProcess ? startInProcess(env, databaseUrl) : startChild(env, options);
}

async function startInProcess(env: NodeJS.ProcessEnv, databaseUrl: string): Promise<Server> {
  const config = loadConfig(env);
  const { createApp } = await import('../src/app.js');
  const app = await createApp(config, databaseUrl, pino({ level: 'silent' }));
  const stop = onCleanUp('close the application', () => app.close());
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    url,
    mode: 'in-process (the load generator shares the server’s event loop and CPU)',
    node: process.version,
    poolSize: config.databasePoolSize,
    cpuMs: async () => null,
    health: async () => null,
    stop,
  };
}

async function startChild(env: NodeJS.ProcessEnv, options: ServerOptions): Promise<Server> {
  // Fail here, as the in-process server would, on a configuration the server would refuse.
  loadConfig(env);
  const script = join(dirname(fileURLToPath(import.meta.url)), 'bench-server.js');
  const nodeArgs: string[] = [];
  if (options.cpuProfDir) nodeArgs.push('--cpu-prof', '--cpu-prof-dir', resolve(options.cpuProfDir));
  nodeArgs.push(...options.serverNodeArgs);
  if (options.allocProfDir) env = { ...env, BENCH_ALLOC_PROF_DIR: resolve(options.allocProfDir) };
  const child: ChildProcess = spawn(options.serverNode ?? process.execPath, [...nodeArgs, script], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const stop = onCleanUp('stop the server process', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  });
  const ready = await new Promise<ServerReady>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server process did not start within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
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
  /** Asks the server process for one message of `type` and waits for its answer (null on a time-out). */
  const ask = <T extends { type: string }>(type: T['type'], timeoutMs: number) =>
    new Promise<T | null>((done) => {
      if (!child.connected) return done(null);
      const timer = setTimeout(() => finish(null), timeoutMs);
      const onMessage = (message: unknown) => {
        if ((message as { type?: string }).type === type) finish(message as T);
      };
      const finish = (value: T | null) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        done(value);
      };
      child.on('message', onMessage);
      child.send({ type });
    });
  const cpuMs = async () => {
    const cpu = await ask<ServerCpu>('cpu', CPU_TIMEOUT_MS);
    return cpu && { total: (cpu.user + cpu.system) / 1000, system: cpu.system / 1000 };
  };
  const health = () => ask<ServerHealth>('health', HEALTH_TIMEOUT_MS);
  const extra = [
    options.cpuProfDir ? `--cpu-prof into ${resolve(options.cpuProfDir)}` : '',
    options.allocProfDir ? `allocations sampled into ${resolve(options.allocProfDir)}` : '',
    options.serverNodeArgs.join(' '),
  ].filter(Boolean);
  return {
    url: ready.url,
    mode: `separate process (pid ${ready.pid}, node ${ready.node}${extra.length ? `; ${extra.join('; ')}` : ''})`,
    node: ready.node,
    poolSize: ready.poolSize,
    cpuMs,
    health,
    stop,
  };
}
