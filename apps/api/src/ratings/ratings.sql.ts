import { Prisma } from '../generated/prisma/client.js';
import type { CursorKey } from '../common/paging.js';
import type { FamilyValue } from '../games/index.js';

// The SQL of the ratings' reads, each built by one exported function, so that the benchmark runs
// EXPLAIN (ANALYZE, BUFFERS) on exactly what the server runs.

/** Where a leaderboard page ends: the last entry's sort key. */
export interface LeaderboardKey {
  ordinal: number;
  playerId: string;
}

/**
 * One page of a leaderboard, ordinal descending, then player id: an index range scan of
 * ratings(family, players, ordinal desc, player_id) from the cursor on. The redundant
 * `ordinal <= key` bounds the scan; the OR orders the ties.
 */
export function leaderboardSql(q: { family: FamilyValue; players: number; minGames: number; after: LeaderboardKey | null; limit: number }): Prisma.Sql {
  const after = q.after
    ? Prisma.sql`AND r.ordinal <= ${q.after.ordinal}::float8
                 AND (r.ordinal < ${q.after.ordinal}::float8 OR r.player_id > ${q.after.playerId}::uuid)`
    : Prisma.empty;
  return Prisma.sql`
    SELECT r.player_id::text AS player_id, p.name, p.kind::text AS kind, r.mu, r.sigma, r.ordinal, r.games, r.updated_at
      FROM ratings r JOIN players p ON p.id = r.player_id
     WHERE r.family = ${q.family}::varchar AND r.players = ${q.players}::smallint AND r.games >= ${q.minGames}::int ${after}
     ORDER BY r.ordinal DESC, r.player_id
     LIMIT ${q.limit}::int`;
}

/** A player's rating changes, newest first: an index scan of rating_changes(player_id, created_at desc). */
export function ratingHistorySql(q: { playerId: string; family: FamilyValue | null; players: number | null; after: CursorKey | null; limit: number }): Prisma.Sql {
  return Prisma.sql`
    SELECT c.game_id::text AS game_id, g.preset, c.family, c.players, c.place,
           c.mu_before, c.sigma_before, c.mu_after, c.sigma_after, c.created_at
      FROM rating_changes c JOIN games g ON g.id = c.game_id
     WHERE c.player_id = ${q.playerId}::uuid
       ${q.family === null ? Prisma.empty : Prisma.sql`AND c.family = ${q.family}::varchar`}
       ${q.players === null ? Prisma.empty : Prisma.sql`AND c.players = ${q.players}::smallint`}
       ${q.after ? Prisma.sql`AND (c.created_at, c.game_id) < (${q.after.at}::timestamptz, ${q.after.id}::uuid)` : Prisma.empty}
     ORDER BY c.created_at DESC, c.game_id DESC
     LIMIT ${q.limit}::int`;
}

/** A player's current ratings, every family and player count: the primary key's prefix. */
export function playerRatingsSql(playerId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT family, players, mu, sigma, ordinal, games, updated_at
      FROM ratings WHERE player_id = ${playerId}::uuid
     ORDER BY family DESC, players`;
}
