// Per-test-file databases, copied from the migrated template that test/global-setup.ts prepares.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { withClient } from '../apps/api/src/database/with-client.js';

export { withClient };

declare module 'vitest' {
  export interface ProvidedContext {
    /** A database on the test server from which to run CREATE/DROP DATABASE. */
    databaseAdminUrl: string;
    /** Every database of this test run is named with it, so teardown drops them all. */
    testDatabasePrefix: string;
  }
}

/** The same server and credentials, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function templateDatabaseName(prefix: string): string {
  return `${prefix}template`;
}

/**
 * A new database for one test file, with every migration applied (a copy of the template, which
 * takes milliseconds), or `empty`. Returns its URL; test/global-setup.ts drops it after the run.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<string> {
  const adminUrl = inject('databaseAdminUrl');
  const prefix = inject('testDatabasePrefix');
  const name = `${prefix}${randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, async (client) => {
    const template = options.empty ? 'template0' : templateDatabaseName(prefix);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)}`);
  });
  return withDatabase(adminUrl, name);
}
