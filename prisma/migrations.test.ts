import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMigrations, listMigrations, MIGRATION_LOCK_KEY, migrationsDir } from '../apps/api/src/database/migrations.js';
import {
  createMigration,
  diffMigrationsToSchema,
  prismaMigrateDeploy,
  prismaMigrateStatus,
  schemaFromEmptySql,
} from '../apps/api/src/database/schema-engine.js';
import { createTestDatabase, withClient } from '../test/database.js';

/** The committed migrations, the index of the one named `name`, and a folder holding those before it (remove it when done). */
async function migrationsBefore(name: string): Promise<{ migrations: string[]; at: number; before: string }> {
  const migrations = listMigrations();
  const at = migrations.findIndex((m) => m.endsWith(`_${name}`));
  expect(at).toBeGreaterThan(0);
  const before = await mkdtemp(join(tmpdir(), 'mizerka-migrations-'));
  await cp(join(migrationsDir(), 'migration_lock.toml'), join(before, 'migration_lock.toml'));
  for (const m of migrations.slice(0, at)) await cp(join(migrationsDir(), m), join(before, m), { recursive: true });
  return { migrations, at, before };
}

describe('prisma/migrations', () => {
  it('are in step with prisma/schema.prisma (else run `npm run db:migration -- NAME`)', async () => {
    expect(await diffMigrationsToSchema()).toBe('');
    const before = listMigrations();
    expect(await createMigration('nothing_to_do')).toBeNull();
    expect(listMigrations()).toEqual(before);
  });

  it('build the same database as prisma/schema.prisma (no hand edits drifting from it)', async () => {
    // Applied as the server applies them at boot.
    const fromMigrations = await createTestDatabase({ empty: true });
    await applyMigrations(fromMigrations);
    const fromSchema = await createTestDatabase({ empty: true });
    const sql = await schemaFromEmptySql();
    await withClient(fromSchema, (client) => client.query(sql));

    const expected = await describeCatalog(fromSchema);
    expect(expected.tables.length).toBeGreaterThan(0);
    expect(await describeCatalog(fromMigrations)).toEqual(expected);
  });

  it('partition the players\' feeds by month, which schema.prisma cannot say (docs/decisions/partitions.md)', async () => {
    const url = await createTestDatabase({ empty: true });
    await applyMigrations(url);
    await withClient(url, async (client) => {
      const { rows: partitioned } = await client.query(`SELECT c.relname AS table FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid ORDER BY 1`);
      expect(partitioned).toEqual([{ table: 'player_events' }]);
      // The table of before (every row up to next month's start) and the two months after it, each
      // with the unique (player_id, game_id, seq, type) that makes feed writes idempotent.
      const { rows: partitions } = await client.query(`
        SELECT c.relname AS partition, pg_get_expr(c.relpartbound, c.oid) AS bound,
               EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisunique
                          AND pg_get_indexdef(i.indexrelid) LIKE '%(player_id, game_id, seq, type)') AS idempotent
          FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
         WHERE h.inhparent = 'player_events'::regclass ORDER BY c.relname`);
      expect(partitions.map((p) => p.partition)).toHaveLength(3);
      expect(partitions.every((p) => p.idempotent)).toBe(true);
      const legacy = partitions.find((p) => p.partition === 'player_events_legacy');
      expect(legacy?.bound).toMatch(/^FOR VALUES FROM \(MINVALUE\) TO/);
      expect(partitions.filter((p) => /^player_events_y\d{4}m\d{2}$/.test(p.partition))).toHaveLength(2);
    });
  });

  it("read every trick through the view `tricks`, a compacted game's packed deals as rows (views: hand-written, schema.prisma cannot say them)", async () => {
    const url = await createTestDatabase({ empty: true });
    await applyMigrations(url);
    await withClient(url, async (client) => {
      const { rows: views } = await client.query(`SELECT c.relname AS view FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'v' ORDER BY 1`);
      expect(views.map((v) => v.view)).toEqual(['packed_tricks', 'tricks']);
      const game = '00000000-0000-4000-8000-000000000001';
      await client.query(`INSERT INTO games (id, preset, players, first_dealer, phase, state, updated_at) VALUES ($1, 'short', 3, 0, 'over', '{}', now())`, [game]);
      await client.query(`INSERT INTO deals (game_id, index, dealer, seed_hash) VALUES ($1, 0, 0, '\\x00'), ($1, 1, 1, '\\x00'), ($1, 2, 2, '\\x00')`, [game]);
      // Deal 0 packed: 3 cards a trick; trick 0 led by seat 1, won by 2: 2C (0), AS (51), TD (21);
      // trick 1 led by 2, won by 0: 7H (31), KC (11), QS (49). Deal 1 as a row.
      await client.query(`UPDATE deals SET played_tricks = '\\x03010200331502001f0b31'::bytea WHERE game_id = $1 AND index = 0`, [game]);
      // Deal 2 packed, 4 cards a trick: led by 3, won by 1: AC (12), AD (25), AH (38), AS (51).
      await client.query(`UPDATE deals SET played_tricks = '\\x0403010c192633'::bytea WHERE game_id = $1 AND index = 2`, [game]);
      await client.query(`INSERT INTO live_tricks (game_id, deal_index, index, leader, cards, winner) VALUES ($1, 1, 0, 1, '{8D,9D,JD}', 1)`, [game]);
      const { rows } = await client.query(`SELECT deal_index, index, leader, cards, winner FROM tricks WHERE game_id = $1 ORDER BY deal_index, index`, [game]);
      expect(rows).toEqual([
        { deal_index: 0, index: 0, leader: 1, cards: ['2C', 'AS', 'TD'], winner: 2 },
        { deal_index: 0, index: 1, leader: 2, cards: ['7H', 'KC', 'QS'], winner: 0 },
        { deal_index: 1, index: 0, leader: 1, cards: ['8D', '9D', 'JD'], winner: 1 },
        { deal_index: 2, index: 0, leader: 3, cards: ['AC', 'AD', 'AH', 'AS'], winner: 1 },
      ]);
    });
  });

  it("turn the deals' hex seeds and hashes into bytes that read back as the same hex (deal_seeds_bytes), and refuse any that would not", async () => {
    const { migrations, at, before } = await migrationsBefore('deal_seeds_bytes');
    const game = '00000000-0000-4000-8000-000000000002';
    const seed = '0123456789abcdef0123456789abcdef';
    const hash = 'f'.repeat(32) + '0'.repeat(31) + '9';
    const seeded = async (seedText: string) => {
      const url = await createTestDatabase({ empty: true });
      await applyMigrations(url, { migrationsDir: before });
      await withClient(url, async (client) => {
        await client.query(`INSERT INTO games (id, preset, players, first_dealer, phase, state, updated_at) VALUES ($1, 'short', 3, 0, 'over', '{}', now())`, [game]);
        await client.query(`INSERT INTO deals (game_id, index, dealer, seed, seed_hash) VALUES ($1, 0, 0, $2, $3), ($1, 1, 1, NULL, $3)`, [game, seedText, hash]);
      });
      return url;
    };
    try {
      const url = await seeded(seed);
      expect(await applyMigrations(url)).toEqual({ applied: migrations.slice(at) });
      await withClient(url, async (client) => {
        const { rows } = await client.query(`SELECT index, encode(seed, 'hex') AS seed, encode(seed_hash, 'hex') AS hash, length(seed_hash) AS bytes FROM deals ORDER BY index`);
        expect(rows).toEqual([
          { index: 0, seed, hash, bytes: 32 },
          { index: 1, seed: null, hash, bytes: 32 },
        ]);
      });
      // An uppercase seed would come back lowercase: the migration stops, the table as it was.
      const upper = await seeded(seed.toUpperCase());
      await expect(applyMigrations(upper)).rejects.toThrow(/not lowercase hex/);
      await withClient(upper, async (client) => {
        const { rows } = await client.query(`SELECT seed FROM deals WHERE index = 0`);
        expect(rows).toEqual([{ seed: seed.toUpperCase() }]);
      });
    } finally {
      await rm(before, { recursive: true, force: true });
    }
  });

  it("turn the deals' results from jsonb into json text without jsonb's spaces, and make the seed hash optional (deal_results_json)", async () => {
    const { migrations, at, before } = await migrationsBefore('deal_results_json');
    const game = '00000000-0000-4000-8000-000000000003';
    try {
      const url = await createTestDatabase({ empty: true });
      await applyMigrations(url, { migrationsDir: before });
      await withClient(url, async (client) => {
        await client.query(`INSERT INTO games (id, preset, players, first_dealer, phase, state, updated_at) VALUES ($1, 'short', 3, 0, 'over', '{}', now())`, [game]);
        await client.query(
          `INSERT INTO deals (game_id, index, dealer, seed, seed_hash, tricks, scores) VALUES
             ($1, 0, 0, NULL, '\\x00', '[4, 1, 5]', '[-80, 40, 40]'),
             ($1, 1, 1, NULL, '\\x00', '[null, 3, 7]', NULL),
             ($1, 2, 2, NULL, '\\x00', '{"odd": "a b"}', '[1.5, -2]')`,
          [game],
        );
      });
      expect(await applyMigrations(url)).toEqual({ applied: migrations.slice(at) });
      await withClient(url, async (client) => {
        const { rows } = await client.query(`SELECT index, tricks::text AS tricks, scores::text AS scores, pg_typeof(tricks)::text AS type FROM deals ORDER BY index`);
        expect(rows).toEqual([
          { index: 0, tricks: '[4,1,5]', scores: '[-80,40,40]', type: 'json' },
          { index: 1, tricks: '[null,3,7]', scores: null, type: 'json' },
          // With a string: as jsonb printed it (its strings keep their spaces).
          { index: 2, tricks: '{"odd": "a b"}', scores: '[1.5,-2]', type: 'json' },
        ]);
        await client.query(`UPDATE deals SET seed_hash = NULL WHERE index = 0`);
      });
    } finally {
      await rm(before, { recursive: true, force: true });
    }
  });

  it('applied at boot, are what `prisma migrate deploy` and `prisma migrate status` accept, and the other way round', async () => {
    const migrations = listMigrations();
    const byBoot = await createTestDatabase({ empty: true });
    const byPrisma = await createTestDatabase({ empty: true });
    expect(await applyMigrations(byBoot)).toEqual({ applied: migrations });
    expect(await prismaMigrateDeploy(byPrisma)).toEqual({ applied: migrations });

    // Prisma finds nothing pending, edited or failed where the boot path applied the migrations...
    expect(await prismaMigrateStatus(byBoot)).toEqual({
      history: null,
      editedMigrationNames: [],
      failedMigrationNames: [],
      hasMigrationsTable: true,
    });
    expect(await prismaMigrateDeploy(byBoot)).toEqual({ applied: [] });
    // ...nor the boot path where Prisma did.
    expect(await applyMigrations(byPrisma)).toEqual({ applied: [] });
    expect(await describeBookkeeping(byBoot)).toEqual(await describeBookkeeping(byPrisma));
    expect(await describeCatalog(byBoot)).toEqual(await describeCatalog(byPrisma));
  });

  it('can be applied partly by Prisma, then by the boot path, and the other way round, taking the same lock', async () => {
    const migrations = listMigrations();
    const first = await mkdtemp(join(tmpdir(), 'mizerka-migrations-'));
    try {
      await cp(join(migrationsDir(), 'migration_lock.toml'), join(first, 'migration_lock.toml'));
      await cp(join(migrationsDir(), migrations[0]), join(first, migrations[0]), { recursive: true });

      const prismaFirst = await createTestDatabase({ empty: true });
      expect(await prismaMigrateDeploy(prismaFirst, first)).toEqual({ applied: migrations.slice(0, 1) });
      expect(await applyMigrations(prismaFirst)).toEqual({ applied: migrations.slice(1) });

      const bootFirst = await createTestDatabase({ empty: true });
      expect(await applyMigrations(bootFirst, { migrationsDir: first })).toEqual({ applied: migrations.slice(0, 1) });
      expect(await prismaMigrateDeploy(bootFirst)).toEqual({ applied: migrations.slice(1) });
    } finally {
      await rm(first, { recursive: true, force: true });
    }

    // Both take the same advisory lock (the boot path's side: apps/api/src/database/migrations.test.ts),
    // so they never run at the same time.
    const both = await createTestDatabase({ empty: true });
    await withClient(both, async (holder) => {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      let finished = false;
      const deploy = prismaMigrateDeploy(both).finally(() => (finished = true));
      await new Promise((done) => setTimeout(done, 1000));
      expect(finished).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      expect(await deploy).toEqual({ applied: migrations });
    });
  });

  it('each keep the schema they were made from, and the lock file says postgresql', () => {
    for (const name of listMigrations()) {
      expect(existsSync(join(migrationsDir(), name, 'schema.prisma.snapshot')), name).toBe(true);
    }
    expect(readFileSync(join(migrationsDir(), 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');
  });
});

/**
 * `_prisma_migrations` in a form to compare: its definition, and its rows without what differs from
 * one run to the next (ids, times).
 */
async function describeBookkeeping(url: string) {
  return withClient(url, async (client) => {
    const query = async (sql: string) => (await client.query(sql)).rows;
    const columns = await query(`
      SELECT a.attnum, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
             pg_get_expr(d.adbin, d.adrelid) AS default
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = 'public._prisma_migrations'::regclass AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY 1`);
    const constraints = await query(`
      SELECT conname AS constraint, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint WHERE conrelid = 'public._prisma_migrations'::regclass ORDER BY 1`);
    const indexes = await query(`
      SELECT indexname AS index, indexdef AS definition
      FROM pg_indexes WHERE schemaname = 'public' AND tablename = '_prisma_migrations' ORDER BY 1`);
    const rows = await query(`
      SELECT migration_name, checksum, logs, applied_steps_count, finished_at IS NOT NULL AS finished,
             rolled_back_at IS NOT NULL AS rolled_back, length(id) AS id_length
      FROM _prisma_migrations ORDER BY migration_name`);
    return { columns, constraints, indexes, rows };
  });
}

/**
 * What the application relies on, in a form to compare: tables, columns (type, nullability, default),
 * indexes, constraints and enums of the public schema, Prisma's bookkeeping table aside. Columns are
 * compared by name, since ALTER TABLE ADD COLUMN puts a column last. A partitioned table is described
 * as the table Prisma sees (its partitions and their indexes aside: schema.prisma cannot model them;
 * the test above checks them).
 */
async function describeCatalog(url: string) {
  return withClient(url, async (client) => {
    const query = async (sql: string) => (await client.query(sql)).rows;
    const tables = await query(`
      SELECT c.relname AS table, CASE c.relkind WHEN 'p' THEN 'r' ELSE c.relkind END AS kind
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm', 'p', 'S') AND c.relname <> '_prisma_migrations'
        AND NOT c.relispartition
      ORDER BY 1`);
    const columns = await query(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
             a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default, a.attidentity AS identity,
             a.attgenerated AS generated
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        AND c.relname <> '_prisma_migrations' AND NOT c.relispartition
      ORDER BY 1, 2`);
    const indexes = await query(`
      SELECT i.tablename AS table, i.indexname AS index, replace(i.indexdef, ' ON ONLY ', ' ON ') AS definition
      FROM pg_indexes i JOIN pg_class c ON c.relname = i.tablename AND c.relnamespace = 'public'::regnamespace
      WHERE i.schemaname = 'public' AND i.tablename <> '_prisma_migrations' AND NOT c.relispartition
      ORDER BY 1, 2`);
    const constraints = await query(`
      SELECT c.relname AS table, k.conname AS constraint, k.contype AS type, pg_get_constraintdef(k.oid) AS definition
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relname <> '_prisma_migrations' AND NOT c.relispartition
      ORDER BY 1, 2`);
    const enums = await query(`
      SELECT t.typname AS enum, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public'
      GROUP BY 1 ORDER BY 1`);
    return { tables, columns, indexes, constraints, enums };
  });
}
