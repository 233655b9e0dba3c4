// Applying the committed migrations (at boot, by `npm run db:migrate` and by the tests' setup) with
// nothing but `pg`: a migration is prisma/migrations/<timestamp>_<name>/migration.sql, and what has
// been applied is recorded in `_prisma_migrations` exactly as `prisma migrate deploy` records it, so
// a database migrated by either is accepted by the other.
//
// Writing migrations needs Prisma's schema engine: that lives in ./schema-engine.ts, which nothing
// on the boot path imports.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The lock `prisma migrate deploy` takes, so that neither runs while the other does. */
export const MIGRATION_LOCK_KEY = 72707369;
export const MIGRATIONS_TABLE = '_prisma_migrations';
export const MIGRATION_LOCK_FILE = 'migration_lock.toml';

/** Prisma's own DDL for the bookkeeping table (PostgreSQL flavour of its schema engine), verbatim. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

const DEFAULT_LOCK_TIMEOUT_MS = 10 * 60_000;

/** The folder holding package.json: found the same way from src/ (tests) and from dist/ (built). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

export function migrationsDir(): string {
  return join(projectRoot(), 'prisma', 'migrations');
}

/**
 * Migration folder names, oldest first (their timestamp prefix orders them; Prisma sorts them by
 * name too). Hidden folders are skipped: migrations being written are staged in `.new-*`.
 */
export function listMigrations(dir: string = migrationsDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

/** Why migrations were not applied, naming the migration at fault. */
export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

export interface Migration {
  /** The folder's name, recorded as `migration_name`. */
  name: string;
  /** Its migration.sql. */
  path: string;
  script: string;
  /** SHA-256 of migration.sql, in hex: what Prisma records as `checksum`. */
  checksum: string;
}

/** The migrations of `dir`, oldest first, read and checksummed. */
export function readMigrations(dir: string = migrationsDir()): Migration[] {
  checkLockFile(dir);
  return listMigrations(dir).map((name) => {
    const path = join(dir, name, 'migration.sql');
    if (!existsSync(path)) throw new MigrationError(name, `migration ${name} has no migration.sql (${path})`);
    const bytes = readFileSync(path);
    return { name, path, script: bytes.toString('utf8'), checksum: sha256(bytes) };
  });
}

export interface ApplyMigrationsOptions {
  /** The folder holding `<name>/migration.sql`: prisma/migrations by default. */
  migrationsDir?: string;
  /**
   * How long to wait for another process that is applying migrations to the same database (another
   * instance booting, `prisma migrate deploy`) before giving up: 10 minutes by default, since a
   * migration may rewrite a big table. 0 waits forever.
   */
  lockTimeoutMs?: number;
}

export interface ApplyMigrationsResult {
  /** The migrations this call applied, in the order it applied them. */
  applied: string[];
}

/**
 * Applies the migrations not yet applied to the database at `url`, oldest first, each in its own
 * transaction together with its `_prisma_migrations` row; returns their names.
 *
 * Holds Prisma's advisory lock throughout, so concurrent callers (and `prisma migrate deploy`) take
 * turns: the later one finds nothing left to apply. Refuses, before applying anything, a database
 * where a migration is recorded as failed or where an applied migration's migration.sql has changed
 * since. A migration that fails is rolled back whole and not recorded, so the database is as it was
 * before it; the error names it.
 */
export async function applyMigrations(url: string, options: ApplyMigrationsOptions = {}): Promise<ApplyMigrationsResult> {
  const migrations = readMigrations(options.migrationsDir ?? migrationsDir());
  return withMigrationLock(url, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, async (client) => ({
    applied: await applyPendingMigrations(client, migrations),
  }));
}

/**
 * Runs `use` on a connection to `url` holding Prisma's migration lock (a session-level
 * `pg_advisory_lock`, released when the connection ends).
 */
async function withMigrationLock<T>(url: string, lockTimeoutMs: number, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    // pg waits forever by default. No statement or query timeout: a migration may rewrite a big table.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    application_name: 'mizerka-migrate',
  });
  // A connection lost mid-way also fails the query under way, which reports it: don't crash on the event.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`SET lock_timeout = ${Math.max(0, Math.round(lockTimeoutMs))}`);
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    } catch (error) {
      if ((error as { code?: string }).code !== '55P03') throw error;
      throw new Error(
        `another process has been applying migrations to this database for over ${duration(lockTimeoutMs)} ` +
          `(it holds pg_advisory_lock(${MIGRATION_LOCK_KEY})${await lockHolder(url)}): giving up`,
        { cause: error },
      );
    }
    // Back to the server's setting for the migrations themselves.
    await client.query('RESET lock_timeout');
    return await use(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

async function lockHolder(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    // A bigint advisory key shows as classid (high half), objid (low half), objsubid 1.
    const { rows } = await client.query<{ pid: number; application_name: string }>(
      `SELECT l.pid, a.application_name FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1`,
      [MIGRATION_LOCK_KEY],
    );
    return rows.map((row) => `, session pid ${row.pid}${row.application_name ? ` "${row.application_name}"` : ''}`).join('');
  } catch {
    return '';
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A row of `_prisma_migrations`, as far as applying migrations reads it. */
export interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
}

/** Applies what is pending of `migrations` through `client`, which holds the lock. */
async function applyPendingMigrations(client: pg.Client, migrations: Migration[]): Promise<string[]> {
  const { rows: exists } = await client.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [MIGRATIONS_TABLE]);
  if (!exists[0].exists) await client.query(CREATE_MIGRATIONS_TABLE);
  const { rows } = await client.query<MigrationRow>(
    `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at FROM ${MIGRATIONS_TABLE} ORDER BY started_at`,
  );

  // As `prisma migrate deploy`: a failed migration blocks everything until someone resolves it.
  const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed.length > 0) {
    const details = failed.map((row) => {
      const logs = row.logs?.trim();
      return `- ${row.migration_name} (started ${row.started_at.toISOString()}, id ${row.id})${logs ? `:\n  ${logs.replace(/\n/g, '\n  ')}` : ''}`;
    });
    throw new MigrationError(
      failed[0].migration_name,
      `migration ${failed.map((row) => row.migration_name).join(', ')} failed in this database earlier and is recorded as ` +
        `unfinished in ${MIGRATIONS_TABLE}: no migration is applied until it is resolved.\n${details.join('\n')}\n` +
        `Repair the database by hand (undo what the migration did), then mark it rolled back ` +
        `(what \`prisma migrate resolve --rolled-back\` does), and it is applied again: ` +
        `UPDATE ${MIGRATIONS_TABLE} SET rolled_back_at = now() WHERE id IN (${failed.map((row) => `'${row.id}'`).join(', ')});`,
    );
  }

  // Rows marked rolled back no longer count, as for Prisma: such a migration is applied again.
  const applied = rows.filter((row) => row.rolled_back_at === null);
  const byName = new Map(migrations.map((migration) => [migration.name, migration]));
  for (const row of applied) {
    const migration = byName.get(row.migration_name);
    // A migration the folder does not have (applied by a newer version) is left alone, as Prisma does.
    if (migration && !checksumMatches(migration.script, row.checksum)) {
      throw new MigrationError(
        migration.name,
        `migration ${migration.name} was changed after it was applied to this database: ${display(migration.path)} ` +
          `has checksum ${migration.checksum}, ${MIGRATIONS_TABLE} recorded ${row.checksum}. ` +
          `Restore the file as it was, and make the change in a new migration.`,
      );
    }
  }

  const appliedNames = new Set(applied.map((row) => row.migration_name));
  const pending = migrations.filter((migration) => !appliedNames.has(migration.name));
  for (const migration of pending) await applyMigration(client, migration);
  return pending.map((migration) => migration.name);
}

/** One migration and its bookkeeping row, in one transaction: all of it, or nothing. */
async function applyMigration(client: pg.Client, migration: Migration): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (id, checksum, migration_name) VALUES ($1, $2, $3)`, [
      id,
      migration.checksum,
      migration.name,
    ]);
    const before = await transactionId(client);
    // Without parameters pg uses the simple query protocol, which takes the whole script at once.
    await client.query(migration.script);
    if ((await transactionId(client)) !== before) {
      // What ran before the COMMIT stays, with the row recorded as unfinished: a person must look.
      throw new MigrationError(
        migration.name,
        `migration ${migration.name} (${display(migration.path)}) ends the transaction it is applied in (COMMIT or ROLLBACK): ` +
          `what ran before that may be committed (and the migration recorded as failed in ${MIGRATIONS_TABLE}): check the database. ` +
          `Remove the transaction control from it.`,
      );
    }
    await client.query(
      `UPDATE ${MIGRATIONS_TABLE} SET applied_steps_count = applied_steps_count + 1, finished_at = clock_timestamp() WHERE id = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof MigrationError) throw error;
    throw new MigrationError(
      migration.name,
      `migration ${migration.name} failed${where(migration, error)}, so none of it was applied: ${messageOf(error)}`,
      { cause: error },
    );
  }
}

async function transactionId(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ txid: string }>('SELECT txid_current()::text AS txid');
  return rows[0].txid;
}

/** " at line N of <path>", from the character position PostgreSQL gives for a syntax or name error. */
function where(migration: Migration, error: unknown): string {
  const file = display(migration.path);
  const position = Number((error as { position?: string }).position);
  if (!Number.isInteger(position) || position < 1) return ` (${file})`;
  const line = migration.script.slice(0, position - 1).split('\n').length;
  return ` at line ${line} of ${file}`;
}

/** A path under the project as relative to it (prisma/migrations/…), any other as it is. */
function display(path: string): string {
  const rel = relative(projectRoot(), path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { detail, hint } = error as { detail?: string; hint?: string };
  return [error.message, detail && `DETAIL: ${detail}`, hint && `HINT: ${hint}`].filter(Boolean).join('\n');
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Whether migration.sql is the script recorded with `checksum`, as Prisma judges it: the line
 * endings may differ (git on Windows), and old Prisma versions wrote hex without zero-padding.
 */
export function checksumMatches(script: string, checksum: string): boolean {
  const variants = [script, script.replace(/\r\n/g, '\n'), script.replace(/\n/g, '\r\n')];
  return variants.some((variant) => {
    const digest = createHash('sha256').update(variant).digest();
    const rendered =
      checksum.length === 64 || checksum.length === 0
        ? digest.toString('hex')
        : Array.from(digest, (byte) => byte.toString(16)).join('');
    return rendered === checksum;
  });
}

/** As Prisma: migrations written for another database must not be applied to PostgreSQL. */
function checkLockFile(dir: string): void {
  const path = join(dir, MIGRATION_LOCK_FILE);
  if (!existsSync(path)) return;
  const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(readFileSync(path, 'utf8'))?.[1];
  if (provider !== undefined && provider !== 'postgresql') {
    throw new Error(`${path} says the migrations are for ${provider}, not postgresql`);
  }
}
