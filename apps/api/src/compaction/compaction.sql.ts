import { z } from 'zod';
import { jsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The compaction job's statements (compaction.service.ts).

/** The job's mark: the finished_at up to which it has been through the finished games. */
export const MARK = 'compaction';

/**
 * Up to `batch` games finished after (`from`, `fromId`) and at or before `until`, by finished_at
 * then id (games_finished_at_id_idx), that may be compacted: played here (an imported game's
 * deals hold decks, not seeds), with their record stored, and not compacted yet.
 */
export function candidatesSql(from: Date, fromId: string, until: Date, batch: number) {
  return sqlQuery(
    z.object({ id: z.string(), finished_at: z.date() }),
    Prisma.sql`
      SELECT g.id::text AS id, g.finished_at
        FROM games g
       WHERE (g.finished_at, g.id) > (${from}::timestamptz, ${fromId}::uuid) AND g.finished_at <= ${until}::timestamptz
         AND g.status = 'finished' AND g.imported_by IS NULL
         AND EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = g.id)
         AND NOT EXISTS (SELECT 1 FROM compact_logs c WHERE c.game_id = g.id)
       ORDER BY g.finished_at, g.id
       LIMIT ${batch}::int`,
  );
}

/** The game, locked for the rest of its transaction: a compaction of it at the same time waits, then finds it done. */
export function lockedGameSql(gameId: string) {
  return sqlQuery(
    z.object({
      status: z.string(),
      preset: z.string(),
      options: jsonColumn(z.unknown()),
      first_dealer: z.number(),
      imported: z.boolean(),
      compacted: z.boolean(),
      seats: z.array(z.string()),
      seeds: z.array(z.string().nullable()),
    }),
    Prisma.sql`
      SELECT g.status::text AS status, g.preset, g.options, g.first_dealer::int AS first_dealer, g.imported_by IS NOT NULL AS imported,
             EXISTS (SELECT 1 FROM compact_logs c WHERE c.game_id = g.id) AS compacted,
             ARRAY(SELECT s.player_id::text FROM game_seats s WHERE s.game_id = g.id ORDER BY s.seat) AS seats,
             ARRAY(SELECT d.seed FROM deals d WHERE d.game_id = g.id ORDER BY d.index) AS seeds
        FROM games g WHERE g.id = ${gameId}::uuid
         FOR UPDATE OF g`,
  );
}

/** The game's whole log, with what only the moves path reads (keys, request hashes, answers). */
export function logRowsSql(gameId: string) {
  return sqlQuery(
    z.object({
      seq: z.number(),
      kind: z.string(),
      deal_index: z.number(),
      seat: z.number().nullable(),
      player_id: z.string().nullable(),
      actor: z.string(),
      cause: z.string().nullable(),
      move: jsonColumn(z.unknown()),
      events: jsonColumn(z.unknown()),
      idempotency_key: z.string().nullable(),
      request_hash: z.string().nullable(),
      response: jsonColumn(z.unknown()),
      deadline: z.date().nullable(),
      created_at: z.date(),
    }),
    Prisma.sql`
      SELECT seq, kind, deal_index, seat::int AS seat, player_id::text AS player_id, actor, cause, move, events,
             idempotency_key, request_hash, response, deadline, created_at
        FROM game_events WHERE game_id = ${gameId}::uuid ORDER BY seq`,
  );
}

/** The compact row in, the rows out: the game's log changes form in one statement. */
export function replaceLogSql(gameId: string, entries: Buffer) {
  return sqlQuery(
    z.object({ deleted: z.number() }),
    Prisma.sql`
      WITH kept AS (INSERT INTO compact_logs (game_id, entries) VALUES (${gameId}::uuid, ${entries}) RETURNING game_id),
           gone AS (DELETE FROM game_events e USING kept WHERE e.game_id = kept.game_id RETURNING 1)
      SELECT count(*)::int AS deleted FROM gone`,
  );
}

export function markSql() {
  return sqlQuery(z.object({ at: z.date() }), Prisma.sql`SELECT at FROM job_marks WHERE name = ${MARK}`);
}

export function setMarkSql(at: Date) {
  return sqlQuery(
    z.object({ at: z.date() }),
    Prisma.sql`
      INSERT INTO job_marks (name, at) VALUES (${MARK}, ${at}::timestamptz)
      ON CONFLICT (name) DO UPDATE SET at = GREATEST(job_marks.at, excluded.at) RETURNING at`,
  );
}
