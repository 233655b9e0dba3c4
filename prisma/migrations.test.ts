import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyMigrations,
  createMigration,
  diffMigrationsToSchema,
  listMigrations,
  migrationsDir,
  schemaFromEmptySql,
} from '../apps/api/src/database/migrations.js';
import { createTestDatabase, withClient } from '../test/database.js';

describe('prisma/migrations', () => {
  it('are in step with prisma/schema.prisma (else run `npm run db:migration -- NAME`)', async () => {
    expect(await diffMigrationsToSchema()).toBe('');
    const before = listMigrations();
    expect(await createMigration('nothing_to_do')).toBeNull();
    expect(listMigrations()).toEqual(before);
  });

  it('build the same database as prisma/schema.prisma (no hand edits drifting from it)', async () => {
    const fromMigrations = await createTestDatabase();
    const fromSchema = await createTestDatabase({ empty: true });
    const sql = await schemaFromEmptySql();
    await withClient(fromSchema, (client) => client.query(sql));

    const expected = await describeCatalog(fromSchema);
    expect(expected.tables.length).toBeGreaterThan(0);
    expect(await describeCatalog(fromMigrations)).toEqual(expected);
  });

  it('apply once, even when two processes race, and record one finished row each', async () => {
    const url = await createTestDatabase({ empty: true });
    const migrations = listMigrations();
    const runs = await Promise.all([applyMigrations(url), applyMigrations(url)]);
    expect(runs.flatMap((run) => run.applied).sort()).toEqual(migrations);
    expect(await applyMigrations(url)).toEqual({ applied: [] });

    const { rows } = await withClient(url, (client) =>
      client.query('SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name'),
    );
    expect(rows.map((row) => row.migration_name)).toEqual(migrations);
    for (const row of rows) {
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      // The checksum `prisma migrate deploy` compares against.
      const sql = readFileSync(join(migrationsDir(), row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
    }
  });

  it('each keep the schema they were made from, and the lock file says postgresql', () => {
    for (const name of listMigrations()) {
      expect(existsSync(join(migrationsDir(), name, 'schema.prisma.snapshot')), name).toBe(true);
    }
    expect(readFileSync(join(migrationsDir(), 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');
  });
});

/**
 * What the application relies on, in a form to compare: tables, columns (type, nullability, default),
 * indexes, constraints and enums of the public schema, Prisma's bookkeeping table aside. Columns are
 * compared by name, since ALTER TABLE ADD COLUMN puts a column last.
 */
async function describeCatalog(url: string) {
  return withClient(url, async (client) => {
    const query = async (sql: string) => (await client.query(sql)).rows;
    const tables = await query(`
      SELECT c.relname AS table, c.relkind AS kind
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p', 'S') AND c.relname <> '_prisma_migrations'
      ORDER BY 1`);
    const columns = await query(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
             a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default, a.attidentity AS identity,
             a.attgenerated AS generated
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        AND c.relname <> '_prisma_migrations'
      ORDER BY 1, 2`);
    const indexes = await query(`
      SELECT tablename AS table, indexname AS index, indexdef AS definition
      FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
      ORDER BY 1, 2`);
    const constraints = await query(`
      SELECT c.relname AS table, k.conname AS constraint, k.contype AS type, pg_get_constraintdef(k.oid) AS definition
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relname <> '_prisma_migrations'
      ORDER BY 1, 2`);
    const enums = await query(`
      SELECT t.typname AS enum, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public'
      GROUP BY 1 ORDER BY 1`);
    return { tables, columns, indexes, constraints, enums };
  });
}
