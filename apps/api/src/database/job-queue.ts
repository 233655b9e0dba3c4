import { Logger, runMigrations, type LogFunctionFactory } from 'graphile-worker';
import pg from 'pg';
import { applyMigrations, type ApplyMigrationsResult } from './migrations.js';

/** The schema the job queue (graphile-worker) keeps its tables and functions in. */
export const JOB_QUEUE_SCHEMA = 'graphile_worker';

/**
 * Installs or upgrades the job queue's own schema (graphile-worker keeps its migrations in
 * `graphile_worker.migrations`). Run at boot after the Prisma migrations, before any job is
 * added (the outbox relay, the clocks, the bots and the webhooks add theirs with its SQL functions).
 */
export async function installJobQueue(databaseUrl: string): Promise<void> {
  // Our own pool, ended before we return: given a URL, graphile-worker ends its pool without
  // waiting, and a connection still open then fails later (e.g. when the server stops).
  const pgPool = new pg.Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 10_000 });
  // A connection dropped by the server: the migration fails or has finished; nothing else to do.
  pgPool.on('error', () => undefined);
  pgPool.on('connect', (client) => client.on('error', () => undefined));
  try {
    await runMigrations({ pgPool, schema: JOB_QUEUE_SCHEMA, logger: jobQueueLogger() });
  } finally {
    await pgPool.end();
  }
}

/** graphile-worker logs to the console by default; route it through `log`, or drop it. */
export function jobQueueLogger(log?: (level: string, message: string, meta?: unknown) => void): Logger {
  const factory: LogFunctionFactory = () => (level, message, meta) => log?.(level, message, meta);
  return new Logger(factory);
}

/**
 * Everything a database needs before the server uses it: the committed migrations, then the job
 * queue's schema. main.ts, `npm run db:migrate`, the tests and the benchmark all go through here.
 */
export async function prepareDatabase(databaseUrl: string): Promise<ApplyMigrationsResult> {
  const result = await applyMigrations(databaseUrl);
  await installJobQueue(databaseUrl);
  return result;
}
