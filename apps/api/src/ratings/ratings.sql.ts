import { z } from 'zod';
import { toJsonColumn } from '../common/json-column.js';
import type { CursorKey } from '../common/paging.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import type { FamilyValue } from '../games/index.js';
import { PlayerKindEnum } from '../players/models/player-kind.enum.js';

// The SQL of the ratings, each statement built by one exported function, so that the benchmark runs
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
export function leaderboardSql(q: { family: FamilyValue; players: number; minGames: number; after: LeaderboardKey | null; limit: number }) {
  const after = q.after
    ? Prisma.sql`AND r.ordinal <= ${q.after.ordinal}::float8
                 AND (r.ordinal < ${q.after.ordinal}::float8 OR r.player_id > ${q.after.playerId}::uuid)`
    : Prisma.empty;
  return sqlQuery(
    z.object({
      player_id: z.string(),
      name: z.string(),
      kind: z.enum(PlayerKindEnum),
      mu: z.number(),
      sigma: z.number(),
      ordinal: z.number(),
      games: z.number(),
      updated_at: z.date(),
    }),
    Prisma.sql`
    SELECT r.player_id::text AS player_id, p.name, p.kind::text AS kind, r.mu, r.sigma, r.ordinal, r.games, r.updated_at
      FROM ratings r JOIN players p ON p.id = r.player_id
     WHERE r.family = ${q.family}::varchar AND r.players = ${q.players}::smallint AND r.games >= ${q.minGames}::int ${after}
     ORDER BY r.ordinal DESC, r.player_id
     LIMIT ${q.limit}::int`,
  );
}

/** A player's rating changes, newest first: an index scan of rating_changes(player_id, created_at desc). */
export function ratingHistorySql(q: { playerId: string; family: FamilyValue | null; players: number | null; after: CursorKey | null; limit: number }) {
  return sqlQuery(
    z.object({
      game_id: z.string(),
      preset: z.string(),
      family: z.string(),
      players: z.number(),
      place: z.number(),
      mu_before: z.number(),
      sigma_before: z.number(),
      mu_after: z.number(),
      sigma_after: z.number(),
      created_at: z.date(),
    }),
    Prisma.sql`
    SELECT c.game_id::text AS game_id, g.preset, c.family, c.players, c.place,
           c.mu_before, c.sigma_before, c.mu_after, c.sigma_after, c.created_at
      FROM rating_changes c JOIN games g ON g.id = c.game_id
     WHERE c.player_id = ${q.playerId}::uuid
       ${q.family === null ? Prisma.empty : Prisma.sql`AND c.family = ${q.family}::varchar`}
       ${q.players === null ? Prisma.empty : Prisma.sql`AND c.players = ${q.players}::smallint`}
       ${q.after ? Prisma.sql`AND (c.created_at, c.game_id) < (${q.after.at}::timestamptz, ${q.after.id}::uuid)` : Prisma.empty}
     ORDER BY c.created_at DESC, c.game_id DESC
     LIMIT ${q.limit}::int`,
  );
}

/** A player's current ratings, every family and player count: the primary key's prefix. */
export function playerRatingsSql(playerId: string) {
  return sqlQuery(
    z.object({ family: z.string(), players: z.number(), mu: z.number(), sigma: z.number(), ordinal: z.number(), games: z.number(), updated_at: z.date() }),
    Prisma.sql`
    SELECT family, players, mu, sigma, ordinal, games, updated_at
      FROM ratings WHERE player_id = ${playerId}::uuid
     ORDER BY family DESC, players`,
  );
}

/**
 * Claims a game for rating if it is finished, rated, not imported and not rated yet: at most one
 * claim ever succeeds. Answers what the rating needs of it.
 */
export function claimGameSql(gameId: string) {
  return sqlQuery(
    z.object({ preset: z.string(), players: z.number(), totals: z.array(z.number()), end_seat: z.number().nullable() }),
    Prisma.sql`
      UPDATE games SET rated_at = now()
       WHERE id = ${gameId}::uuid AND rated AND rated_at IS NULL AND status = 'finished' AND imported_by IS NULL
      RETURNING preset, players, totals, end_seat`,
  );
}

/** A game's seats, in order, with their players and places. */
export function gameSeatsSql(gameId: string) {
  return sqlQuery(
    z.object({ seat: z.number(), player_id: z.string(), place: z.number().nullable() }),
    Prisma.sql`SELECT seat, player_id::text AS player_id, place FROM game_seats WHERE game_id = ${gameId}::uuid ORDER BY seat`,
  );
}

/** Inserts newcomers' rating rows at `fresh` skill, in player id order (see lockRatings). */
export function insertNewRatingsSql(family: FamilyValue, players: number, playerIds: readonly string[], fresh: { mu: number; sigma: number; ordinal: number }): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO ratings (player_id, family, players, mu, sigma, ordinal, games)
    SELECT id, ${family}::varchar, ${players}::smallint, ${fresh.mu}::float8, ${fresh.sigma}::float8, ${fresh.ordinal}::float8, 0
      FROM unnest(${playerIds}::uuid[]) AS id ORDER BY id
    ON CONFLICT (player_id, family, players) DO NOTHING`;
}

/** The players' rating rows, locked in player id order. */
export function lockRatingsSql(family: FamilyValue, players: number, playerIds: readonly string[]) {
  return sqlQuery(
    z.object({ player_id: z.string(), mu: z.number(), sigma: z.number() }),
    Prisma.sql`
      SELECT player_id::text AS player_id, mu, sigma FROM ratings
       WHERE player_id = ANY(${playerIds}::uuid[]) AND family = ${family}::varchar AND players = ${players}::smallint
       ORDER BY player_id FOR UPDATE`,
  );
}

/** One player's rating change in a game. */
export interface RatingChangeRow {
  player_id: string;
  place: number;
  mu_before: number;
  sigma_before: number;
  mu_after: number;
  sigma_after: number;
  ordinal: number;
}

/** The game's rating changes, one per player, and the players' ratings after them. */
export function rateGameSql(gameId: string, family: FamilyValue, players: number, changes: readonly RatingChangeRow[]): Prisma.Sql[] {
  const json = toJsonColumn(changes);
  return [
    Prisma.sql`
      INSERT INTO rating_changes (game_id, player_id, family, players, place, mu_before, sigma_before, mu_after, sigma_after)
      SELECT ${gameId}::uuid, v.player_id, ${family}::varchar, ${players}::smallint, v.place,
             v.mu_before, v.sigma_before, v.mu_after, v.sigma_after
        FROM json_to_recordset(${json}::json)
             AS v(player_id uuid, place smallint, mu_before float8, sigma_before float8, mu_after float8, sigma_after float8)`,
    Prisma.sql`
      UPDATE ratings r SET mu = v.mu_after, sigma = v.sigma_after, ordinal = v.ordinal, games = r.games + 1, updated_at = now()
        FROM json_to_recordset(${json}::json) AS v(player_id uuid, mu_after float8, sigma_after float8, ordinal float8)
       WHERE r.player_id = v.player_id AND r.family = ${family}::varchar AND r.players = ${players}::smallint`,
  ];
}
