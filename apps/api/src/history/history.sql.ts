import { z } from 'zod';
import { jsonColumn } from '../common/json-column.js';
import type { CursorKey } from '../common/paging.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The SQL of the history surfaces, each built by one exported function, so that the benchmark can
// EXPLAIN exactly what the server runs. Every list is newest first by (created_at, id), the key of
// the games(created_at desc, id desc) index and its (preset | status | imported_by, …) siblings; a
// player's games are walked newest first through game_seats(player_id, created_at desc, game_id desc)
// (a seat's created_at is its game's), never by scanning games.

/** How a summary's status reads: a forfeit is told apart from a game played (or resigned) to its end. */
export type HistoryStatus = 'active' | 'finished' | 'forfeited';

/** A games filter with names already resolved to player ids. */
export interface GamesQuery {
  /** All of them at the table; the first is the subject of `result` and `place`. */
  playerIds: string[];
  /** Whose result and place are asked for: the first named player, else the caller; null: nobody's. */
  subjectId: string | null;
  /** One preset, or the presets of a family. */
  presets: string[] | null;
  playerCount: number | null;
  status: HistoryStatus | null;
  rated: boolean | null;
  imported: boolean | null;
  from: Date | null;
  to: Date | null;
  result: 'WON' | 'LOST' | null;
  place: number | null;
  after: CursorKey | null;
}

const GAME_ROW = z.object({
  id: z.string(),
  preset: z.string(),
  players: z.number(),
  status: z.enum(['active', 'finished']),
  end_reason: z.string().nullable(),
  end_seat: z.number().nullable(),
  rated: z.boolean(),
  imported_by: z.string().nullable(),
  seat_names: z.array(z.string()),
  seat_bots: z.array(z.string()).nullable(),
  totals: z.array(z.number()),
  created_at: z.date(),
  finished_at: z.date().nullable(),
  updated_at: z.date(),
  version: z.number(),
  to_move: z.number().nullable(),
});
export type GameRow = z.output<typeof GAME_ROW>;

/**
 * FROM … WHERE … ORDER BY of a games query; `finishedOnly` for the export (a game in play would
 * reveal its decks, and so would a duplicate board's game before the board is released).
 */
function gamesFromWhere(q: GamesQuery, finishedOnly: boolean): Prisma.Sql {
  const where: Prisma.Sql[] = [];
  const subject = q.playerIds[0] ?? q.subjectId;
  // A player's list is keyed by their seats' copy of the key (the same values), so that the dates
  // and the cursor bound the index walk and its order needs no sort.
  const at = subject ? Prisma.sql`s0.created_at` : Prisma.sql`g.created_at`;
  const id = subject ? Prisma.sql`s0.game_id` : Prisma.sql`g.id`;
  for (const other of q.playerIds.slice(1)) {
    // By their seat's key in the same index, so that both players' seats can be walked together in order (a merge join).
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM game_seats o WHERE o.player_id = ${other}::uuid AND o.created_at = s0.created_at AND o.game_id = s0.game_id)`);
  }
  if (q.presets) where.push(Prisma.sql`g.preset IN (${Prisma.join(q.presets.map((p) => Prisma.sql`${p}::varchar`))})`);
  if (q.playerCount !== null) where.push(Prisma.sql`g.players = ${q.playerCount}::smallint`);
  if (q.status === 'active') where.push(Prisma.sql`g.status = 'active'`);
  if (q.status === 'finished') where.push(Prisma.sql`g.status = 'finished' AND g.end_reason IS DISTINCT FROM 'forfeit'`);
  if (q.status === 'forfeited') where.push(Prisma.sql`g.status = 'finished' AND g.end_reason = 'forfeit'`);
  // A duplicate board's game held back: its record would show another table the board's decks.
  if (finishedOnly) where.push(Prisma.sql`g.status = 'finished' AND NOT g.reveal_held`);
  if (q.rated !== null) where.push(Prisma.sql`g.rated = ${q.rated}::boolean`);
  if (q.imported === true) where.push(Prisma.sql`g.imported_by IS NOT NULL`);
  if (q.imported === false) where.push(Prisma.sql`g.imported_by IS NULL`);
  if (q.from) where.push(Prisma.sql`${at} >= ${q.from}::timestamptz`);
  if (q.to) where.push(Prisma.sql`${at} < ${q.to}::timestamptz`);
  if (q.result === 'WON') where.push(Prisma.sql`s0.place = 1`);
  if (q.result === 'LOST') where.push(Prisma.sql`s0.place > 1`);
  if (q.place !== null) where.push(Prisma.sql`s0.place = ${q.place}::smallint`);
  if (q.after) where.push(Prisma.sql`(${at}, ${id}) < (${q.after.at}::timestamptz, ${q.after.id}::uuid)`);
  // A player's games are read from their seats newest first, each game by its key: a page reads
  // about `first` seats when the filters are not selective, and never more than the player's own
  // games, however rare the combination asked for. (A plain join lets the planner walk all games
  // newest first, or hash them, when its estimates say so.) OFFSET 0 keeps the subquery from being
  // flattened into such a join.
  const from = subject
    ? Prisma.sql`FROM game_seats s0 CROSS JOIN LATERAL (SELECT * FROM games WHERE games.id = s0.game_id OFFSET 0) g
      WHERE s0.player_id = ${subject}::uuid`
    : Prisma.sql`FROM games g WHERE true`;
  return Prisma.sql`${from} ${where.length > 0 ? Prisma.sql`AND ${Prisma.join(where, ' AND ')}` : Prisma.empty}
    ORDER BY ${at} DESC, ${id} DESC`;
}

/** How many records the player imported in the last hour. */
export function recentImportsSql(playerId: string) {
  return sqlQuery(
    z.object({ n: z.number() }),
    Prisma.sql`SELECT count(*)::int AS n FROM games WHERE imported_by = ${playerId}::uuid AND created_at > now() - interval '1 hour'`,
  );
}

/** One page of game summaries' rows (`first + 1` of them: the extra one says whether more follow). */
export function gamesPageSql(q: GamesQuery, first: number) {
  return sqlQuery(
    GAME_ROW,
    Prisma.sql`SELECT g.id, g.preset, g.players, g.status::text AS status, g.end_reason, g.end_seat, g.rated,
         g.imported_by, g.seat_names, g.seat_bots, g.totals, g.created_at, g.finished_at, g.updated_at, g.version, g.to_move
    ${gamesFromWhere(q, false)} LIMIT ${first + 1}::int`,
  );
}

/** A games row as the record builder reads it: what buildRecord needs, gathered per game in one row. */
const RECORD_SOURCE_ROW = z.object({
  id: z.string(),
  preset: z.string(),
  options: z.unknown(),
  players: z.number(),
  first_dealer: z.number(),
  end_seat: z.number().nullable(),
  end_reason: z.string().nullable(),
  seat_names: z.array(z.string()),
  seat_bots: z.array(z.string()).nullable(),
  seats: jsonColumn(z.array(z.object({ seat: z.number(), name: z.string(), kind: z.string(), botLevel: z.string().nullable() }))),
  deals: jsonColumn(z.array(z.object({ seed: z.string().nullable(), deck: z.array(z.string()).nullable(), seedHash: z.string() }))),
  moves: jsonColumn(z.array(z.object({ dealIndex: z.number(), move: z.unknown() }))),
  /** A compacted game's compact log (its moves are there, not in game_events); else null. */
  compact: z.instanceof(Uint8Array).nullable(),
});
export type RecordSourceRow = z.output<typeof RECORD_SOURCE_ROW>;

/**
 * A games row as the export reads it: its stored record's text, else (a game whose record is not
 * stored yet) the sources to build it from; `deals` also when seeds are asked for.
 */
const EXPORT_ROW = RECORD_SOURCE_ROW.extend({
  created_at: z.date(),
  record: z.string().nullable(),
  seats: RECORD_SOURCE_ROW.shape.seats.nullable(),
  deals: RECORD_SOURCE_ROW.shape.deals.nullable(),
  moves: RECORD_SOURCE_ROW.shape.moves.nullable(),
});
export type ExportRow = z.output<typeof EXPORT_ROW>;

// The sources of game g's record beyond its own columns: its seats, deals and moves as JSON arrays.
const SEATS_JSON = Prisma.sql`(SELECT coalesce(json_agg(json_build_object('seat', s.seat, 'name', p.name, 'kind', p.kind, 'botLevel', p.bot_level) ORDER BY s.seat), '[]')
            FROM game_seats s JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id)`;
// A compacted game's deal has no stored hash: it is its seed's (games/dealing.ts dealSeedHash).
const DEAL_SEED_HASH = Prisma.sql`encode(coalesce(d.seed_hash, sha256(convert_to(encode(d.seed, 'hex'), 'UTF8'))), 'hex')`;
const DEALS_JSON = Prisma.sql`(SELECT coalesce(json_agg(json_build_object('seed', encode(d.seed, 'hex'), 'deck', d.deck, 'seedHash', ${DEAL_SEED_HASH}) ORDER BY d.index), '[]')
            FROM deals d WHERE d.game_id = g.id)`;
const MOVES_JSON = Prisma.sql`(SELECT coalesce(json_agg(json_build_object('dealIndex', e.deal_index, 'move', e.move) ORDER BY e.seq), '[]')
            FROM game_events e WHERE e.game_id = g.id AND e.kind NOT IN ('deal', 'end', 'away', 'back'))`;
const COMPACT_ENTRIES = Prisma.sql`(SELECT c.entries FROM compact_logs c WHERE c.game_id = g.id)`;
// A scalar subquery, not NOT EXISTS: the planner may turn NOT EXISTS into a hashed subplan that
// reads every game_records key for each export, where this is one index probe per game.
const UNSTORED = Prisma.sql`(SELECT true FROM game_records r WHERE r.game_id = g.id) IS NULL`;

/**
 * The finished games of a filter, newest first, at most `limit`: each with its stored record, read
 * from one row; only a game whose record is not stored yet has its moves gathered (a CASE runs its
 * subquery only when its branch is taken).
 */
export function gamesExportSql(q: GamesQuery, limit: number, withSeeds = false) {
  return sqlQuery(
    EXPORT_ROW,
    Prisma.sql`SELECT g.id, g.preset, g.options, g.players, g.first_dealer, g.end_seat, g.end_reason, g.seat_names, g.seat_bots, g.created_at,
         (SELECT r.record::text FROM game_records r WHERE r.game_id = g.id) AS record,
         CASE WHEN ${UNSTORED} THEN ${SEATS_JSON} END AS seats,
         CASE WHEN ${withSeeds}::boolean OR ${UNSTORED} THEN ${DEALS_JSON} END AS deals,
         CASE WHEN ${UNSTORED} THEN ${MOVES_JSON} END AS moves,
         CASE WHEN ${UNSTORED} THEN ${COMPACT_ENTRIES} END AS compact
    ${gamesFromWhere(q, true)} LIMIT ${limit}::int`,
  );
}

/**
 * Those of `gameIds` that are finished (and, if `missingOnly`, have no stored record and are not
 * compacted: a compacted game's record is built when read), with their records' sources.
 */
export function recordSourcesSql(gameIds: readonly string[], missingOnly = true) {
  return sqlQuery(
    RECORD_SOURCE_ROW,
    Prisma.sql`SELECT g.id, g.preset, g.options, g.players, g.first_dealer, g.end_seat, g.end_reason, g.seat_names, g.seat_bots,
         ${SEATS_JSON} AS seats, ${DEALS_JSON} AS deals, ${MOVES_JSON} AS moves, ${COMPACT_ENTRIES} AS compact
    FROM games g WHERE g.id = ANY(${gameIds}::uuid[]) AND g.status = 'finished'
     ${missingOnly ? Prisma.sql`AND ${UNSTORED} AND ${COMPACT_ENTRIES} IS NULL` : Prisma.empty}
    ORDER BY g.id`,
  );
}

/** Stores records (game id, JSON text); one already stored is kept, so a repeat or a race with another instance writes nothing more. */
export function insertRecordsSql(records: readonly { gameId: string; text: string }[]): Prisma.Sql {
  return Prisma.sql`INSERT INTO game_records (game_id, record)
    SELECT v.game_id, v.record::json FROM unnest(${records.map((r) => r.gameId)}::uuid[], ${records.map((r) => r.text)}::text[]) AS v(game_id, record)
    ON CONFLICT (game_id) DO NOTHING`;
}

/** Messages of a game's players' room an export carries at most (the oldest first). */
export const EXPORT_CHAT_MAX = 1000;

const CHAT_LINE = z.object({ game_id: z.string(), seq: z.number(), author: z.string(), body: z.string(), at: z.date() });

/**
 * The players' room of each game (the table talk its seats had), oldest first, at most
 * EXPORT_CHAT_MAX a game. Never the spectators' room: an export of one's games carries one's own
 * table's talk only.
 */
export function exportChatSql(gameIds: readonly string[]) {
  return sqlQuery(
    CHAT_LINE,
    Prisma.sql`SELECT r.game_id::text AS game_id, m.seq, p.name AS author, m.body, m.created_at AS at
      FROM chat_rooms r
      CROSS JOIN LATERAL (
        SELECT seq, author_id, body, created_at FROM chat_messages WHERE room_id = r.id ORDER BY seq LIMIT ${EXPORT_CHAT_MAX}
      ) m
      JOIN players p ON p.id = m.author_id
      WHERE r.game_id = ANY(${gameIds}::uuid[]) AND r.kind = 'players'
      ORDER BY r.game_id, m.seq`,
  );
}
