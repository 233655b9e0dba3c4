// `npm run db:migrate`: applies the pending migrations to DATABASE_URL or, when it is unset, to the
// embedded PostgreSQL kept in DATA_DIR/postgres (.data/postgres), as the server itself does at boot
// (the same code: their SQL and `_prisma_migrations`, no Prisma engine; the same settings, read by
// the server's loader).
import { embeddedDataDir } from '../apps/api/src/config/app-config.js';
import { prepareDatabase } from '../apps/api/src/database/job-queue.js';
import { serverSettings } from './server-settings.js';

const config = serverSettings('db:migrate');
if (!config) process.exit(1);
let embedded: { url: string; stop(): Promise<void> } | null = null;
let status = 0;
try {
  let url = config.databaseUrl;
  if (url === null) {
    const dataDir = embeddedDataDir(config);
    process.stdout.write(`DATABASE_URL is not set: starting the embedded PostgreSQL in ${dataDir}\n`);
    // Loaded only here: with DATABASE_URL the embedded binaries are never needed.
    const { startEmbeddedPostgres } = await import('../apps/api/src/database/embedded-postgres.js');
    embedded = await startEmbeddedPostgres({ dataDir });
    url = embedded.url;
  }
  const { applied } = await prepareDatabase(url);
  process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'the database is up to date\n');
} catch (error) {
  process.stderr.write(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}\n`);
  status = 1;
}
try {
  await embedded?.stop();
} catch (error) {
  process.stderr.write(`db:migrate: stopping the embedded PostgreSQL failed: ${String(error)}\n`);
  status = 1;
}
// Exit explicitly, whatever a library may have left running.
process.exit(status);
