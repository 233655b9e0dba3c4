import { z } from 'zod';
import { jsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { PlayerKindEnum } from '../players/models/player-kind.enum.js';

// The SQL of profiles, statistics and head-to-head, each built by one exported function, so that
// the benchmark runs EXPLAIN (ANALYZE, BUFFERS) on exactly what the server runs. The records and
// statistics read the player's aggregates (player_stats: a handful of rows, kept by
// player-stats.sql.ts as each game finishes); the other queries start from one player's seats
// (game_seats by player_id), so they read that player's games, never all games. Imported games are archives, not games played
// here: a profile leaves them out, so that nobody can write someone else's record.

/** A game of the player's that counts for their record: played here, to its end. */
const COUNTS = Prisma.sql`g.status = 'finished' AND g.imported_by IS NULL`;

/**
 * The player's seats, read first and on their own (MATERIALIZED), so that every plan starts from
 * this player's few hundred seats and reaches each game by its key, whatever the statistics say.
 */
function seatsOf(playerId: string): Prisma.Sql {
  return Prisma.sql`mine AS MATERIALIZED (SELECT game_id, seat, place FROM game_seats WHERE player_id = ${playerId}::uuid)`;
}

/**
 * The player by name (names are unique regardless of case), and when they were last active: their
 * latest token use, game finished (player_stats) or game created (its seat is the newest by
 * game_seats(player_id, created_at desc, game_id desc); a game finishes after it was created).
 */
export function profileSql(nameKey: string) {
  return sqlQuery(
    z.object({ id: z.string(), name: z.string(), kind: z.enum(PlayerKindEnum), bot_level: z.string().nullable(), created_at: z.date(), last_active_at: z.date() }),
    Prisma.sql`
    SELECT p.id::text AS id, p.name, p.kind::text AS kind, p.bot_level, p.created_at,
           greatest(p.created_at,
                    (SELECT max(t.last_used_at) FROM api_tokens t WHERE t.player_id = p.id),
                    (SELECT max(a.last_finished_at) FROM player_stats a WHERE a.player_id = p.id AND a.kind = 'preset'),
                    (SELECT g.created_at FROM game_seats s CROSS JOIN LATERAL (SELECT * FROM games WHERE games.id = s.game_id OFFSET 0) g
                      WHERE s.player_id = p.id AND g.imported_by IS NULL
                      ORDER BY s.created_at DESC, s.game_id DESC LIMIT 1)) AS last_active_at
      FROM players p WHERE p.name_key = ${nameKey}::varchar`,
  );
}

/** A mean of `sum` over `n` as avg() gives it (numeric division, then float8); null for n = 0. */
function mean(sum: string, n: string): Prisma.Sql {
  return Prisma.raw(`CASE WHEN ${n} > 0 THEN (${sum}::numeric / ${n})::float8 END`);
}

/**
 * Per preset: finished games, wins, mean place, and the player's deal scores (the deals they took
 * part in: a bidding-4 dealer's sit-out has no tricks for that seat), from the player's aggregates
 * (player_stats, kind 'preset'; player-stats.sql.ts adds each finished game once).
 */
export function presetRecordsSql(playerId: string) {
  return sqlQuery(
    z.object({ preset: z.string(), games: z.number(), wins: z.number(), average_place: z.number(), deals: z.number(), score: z.number() }),
    Prisma.sql`
    SELECT preset, games, wins, ${mean('place_sum', 'placed')} AS average_place, deals, score_sum AS score
      FROM player_stats WHERE player_id = ${playerId}::uuid AND kind = 'preset' AND games > 0`,
  );
}

/**
 * The player's latest games, newest first, each with its table (no cards: nothing hidden). Their
 * seats are walked newest first by game_seats(player_id, created_at desc, game_id desc) (a seat's
 * created_at is its game's), each game by its key, so this reads about `limit` seats, not all.
 */
export function recentGamesSql(playerId: string, limit: number) {
  return sqlQuery(
    z.object({
      id: z.string(),
      preset: z.string(),
      players: z.number(),
      status: z.string(),
      rated: z.boolean(),
      seat: z.number(),
      end_seat: z.number().nullable(),
      end_reason: z.string().nullable(),
      created_at: z.date(),
      finished_at: z.date().nullable(),
      seats: jsonColumn(
        z.array(z.object({ seat: z.number(), playerId: z.string(), name: z.string(), kind: z.enum(PlayerKindEnum), total: z.number(), place: z.number().nullable() })),
      ),
    }),
    Prisma.sql`
    SELECT g.id::text AS id, g.preset, g.players, g.status::text AS status, g.rated, s.seat, g.end_seat, g.end_reason,
           g.created_at, g.finished_at,
           (SELECT json_agg(json_build_object('seat', o.seat, 'playerId', o.player_id, 'name', p.name, 'kind', p.kind,
                                              'total', g.totals[o.seat + 1], 'place', o.place) ORDER BY o.seat)
              FROM game_seats o JOIN players p ON p.id = o.player_id WHERE o.game_id = g.id) AS seats
      FROM game_seats s CROSS JOIN LATERAL (SELECT * FROM games WHERE games.id = s.game_id OFFSET 0) g
     WHERE s.player_id = ${playerId}::uuid AND g.imported_by IS NULL
     ORDER BY s.created_at DESC, s.game_id DESC
     LIMIT ${limit}::int`,
  );
}

/** The player's finished games of `preset` (player_stats). */
export function gamesOfPresetSql(playerId: string, preset: string) {
  return sqlQuery(
    z.object({ games: z.number() }),
    Prisma.sql`
    SELECT coalesce((SELECT games FROM player_stats
                      WHERE player_id = ${playerId}::uuid AND preset = ${preset}::varchar AND kind = 'preset' AND key = ''), 0)::int AS games`,
  );
}

/**
 * Contract family, per contract: the deals the player played, how often they met their quota
 * (a score of 0 or more: `tricks - quota` for a suit or notrumps, `quota - tricks` for mizerka),
 * their mean score; the same for the deals where they were the chooser (the dealer's left).
 */
export function contractStatsSql(playerId: string, preset: string) {
  return sqlQuery(
    z.object({
      contract: z.string(),
      deals: z.number(),
      quota_met: z.number(),
      quota_exact: z.number(),
      average_score: z.number().nullable(),
      chosen: z.number(),
      chosen_quota_met: z.number(),
      chosen_average_score: z.number().nullable(),
    }),
    Prisma.sql`
    SELECT key AS contract, deals, met AS quota_met, exact AS quota_exact, ${mean('score_sum', 'deals')} AS average_score,
           chosen, chosen_met AS chosen_quota_met, ${mean('chosen_score_sum', 'chosen')} AS chosen_average_score
      FROM player_stats WHERE player_id = ${playerId}::uuid AND preset = ${preset}::varchar AND kind = 'contract'`,
  );
}

/**
 * Bidding family, per bid and side (declarer or defender): the deals, how often the declarer made
 * the bid (a declarer's score of 0 or more) or failed it, and the player's own mean score. Only
 * deals the player took part in (a sitting-out dealer has no tricks).
 */
export function biddingStatsSql(playerId: string, preset: string) {
  return sqlQuery(
    z.object({ bid: z.string(), declarer: z.boolean(), deals: z.number(), made: z.number(), failed: z.number(), average_score: z.number().nullable() }),
    Prisma.sql`
    SELECT key AS bid, kind = 'declarer' AS declarer, deals, met AS made, failed, ${mean('score_sum', 'deals')} AS average_score
      FROM player_stats WHERE player_id = ${playerId}::uuid AND preset = ${preset}::varchar AND kind IN ('declarer', 'defender')`,
  );
}

/** Two players' finished games together, per preset: who placed higher, how often they tied. */
export function headToHeadSql(playerId: string, otherId: string) {
  return sqlQuery(
    z.object({ preset: z.string(), games: z.number(), higher: z.number(), lower: z.number(), ties: z.number(), last_played_at: z.date().nullable() }),
    Prisma.sql`
    WITH ${seatsOf(playerId)}
    SELECT g.preset, count(*)::int AS games,
           count(*) FILTER (WHERE a.place < b.place)::int AS higher,
           count(*) FILTER (WHERE a.place > b.place)::int AS lower,
           count(*) FILTER (WHERE a.place = b.place)::int AS ties,
           max(g.finished_at) AS last_played_at
      FROM mine a
      JOIN game_seats b ON b.game_id = a.game_id AND b.player_id = ${otherId}::uuid
      JOIN games g ON g.id = a.game_id
     WHERE ${COUNTS}
     GROUP BY g.preset`,
  );
}
