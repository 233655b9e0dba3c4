// Stores the missing records of finished games (game_records), for a database whose games ended
// before records were stored at a game's end: a batch of games per statement, each built by
// buildRecord from the game's rows exactly as the server's gameFinished consumer builds it.
// Resumable: a batch is one INSERT (all of it or none), and a run skips the games that have one.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Prisma } from '../../apps/api/src/generated/prisma/client.js';
import { insertRecordsSql, recordSourcesSql, type RecordSourceRow } from '../../apps/api/src/history/history.sql.js';
import { recordOfRow } from '../../apps/api/src/history/stored-records.js';

export interface BackfillOptions {
  url: string;
  /** Games per statement (default 500). */
  batch?: number;
  /** Only the games of these players (by name); null: every finished game. */
  players?: string[] | null;
  progress?: (p: BackfillProgress) => void;
}

export interface BackfillProgress {
  /** Records stored so far by this run, of `missing` at its start. */
  stored: number;
  missing: number;
  seconds: number;
}

const query = <T extends pg.QueryResultRow>(db: pg.Client, sql: Prisma.Sql) => db.query<T>(sql.text, sql.values as unknown[]);

/** Stores every missing record of the finished games asked for; what it did. */
export async function backfillRecords(options: BackfillOptions): Promise<BackfillProgress> {
  const batch = options.batch ?? 500;
  const db = new pg.Client({ connectionString: options.url, application_name: 'mizerka-backfill-records' });
  await db.connect();
  try {
    // The sources' subqueries run once per game: compiling them is not worth it.
    await db.query(`SET jit = off`);
    let playerIds: string[] | null = null;
    if (options.players) {
      const found = await db.query<{ id: string; name_key: string }>(`SELECT id::text, name_key FROM players WHERE name_key = ANY($1::text[])`, [
        options.players.map((n) => n.toLowerCase()),
      ]);
      const missing = options.players.filter((n) => !found.rows.some((r) => r.name_key === n.toLowerCase()));
      if (missing.length > 0) throw new Error(`no player named ${missing.join(', ')}`);
      playerIds = found.rows.map((r) => r.id);
    }
    // The games to do, oldest first by the games(created_at, id) index: games were written about in
    // that order, so their moves are read from neighbouring pages (id order reads them at random).
    // $1 is always passed, so that both forms take the same parameters.
    const todo = playerIds
      ? `FROM games g WHERE g.id IN (SELECT s.game_id FROM game_seats s WHERE s.player_id = ANY($1::uuid[])) AND g.status = 'finished'
           AND NOT EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = g.id) AND NOT EXISTS (SELECT 1 FROM compact_logs c WHERE c.game_id = g.id)`
      : `FROM games g WHERE g.status = 'finished' AND NOT EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = g.id)
           AND NOT EXISTS (SELECT 1 FROM compact_logs c WHERE c.game_id = g.id) AND $1::uuid[] IS NULL`;
    const missing = (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${todo}`, [playerIds])).rows[0].n;
    const next = `SELECT g.id::text AS id, g.created_at ${todo} AND (g.created_at, g.id) > ($2::timestamptz, $4::uuid)
      ORDER BY g.created_at, g.id LIMIT $3::int`;
    const started = performance.now();
    const state = { stored: 0, missing, seconds: 0 };
    let after = { at: new Date(0), id: '00000000-0000-0000-0000-000000000000' };
    for (;;) {
      const page = (await db.query<{ id: string; created_at: Date }>(next, [playerIds, after.at, batch, after.id])).rows;
      if (page.length === 0) break;
      after = { at: page[page.length - 1].created_at, id: page[page.length - 1].id };
      const ids = page.map((r) => r.id);
      const rows = (await query<RecordSourceRow>(db, recordSourcesSql(ids))).rows;
      if (rows.length > 0) {
        const inserted = await query(db, insertRecordsSql(rows.map((row) => ({ gameId: row.id, text: JSON.stringify(recordOfRow(row)) }))));
        state.stored += inserted.rowCount ?? 0;
      }
      state.seconds = (performance.now() - started) / 1000;
      options.progress?.({ ...state });
    }
    state.seconds = (performance.now() - started) / 1000;
    return state;
  } finally {
    await db.end();
  }
}
