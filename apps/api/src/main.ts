import cluster from 'node:cluster';
import { createApp } from './app.js';
import { ConfigError, embeddedDataDir, readConfig, type AppConfig, type ConfigWarning } from './config/app-config.js';
import { createPino } from './common/logger.js';
import { prepareDatabase } from './database/job-queue.js';

type Logger = ReturnType<typeof createPino>;

/** Set by the primary for the processes it forks: the database is ready, serve it. */
const WORKER_DATABASE_URL = 'MIZERKA_WORKER_DATABASE_URL';

async function main() {
  let config: AppConfig;
  let warnings: ConfigWarning[];
  try {
    ({ config, warnings } = readConfig(process.env));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createPino(config);
  const forked = process.env[WORKER_DATABASE_URL];
  if (cluster.isWorker && forked) return serve(config, logger, forked, null);
  // Said once, by the process that starts the others.
  for (const { variable, message } of warnings) logger.warn({ variable }, message);

  // Without DATABASE_URL the server brings its own PostgreSQL, keeping its data in DATA_DIR.
  let embedded: { stop(): Promise<void> } | null = null;
  let databaseUrl: string;
  if (config.databaseUrl !== null) {
    databaseUrl = config.databaseUrl;
  } else {
    const dataDir = embeddedDataDir(config);
    logger.info({ dataDir }, 'DATABASE_URL is not set: starting the embedded PostgreSQL');
    // Loaded only here: a deployment with DATABASE_URL never needs the embedded binaries.
    const { startEmbeddedPostgres } = await import('./database/embedded-postgres.js');
    const started = await startEmbeddedPostgres({ dataDir, log: (msg: string) => logger.debug({ context: 'postgres' }, msg) });
    embedded = started;
    databaseUrl = started.url;
  }
  try {
    const { applied } = await prepareDatabase(databaseUrl);
    if (applied.length > 0) logger.info({ applied }, 'applied migrations');
  } catch (error) {
    // Leave no orphaned PostgreSQL behind when the server cannot come up.
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
  if (config.workers > 1) return supervise(config, logger, databaseUrl, embedded);
  return serve(config, logger, databaseUrl, embedded);
}

/** One server process: the application on the port until SIGTERM or SIGINT. */
async function serve(config: AppConfig, logger: Logger, databaseUrl: string, embedded: { stop(): Promise<void> } | null) {
  let app;
  try {
    app = await createApp(config, databaseUrl, logger);
    await app.listen(config.port, config.host);
  } catch (error) {
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
  logger.info({ url: await app.getUrl(), pid: process.pid }, 'Mizerka server listening');

  onStopSignal(logger, 15_000, async () => {
    logger.info('shutting down');
    await app.close();
    await embedded?.stop();
  });
}

/**
 * WORKERS=N: this process keeps the database (the embedded PostgreSQL, started once; the
 * migrations, run once) and N server processes that share the port through Node's cluster module.
 * A process that dies is replaced, at most once a second; SIGTERM stops them all, then PostgreSQL.
 */
function supervise(config: AppConfig, logger: Logger, databaseUrl: string, embedded: { stop(): Promise<void> } | null) {
  let stopping = false;
  let lastFork = 0;
  const fork = () => {
    const wait = Math.max(0, lastFork + 1000 - Date.now());
    lastFork = Date.now() + wait;
    setTimeout(() => {
      if (!stopping) cluster.fork({ [WORKER_DATABASE_URL]: databaseUrl });
    }, wait);
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.warn({ pid: worker.process.pid, code, signal }, 'a server process ended; starting another');
    fork();
  });
  for (let i = 0; i < config.workers; i++) cluster.fork({ [WORKER_DATABASE_URL]: databaseUrl });
  logger.info({ workers: config.workers, port: config.port }, 'starting server processes');

  onStopSignal(logger, 20_000, async () => {
    stopping = true;
    logger.info('shutting down the server processes');
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((done) => {
            worker.once('exit', () => done());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await embedded?.stop();
  });
}

/** On SIGTERM or SIGINT, once: `stop`, then exit (1 if it takes longer than `graceMs`). */
function onStopSignal(logger: Logger, graceMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stop signal');
    const force = setTimeout(() => process.exit(1), graceMs).unref();
    try {
      await stop();
    } finally {
      clearTimeout(force);
      logger.flush?.();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void handle('SIGTERM'));
  process.on('SIGINT', () => void handle('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`The server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
