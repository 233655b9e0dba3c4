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
 * deals hold decks, not seeds), with their record stored: not compacted yet, or compacted before
 * compaction dropped the stored state, record and seed hashes (`dropStateSql`, `dropRecordSql`,
 * `dropSeedHashesSql`; a game whose record could not be rebuilt the same keeps it, and is looked
 * at again by a run from the start); or compacted with its state or a deal's seed hash still stored.
 */
export function candidatesSql(from: Date, fromId: string, until: Date, batch: number) {
  return sqlQuery(
    z.object({ id: z.string(), finished_at: z.date() }),
    Prisma.sql`
      SELECT g.id::text AS id, g.finished_at
        FROM games g
       WHERE (g.finished_at, g.id) > (${from}::timestamptz, ${fromId}::uuid) AND g.finished_at <= ${until}::timestamptz
         AND g.status = 'finished' AND g.imported_by IS NULL
         AND (EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = g.id)
              OR EXISTS (SELECT 1 FROM compact_logs c WHERE c.game_id = g.id)
                 AND (g.state IS NOT NULL OR EXISTS (SELECT 1 FROM deals d WHERE d.game_id = g.id AND d.seed_hash IS NOT NULL AND d.seed IS NOT NULL)))
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
      state: jsonColumn(z.unknown()),
      entries: z.instanceof(Uint8Array).nullable(),
    }),
    Prisma.sql`
      SELECT g.status::text AS status, g.preset, g.options, g.first_dealer::int AS first_dealer, g.imported_by IS NOT NULL AS imported,
             EXISTS (SELECT 1 FROM compact_logs c WHERE c.game_id = g.id) AS compacted, g.state,
             (SELECT c.entries FROM compact_logs c WHERE c.game_id = g.id) AS entries,
             ARRAY(SELECT s.player_id::text FROM game_seats s WHERE s.game_id = g.id ORDER BY s.seat) AS seats,
             ARRAY(SELECT encode(d.seed, 'hex') FROM deals d WHERE d.game_id = g.id ORDER BY d.index) AS seeds
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

/** A compacted game's stored state goes, once it is known to equal the one its compact log rebuilds (GameLogReader.state). */
export function dropStateSql(gameId: string) {
  return sqlQuery(
    z.object({ dropped: z.number() }),
    Prisma.sql`WITH gone AS (UPDATE games SET state = NULL WHERE id = ${gameId}::uuid AND state IS NOT NULL RETURNING 1) SELECT count(*)::int AS dropped FROM gone`,
  );
}

/**
 * A compacted game's deals' seed hashes go where each is its seed's (the SHA-256 of the seed's
 * hex, as dealing.ts seedHashOf made it): the readers compute it then (dealSeedHash, and the
 * history SQL's DEAL_SEED_HASH). A hash that is not its seed's (none is, unless written by hand)
 * stays. 33 bytes of a finished deal's row.
 */
export function dropSeedHashesSql(gameId: string) {
  return sqlQuery(
    z.object({ dropped: z.number() }),
    Prisma.sql`
      WITH gone AS (
        UPDATE deals SET seed_hash = NULL
         WHERE game_id = ${gameId}::uuid AND seed IS NOT NULL AND seed_hash = sha256(convert_to(encode(seed, 'hex'), 'UTF8'))
        RETURNING 1)
      SELECT count(*)::int AS dropped FROM gone`,
  );
}

/** The game's stored record, as its text. */
export function storedRecordSql(gameId: string) {
  return sqlQuery(z.object({ text: z.string() }), Prisma.sql`SELECT record::text AS text FROM game_records WHERE game_id = ${gameId}::uuid`);
}

/** A compacted game's stored record goes, once the one built from its compact log is the same text (GamesService.record, the export build it then). */
export function dropRecordSql(gameId: string) {
  return sqlQuery(
    z.object({ dropped: z.number() }),
    Prisma.sql`WITH gone AS (DELETE FROM game_records WHERE game_id = ${gameId}::uuid RETURNING 1) SELECT count(*)::int AS dropped FROM gone`,
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

/** A card name as the rows write it ('7C', 'TD', 'AS') → its byte (suit * 13 + rank, libs/rules); 255 for anything else. */
const CARD_BYTE = Prisma.sql`CASE WHEN length(c) = 2 AND strpos('23456789TJQKA', substr(c, 1, 1)) > 0 AND strpos('CDHS', substr(c, 2, 1)) > 0
                       THEN (strpos('CDHS', substr(c, 2, 1)) - 1) * 13 + strpos('23456789TJQKA', substr(c, 1, 1)) - 1
                       ELSE 255 END`;

/**
 * The game's tricks rows packed into their deals' played_tricks (a byte for the cards per trick,
 * then per trick its leader, its winner and its cards), as migration compact_tricks packs the games
 * compacted before it; the view packed_tricks reads them back. The rows stay until `dropLiveTricksSql`.
 */
export function packTricksSql(gameId: string) {
  return sqlQuery(
    z.object({ deals: z.number() }),
    Prisma.sql`
      WITH packed AS (
        SELECT t.deal_index,
               set_byte('\\x00'::bytea, 0, min(cardinality(t.cards)))
               || string_agg(set_byte('\\x00'::bytea, 0, t.leader) || set_byte('\\x00'::bytea, 0, t.winner)
                             || (SELECT string_agg(set_byte('\\x00'::bytea, 0, ${CARD_BYTE}), ''::bytea ORDER BY o)
                                   FROM unnest(t.cards) WITH ORDINALITY AS u(c, o)),
                             ''::bytea ORDER BY t.index) AS played
          FROM live_tricks t WHERE t.game_id = ${gameId}::uuid
         GROUP BY t.deal_index),
      done AS (
        UPDATE deals d SET played_tricks = p.played FROM packed p
         WHERE d.game_id = ${gameId}::uuid AND d.index = p.deal_index RETURNING 1)
      SELECT count(*)::int AS deals FROM done`,
  );
}

/** The tricks that the game's packed deals and its rows do not have alike (each side's extra rows): none, or packing lost something. */
export function unequalTricksSql(gameId: string) {
  const packed = Prisma.sql`SELECT game_id, deal_index, index, leader, cards, winner FROM packed_tricks WHERE game_id = ${gameId}::uuid`;
  const rows = Prisma.sql`SELECT game_id, deal_index, index, leader, cards, winner FROM live_tricks WHERE game_id = ${gameId}::uuid`;
  return sqlQuery(
    z.object({ unequal: z.number() }),
    Prisma.sql`SELECT count(*)::int AS unequal FROM ((${packed} EXCEPT ALL ${rows}) UNION ALL (${rows} EXCEPT ALL ${packed})) AS x`,
  );
}

/** After `unequalTricksSql` found none: the rows go, the packed deals stay. */
export function dropLiveTricksSql(gameId: string) {
  return sqlQuery(
    z.object({ deleted: z.number() }),
    Prisma.sql`WITH gone AS (DELETE FROM live_tricks WHERE game_id = ${gameId}::uuid RETURNING 1) SELECT count(*)::int AS deleted FROM gone`,
  );
}

/** After `unequalTricksSql` found some: the game keeps its tricks as rows. */
export function unpackTricksSql(gameId: string) {
  return sqlQuery(
    z.object({ deals: z.number() }),
    Prisma.sql`WITH undone AS (UPDATE deals SET played_tricks = NULL WHERE game_id = ${gameId}::uuid AND played_tricks IS NOT NULL RETURNING 1)
               SELECT count(*)::int AS deals FROM undone`,
  );
}
