import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, withClient } from '../../../../test/database.js';
import { applyMigrations, listMigrations, MIGRATION_LOCK_KEY, MigrationError, migrationsDir, type MigrationRow } from './migrations.js';

// The boot path must not load Prisma's schema engine (5 MB of WebAssembly), nor the module using it.
const loaded = vi.hoisted(() => ({ schemaEngine: false }));
vi.mock('./schema-engine.js', () => {
  loaded.schemaEngine = true;
  return {};
});
vi.mock('@prisma/schema-engine-wasm', () => {
  loaded.schemaEngine = true;
  return {};
});
vi.mock('@prisma/schema-engine-wasm/schema_engine_bg', () => {
  loaded.schemaEngine = true;
  return {};
});

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A migrations folder as `prisma migrate` lays it out, holding `migrations` (name → SQL). */
async function migrationsFolder(migrations: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mizerka-migrations-'));
  folders.push(dir);
  await writeFile(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  await addMigrations(dir, migrations);
  return dir;
}

async function addMigrations(dir: string, migrations: Record<string, string>): Promise<void> {
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(join(dir, name, 'migration.sql'), sql);
  }
}

interface Row extends MigrationRow {
  applied_steps_count: number;
}

async function rows(url: string): Promise<Row[]> {
  return withClient(url, async (client) => (await client.query<Row>('SELECT * FROM _prisma_migrations ORDER BY started_at')).rows);
}

async function tables(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1",
    );
    return rows.map((row) => row.name);
  });
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('applyMigrations', () => {
  it('applies the committed migrations to an empty database, oldest first, recording each as `prisma migrate deploy` does', async () => {
    const url = await createTestDatabase({ empty: true });
    const migrations = listMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(await applyMigrations(url)).toEqual({ applied: migrations });

    const recorded = await rows(url);
    expect(recorded.map((row) => row.migration_name)).toEqual(migrations);
    for (const row of recorded) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // The checksum `prisma migrate deploy` and `prisma migrate status` compare against.
      expect(row.checksum).toBe(sha256(readFileSync(join(migrationsDir(), row.migration_name, 'migration.sql'))));
      expect(row.finished_at).not.toBeNull();
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row).toMatchObject({ logs: null, rolled_back_at: null, applied_steps_count: 1 });
    }

    // The table as Prisma's schema engine creates it (prisma/migrations.test.ts compares it with the engine's).
    const columns = await withClient(url, async (client) => {
      const { rows } = await client.query(`
        SELECT column_name AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
               pg_get_expr(d.adbin, d.adrelid) AS default
        FROM information_schema.columns c
        JOIN pg_attribute a ON a.attrelid = '_prisma_migrations'::regclass AND a.attname = c.column_name
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE c.table_schema = 'public' AND c.table_name = '_prisma_migrations' ORDER BY c.ordinal_position`);
      return rows;
    });
    expect(columns).toEqual([
      { name: 'id', type: 'character varying(36)', not_null: true, default: null },
      { name: 'checksum', type: 'character varying(64)', not_null: true, default: null },
      { name: 'finished_at', type: 'timestamp with time zone', not_null: false, default: null },
      { name: 'migration_name', type: 'character varying(255)', not_null: true, default: null },
      { name: 'logs', type: 'text', not_null: false, default: null },
      { name: 'rolled_back_at', type: 'timestamp with time zone', not_null: false, default: null },
      { name: 'started_at', type: 'timestamp with time zone', not_null: true, default: 'now()' },
      { name: 'applied_steps_count', type: 'integer', not_null: true, default: '0' },
    ]);
  });

  it('applies nothing the second time, then only the migrations added since', async () => {
    const url = await createTestDatabase({ empty: true });
    const dir = await migrationsFolder({
      '20260101000000_one': 'CREATE TABLE one (id int PRIMARY KEY);',
      '20260102000000_two': "CREATE TABLE two (id int PRIMARY KEY);\nINSERT INTO two VALUES (1);\n-- a ';' in a comment\n",
    });
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ['20260101000000_one', '20260102000000_two'] });
    const before = await rows(url);
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: [] });
    expect(await rows(url)).toEqual(before);

    await addMigrations(dir, {
      '20260103000000_empty': '-- This is an empty migration.',
      '20260104000000_three': 'CREATE TABLE three (id int PRIMARY KEY REFERENCES two);',
    });
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ['20260103000000_empty', '20260104000000_three'] });
    expect((await rows(url)).map((row) => row.migration_name)).toEqual(listMigrations(dir));
    expect(await tables(url)).toEqual(['one', 'three', 'two']);
  });

  it('refuses a database where an applied migration has changed since, before applying anything', async () => {
    const url = await createTestDatabase({ empty: true });
    const one = 'CREATE TABLE one (id int PRIMARY KEY);\nCREATE TABLE other (id int);\n';
    const dir = await migrationsFolder({ '20260101000000_one': one });
    await applyMigrations(url, { migrationsDir: dir });

    await addMigrations(dir, {
      '20260101000000_one': `${one}ALTER TABLE one ADD COLUMN name text;\n`,
      '20260102000000_two': 'CREATE TABLE two (id int PRIMARY KEY);',
    });
    const refusal = await applyMigrations(url, { migrationsDir: dir }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MigrationError);
    expect(refusal).toMatchObject({ migration: '20260101000000_one' });
    expect((refusal as Error).message).toMatch(/^migration 20260101000000_one was changed after it was applied to this database/);
    expect((refusal as Error).message).toContain(sha256(one));
    expect(await tables(url)).toEqual(['one', 'other']);
    expect(await rows(url)).toHaveLength(1);

    // Line endings changed by git are no change, as for Prisma.
    await addMigrations(dir, { '20260101000000_one': one.replace(/\n/g, '\r\n') });
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ['20260102000000_two'] });
  });

  it('refuses a database where a migration is recorded as failed, until it is marked rolled back', async () => {
    const url = await createTestDatabase({ empty: true });
    const dir = await migrationsFolder({ '20260101000000_one': 'CREATE TABLE one (id int PRIMARY KEY);' });
    await applyMigrations(url, { migrationsDir: dir });
    const two = 'CREATE TABLE two (id int PRIMARY KEY);';
    await addMigrations(dir, { '20260102000000_two': two, '20260103000000_three': 'CREATE TABLE three (id int);' });
    // The row `prisma migrate deploy` leaves when a migration fails.
    await withClient(url, (client) =>
      client.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, started_at)
         VALUES ('9b0c1a7e-1f7e-4a51-8a59-0d8f4e1b2c3d', $1, '20260102000000_two', $2, now())`,
        [sha256(two), 'Database error code: 42P07\nrelation "two" already exists'],
      ),
    );

    const refusal = await applyMigrations(url, { migrationsDir: dir }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MigrationError);
    expect(refusal).toMatchObject({ migration: '20260102000000_two' });
    expect((refusal as Error).message).toMatch(/^migration 20260102000000_two failed in this database earlier/);
    expect((refusal as Error).message).toContain('relation "two" already exists');
    expect((refusal as Error).message).toContain('9b0c1a7e-1f7e-4a51-8a59-0d8f4e1b2c3d');
    expect(await tables(url)).toEqual(['one']);

    // What `prisma migrate resolve --rolled-back` does: the migration is then applied again.
    await withClient(url, (client) => client.query('UPDATE _prisma_migrations SET rolled_back_at = now() WHERE finished_at IS NULL'));
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ['20260102000000_two', '20260103000000_three'] });
    const recorded = await rows(url);
    expect(recorded.map((row) => [row.migration_name, row.finished_at !== null, row.rolled_back_at !== null])).toEqual([
      ['20260101000000_one', true, false],
      ['20260102000000_two', false, true],
      ['20260102000000_two', true, false],
      ['20260103000000_three', true, false],
    ]);
  });

  it('rolls a failing migration back whole, records nothing of it and names it, with the line at fault', async () => {
    const url = await createTestDatabase({ empty: true });
    const dir = await migrationsFolder({
      '20260101000000_one': 'CREATE TABLE one (id int PRIMARY KEY);',
      '20260102000000_two': 'CREATE TABLE two (id int PRIMARY KEY);\n\nINSERT INTO nowhere VALUES (1);\n',
      '20260103000000_three': 'CREATE TABLE three (id int);',
    });
    const failure = await applyMigrations(url, { migrationsDir: dir }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect(failure).toMatchObject({ migration: '20260102000000_two' });
    expect((failure as Error).message).toMatch(
      /^migration 20260102000000_two failed at line 3 of .*20260102000000_two\/migration\.sql, so none of it was applied: relation "nowhere" does not exist/,
    );
    // The one before it stays applied; nothing of it or after it was.
    expect(await tables(url)).toEqual(['one']);
    expect((await rows(url)).map((row) => row.migration_name)).toEqual(['20260101000000_one']);

    await addMigrations(dir, { '20260102000000_two': 'CREATE TABLE two (id int PRIMARY KEY);\n' });
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ['20260102000000_two', '20260103000000_three'] });
  });

  it('refuses a migration that commits the transaction it is applied in, leaving it recorded as failed', async () => {
    const url = await createTestDatabase({ empty: true });
    const dir = await migrationsFolder({ '20260101000000_one': 'CREATE TABLE one (id int);\nCOMMIT;\nCREATE TABLE two (id int);\n' });
    await expect(applyMigrations(url, { migrationsDir: dir })).rejects.toThrow(/^migration 20260101000000_one .*ends the transaction/);
    await expect(applyMigrations(url, { migrationsDir: dir })).rejects.toThrow(/^migration 20260101000000_one failed in this database earlier/);
  });

  it('lets several instances booting at once apply each migration once', async () => {
    const url = await createTestDatabase({ empty: true });
    const migrations = {
      '20260101000000_one': 'CREATE TABLE one (id int PRIMARY KEY);',
      // Long enough for the others to be waiting meanwhile.
      '20260102000000_slow': 'SELECT pg_sleep(0.3);\nCREATE TABLE slow (id int PRIMARY KEY);',
      '20260103000000_two': 'CREATE TABLE two (id int PRIMARY KEY);\nINSERT INTO two VALUES (1);',
    };
    const dir = await migrationsFolder(migrations);
    const runs = await Promise.all([1, 2, 3].map(() => applyMigrations(url, { migrationsDir: dir })));
    // Whoever takes the lock first applies everything (including creating _prisma_migrations); the
    // others then find nothing left.
    expect(runs.map((run) => run.applied.length).sort()).toEqual([0, 0, 3]);
    expect((await rows(url)).map((row) => row.migration_name)).toEqual(Object.keys(migrations));
    expect(await withClient(url, async (client) => (await client.query('SELECT count(*)::int AS n FROM two')).rows[0].n)).toBe(1);
  });

  it('gives up, saying who holds it, when another process keeps the migration lock too long', async () => {
    const url = await createTestDatabase({ empty: true });
    const dir = await migrationsFolder({ '20260101000000_one': 'CREATE TABLE one (id int);' });
    await withClient(url, async (holder) => {
      await holder.query("SET application_name = 'prisma-migrate-deploy'");
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await expect(applyMigrations(url, { migrationsDir: dir, lockTimeoutMs: 300 })).rejects.toThrow(
        /^another process has been applying migrations to this database .*pg_advisory_lock\(72707369\), session pid \d+ "prisma-migrate-deploy"/,
      );
    });
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ['20260101000000_one'] });
  });

  it('refuses migrations written for another database', async () => {
    const dir = await migrationsFolder({ '20260101000000_one': 'CREATE TABLE one (id int);' });
    await writeFile(join(dir, 'migration_lock.toml'), 'provider = "mysql"\n');
    await expect(applyMigrations('postgresql://unused@127.0.0.1:1/none', { migrationsDir: dir })).rejects.toThrow(/for mysql, not postgresql/);
  });

  it("never loads Prisma's schema engine", () => {
    expect(loaded.schemaEngine).toBe(false);
  });
});
