import { Prisma } from '../generated/prisma/client.js';
import type { CursorKey } from '../common/paging.js';

// The SQL of the history surfaces, each built by one exported function, so that the benchmark can
// EXPLAIN exactly what the server runs. Every list is newest first by (created_at, id), the key of
// the games(created_at desc, id desc) index and its (preset | status | imported_by, …) siblings; a
// player's games are reached through game_seats(player_id, game_id), never by scanning games.

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

export interface GameRow {
  id: string;
  preset: string;
  players: number;
  status: 'active' | 'finished';
  end_reason: string | null;
  end_seat: number | null;
  rated: boolean;
  imported_by: string | null;
  seat_names: string[];
  totals: number[];
  created_at: Date;
  finished_at: Date | null;
  updated_at: Date;
  version: number;
  to_move: number | null;
}

/** FROM … WHERE … ORDER BY of a games query; `finishedOnly` for the export (a game in play would reveal its decks). */
function gamesFromWhere(q: GamesQuery, finishedOnly: boolean): Prisma.Sql {
  const where: Prisma.Sql[] = [];
  const subject = q.playerIds[0] ?? q.subjectId;
  for (const other of q.playerIds.slice(1)) {
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM game_seats o WHERE o.game_id = g.id AND o.player_id = ${other}::uuid)`);
  }
  if (q.presets) where.push(Prisma.sql`g.preset IN (${Prisma.join(q.presets.map((p) => Prisma.sql`${p}::varchar`))})`);
  if (q.playerCount !== null) where.push(Prisma.sql`g.players = ${q.playerCount}::smallint`);
  if (q.status === 'active') where.push(Prisma.sql`g.status = 'active'`);
  if (q.status === 'finished') where.push(Prisma.sql`g.status = 'finished' AND g.end_reason IS DISTINCT FROM 'forfeit'`);
  if (q.status === 'forfeited') where.push(Prisma.sql`g.status = 'finished' AND g.end_reason = 'forfeit'`);
  if (finishedOnly) where.push(Prisma.sql`g.status = 'finished'`);
  if (q.rated !== null) where.push(Prisma.sql`g.rated = ${q.rated}::boolean`);
  if (q.imported === true) where.push(Prisma.sql`g.imported_by IS NOT NULL`);
  if (q.imported === false) where.push(Prisma.sql`g.imported_by IS NULL`);
  if (q.from) where.push(Prisma.sql`g.created_at >= ${q.from}::timestamptz`);
  if (q.to) where.push(Prisma.sql`g.created_at < ${q.to}::timestamptz`);
  if (q.result === 'WON') where.push(Prisma.sql`s0.place = 1`);
  if (q.result === 'LOST') where.push(Prisma.sql`s0.place > 1`);
  if (q.place !== null) where.push(Prisma.sql`s0.place = ${q.place}::smallint`);
  if (q.after) where.push(Prisma.sql`(g.created_at, g.id) < (${q.after.at}::timestamptz, ${q.after.id}::uuid)`);
  // A player's games are read from their seats, each game by its key: the cost is bounded by the
  // player's own games, however rare the combination asked for. (A plain join lets the planner walk
  // all games newest first, or hash them, when its estimates say so.) OFFSET 0 keeps the subquery
  // from being flattened into such a join.
  const from = subject
    ? Prisma.sql`FROM game_seats s0 CROSS JOIN LATERAL (SELECT * FROM games WHERE games.id = s0.game_id OFFSET 0) g
      WHERE s0.player_id = ${subject}::uuid`
    : Prisma.sql`FROM games g WHERE true`;
  return Prisma.sql`${from} ${where.length > 0 ? Prisma.sql`AND ${Prisma.join(where, ' AND ')}` : Prisma.empty}
    ORDER BY g.created_at DESC, g.id DESC`;
}

/** One page of game summaries' rows (`first + 1` of them: the extra one says whether more follow). */
export function gamesPageSql(q: GamesQuery, first: number): Prisma.Sql {
  return Prisma.sql`SELECT g.id, g.preset, g.players, g.status::text AS status, g.end_reason, g.end_seat, g.rated,
         g.imported_by, g.seat_names, g.totals, g.created_at, g.finished_at, g.updated_at, g.version, g.to_move
    ${gamesFromWhere(q, false)} LIMIT ${first + 1}::int`;
}

/** A games row as the export reads it: what buildRecord needs, gathered per game in one row. */
export interface ExportRow {
  id: string;
  preset: string;
  options: unknown;
  players: number;
  first_dealer: number;
  end_seat: number | null;
  end_reason: string | null;
  seat_names: string[];
  created_at: Date;
  seats: { seat: number; name: string; kind: string; botLevel: string | null }[];
  deals: { seed: string | null; deck: string[] | null; seedHash: string }[];
  moves: { dealIndex: number; move: unknown }[];
}

/** The finished games of a filter with everything their records need, newest first, at most `limit`. */
export function gamesExportSql(q: GamesQuery, limit: number): Prisma.Sql {
  return Prisma.sql`SELECT g.id, g.preset, g.options, g.players, g.first_dealer, g.end_seat, g.end_reason, g.seat_names, g.created_at,
         (SELECT coalesce(json_agg(json_build_object('seat', s.seat, 'name', p.name, 'kind', p.kind, 'botLevel', p.bot_level) ORDER BY s.seat), '[]')
            FROM game_seats s JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id) AS seats,
         (SELECT coalesce(json_agg(json_build_object('seed', d.seed, 'deck', d.deck, 'seedHash', d.seed_hash) ORDER BY d.index), '[]')
            FROM deals d WHERE d.game_id = g.id) AS deals,
         (SELECT coalesce(json_agg(json_build_object('dealIndex', e.deal_index, 'move', e.move) ORDER BY e.seq), '[]')
            FROM game_events e WHERE e.game_id = g.id AND e.kind NOT IN ('deal', 'end')) AS moves
    ${gamesFromWhere(q, true)} LIMIT ${limit}::int`;
}
