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
});
