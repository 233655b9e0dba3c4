import { describe, expect, it } from 'vitest';
import { createTestDatabase, withClient } from '../../../../test/database.js';

// The columns GameStore.write sets on every move (status, winners and the end's columns change
// once, at the end): an index on any of them would turn each move's UPDATE from a heap-only tuple
// update into one that adds an entry to every index of the table.
const WRITTEN_EVERY_MOVE = ['state', 'version', 'phase', 'to_move', 'deal_index', 'turn_deadline', 'updated_at', 'turn_started_at', 'bank_ms', 'timeouts', 'totals'];

describe('the games table, as the move path writes it', () => {
  it('has no index on a column every move writes, and room on its pages for the next version', async () => {
    const url = await createTestDatabase();
    await withClient(url, async (client) => {
      const { rows } = await client.query<{ name: string; columns: string[]; definition: string }>(`
        SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition,
               array(SELECT a.attname::text FROM pg_attribute a
                      WHERE a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey::int2[])) AS columns
          FROM pg_index i WHERE i.indrelid = 'games'::regclass`);
      expect(rows.length).toBeGreaterThan(1);
      for (const index of rows) {
        for (const column of WRITTEN_EVERY_MOVE) {
          expect(index.columns, index.definition).not.toContain(column);
          // Expression and partial indexes name their columns only in the definition.
          expect(index.definition, index.name).not.toMatch(new RegExp(`\\b${column}\\b`));
        }
      }
      const options = await client.query<{ reloptions: string[] | null }>(`SELECT reloptions FROM pg_class WHERE oid = 'games'::regclass`);
      expect(options.rows[0].reloptions).toContain('fillfactor=70');
    });
  });

  it('stores a state of up to ~3.5 kB as the text it is, uncompressed, and updates it on its page', async () => {
    const url = await createTestDatabase();
    await withClient(url, async (client) => {
      // As long as a late four-player game's state, and as compressible as JSON is: with jsonb and
      // PostgreSQL's default threshold (~2 kB a row) every write of it was parsed and compressed.
      const state = (n: number) => JSON.stringify({ version: n, hands: Array.from({ length: 120 }, (_, i) => ({ seat: i % 4, cards: [i, n] })) });
      expect(state(1).length).toBeGreaterThan(3_000);
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO games (id, preset, players, first_dealer, phase, state, totals, winners, updated_at)
         VALUES (gen_random_uuid(), 'classic-4', 4, 0, 'play', $1, '{}', '{}', now()) RETURNING id`,
        [state(1)],
      );
      // Each move is a transaction of its own; its UPDATE prunes the versions before it.
      const page = async () =>
        (await client.query<{ page: string }>(`SELECT split_part(trim(both '()' from ctid::text), ',', 1) AS page FROM games WHERE id = $1`, [rows[0].id])).rows[0].page;
      const first = await page();
      for (let n = 2; n <= 6; n++) {
        await client.query(`UPDATE games SET state = $2, version = $3, updated_at = now() WHERE id = $1`, [rows[0].id, state(n), n]);
        expect(await page(), `the page of version ${n}`).toBe(first);
      }
      const stored = await client.query<{ type: string; compression: string | null; text: string }>(
        `SELECT pg_typeof(state)::text AS type, pg_column_compression(state) AS compression, state::text AS text FROM games WHERE id = $1`,
        [rows[0].id],
      );
      const { type, compression, text } = stored.rows[0];
      expect({ type, compression, asWritten: text === state(6) }).toEqual({ type: 'json', compression: null, asWritten: true });
    });
  });
});
