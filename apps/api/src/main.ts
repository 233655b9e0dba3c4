import { join, resolve } from 'node:path';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { createPino } from './common/logger.js';
import { prepareDatabase } from './database/job-queue.js';

async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createPino(config);

  // Without DATABASE_URL the server brings its own PostgreSQL, keeping its data in DATA_DIR.
  let embedded: { stop(): Promise<void> } | null = null;
  let databaseUrl: string;
  if (config.databaseUrl !== null) {
    databaseUrl = config.databaseUrl;
  } else {
    const dataDir = resolve(join(config.dataDir, 'postgres'));
    logger.info({ dataDir }, 'DATABASE_URL is not set: starting the embedded PostgreSQL');
    // Loaded only here: a deployment with DATABASE_URL never needs the embedded binaries.
    const { startEmbeddedPostgres } = await import('./database/embedded-postgres.js');
    const started = await startEmbeddedPostgres({ dataDir, log: (msg: string) => logger.debug({ context: 'postgres' }, msg) });
    embedded = started;
    databaseUrl = started.url;
  }
  let app;
  try {
    const { applied } = await prepareDatabase(databaseUrl);
    if (applied.length > 0) logger.info({ applied }, 'applied migrations');
    app = await createApp(config, databaseUrl, logger);
    await app.listen(config.port, config.host);
  } catch (error) {
    // Leave no orphaned PostgreSQL behind when the server cannot come up.
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
  logger.info({ url: await app.getUrl() }, 'Mizerka server listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await app.close();
      await embedded?.stop();
    } finally {
      clearTimeout(force);
      logger.flush?.();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`The server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
