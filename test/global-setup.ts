// Vitest globalSetup: one PostgreSQL for the whole run and a template database holding the
// migrations, from which test/database.ts copies a fresh database per test file.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { EmbeddedPostgres } from '../apps/api/src/database/embedded-postgres.js';
import { prepareDatabase } from '../apps/api/src/database/job-queue.js';
import { templateDatabaseName, withClient, withDatabase } from './database.js';

// Databases left by runs killed before their teardown are dropped once this old.
const STALE_AFTER_MS = 60 * 60_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let embedded: EmbeddedPostgres | null = null;
  let tempDir: string | null = null;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    tempDir = await mkdtemp(join(tmpdir(), 'mizerka-test-'));
    // When we run as root PostgreSQL runs as another user, which must be able to enter this folder.
    await chmod(tempDir, 0o755);
    const { startEmbeddedPostgres } = await import('../apps/api/src/database/embedded-postgres.js');
    embedded = await startEmbeddedPostgres({ dataDir: join(tempDir, 'postgres') });
    adminUrl = embedded.url;
    // A throwaway cluster: durability only costs time (CREATE DATABASE flushes every copy).
    await withClient(adminUrl, async (client) => {
      await client.query('ALTER SYSTEM SET fsync = off');
      await client.query('SELECT pg_reload_conf()');
    });
  }

  // Named per run (creation time first), since several runs may share a server, e.g. DATABASE_URL.
  const prefix = `mizerka_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}_`;
  const template = templateDatabaseName(prefix);
  await withClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'mizerka\\_test\\_%'");
    for (const { datname } of rows) {
      const created = parseInt(datname.split('_')[2] ?? '', 36);
      if (created < Date.now() - STALE_AFTER_MS) await dropDatabase(client, datname);
    }
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(template)}`);
  });
  await prepareDatabase(withDatabase(adminUrl, template));

  project.provide('databaseAdminUrl', adminUrl);
  project.provide('testDatabasePrefix', prefix);

  const url = adminUrl;
  return async () => {
    try {
      await withClient(url, async (client) => {
        const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
        for (const { datname } of rows) await dropDatabase(client, datname);
      });
    } finally {
      await embedded?.stop();
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    }
  };
}

async function dropDatabase(client: { query(sql: string): Promise<unknown>; escapeIdentifier(name: string): string }, name: string) {
  // FORCE: a test may have left a connection open (PostgreSQL 13+).
  await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
}
