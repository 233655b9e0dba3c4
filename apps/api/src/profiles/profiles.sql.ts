import { Prisma } from '../generated/prisma/client.js';

// The SQL of profiles, statistics and head-to-head, each built by one exported function, so that
// the benchmark runs EXPLAIN (ANALYZE, BUFFERS) on exactly what the server runs. Every query
// starts from one player's seats (the index game_seats(player_id, game_id)), so it reads that
// player's games and their deals, never all games. Imported games are archives, not games played
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

/** The player by name (names are unique regardless of case), and when they were last active. */
export function profileSql(nameKey: string): Prisma.Sql {
  return Prisma.sql`
    SELECT p.id::text AS id, p.name, p.kind::text AS kind, p.bot_level, p.created_at,
           greatest(p.created_at,
                    (SELECT max(t.last_used_at) FROM api_tokens t WHERE t.player_id = p.id),
                    (SELECT max(coalesce(g.finished_at, g.created_at))
                       FROM (SELECT s.game_id FROM game_seats s WHERE s.player_id = p.id OFFSET 0) s JOIN games g ON g.id = s.game_id
                      WHERE g.imported_by IS NULL)) AS last_active_at
      FROM players p WHERE p.name_key = ${nameKey}::varchar`;
}

/**
 * Per preset: finished games, wins, mean place, and the player's deal scores (the deals they took
 * part in: a bidding-4 dealer's sit-out has no tricks for that seat).
 */
export function presetRecordsSql(playerId: string): Prisma.Sql {
  return Prisma.sql`
    WITH ${seatsOf(playerId)}
    SELECT g.preset, count(*)::int AS games, count(*) FILTER (WHERE s.place = 1)::int AS wins,
           avg(s.place)::float8 AS average_place, coalesce(sum(d.deals), 0)::int AS deals, coalesce(sum(d.score), 0)::int AS score
      FROM mine s JOIN games g ON g.id = s.game_id
      CROSS JOIN LATERAL (
        SELECT count(*) AS deals, sum((x.scores ->> s.seat::int)::int) AS score
          FROM deals x
         WHERE x.game_id = g.id AND x.scores IS NOT NULL AND x.tricks ->> s.seat::int IS NOT NULL) d
     WHERE ${COUNTS}
     GROUP BY g.preset`;
}

/** The player's latest games, newest first, each with its table (no cards: nothing hidden). */
export function recentGamesSql(playerId: string, limit: number): Prisma.Sql {
  return Prisma.sql`
    WITH ${seatsOf(playerId)}
    SELECT g.id::text AS id, g.preset, g.players, g.status::text AS status, g.rated, s.seat, g.end_seat, g.end_reason,
           g.created_at, g.finished_at,
           (SELECT json_agg(json_build_object('seat', o.seat, 'playerId', o.player_id, 'name', p.name, 'kind', p.kind,
                                              'total', g.totals[o.seat + 1], 'place', o.place) ORDER BY o.seat)
              FROM game_seats o JOIN players p ON p.id = o.player_id WHERE o.game_id = g.id) AS seats
      FROM mine s JOIN games g ON g.id = s.game_id
     WHERE g.imported_by IS NULL
     ORDER BY g.created_at DESC, g.id DESC
     LIMIT ${limit}::int`;
}

/** The player's finished games of `preset`. */
export function gamesOfPresetSql(playerId: string, preset: string): Prisma.Sql {
  return Prisma.sql`
    WITH ${seatsOf(playerId)}
    SELECT count(*)::int AS games FROM mine s JOIN games g ON g.id = s.game_id
     WHERE g.preset = ${preset}::varchar AND ${COUNTS}`;
}

/**
 * Contract family, per contract: the deals the player played, how often they met their quota
 * (a score of 0 or more: `tricks - quota` for a suit or notrumps, `quota - tricks` for mizerka),
 * their mean score; the same for the deals where they were the chooser (the dealer's left).
 */
export function contractStatsSql(playerId: string, preset: string): Prisma.Sql {
  return Prisma.sql`
    WITH ${seatsOf(playerId)}
    SELECT d.contract, count(*)::int AS deals,
           count(*) FILTER (WHERE x.score >= 0)::int AS quota_met,
           count(*) FILTER (WHERE x.score = 0)::int AS quota_exact,
           avg(x.score)::float8 AS average_score,
           count(*) FILTER (WHERE x.chooser)::int AS chosen,
           count(*) FILTER (WHERE x.chooser AND x.score >= 0)::int AS chosen_quota_met,
           (avg(x.score) FILTER (WHERE x.chooser))::float8 AS chosen_average_score
      FROM mine s JOIN games g ON g.id = s.game_id
      JOIN deals d ON d.game_id = g.id
      CROSS JOIN LATERAL (SELECT (d.scores ->> s.seat::int)::int AS score, (d.dealer + 1) % g.players = s.seat AS chooser) x
     WHERE g.preset = ${preset}::varchar AND ${COUNTS}
       AND d.scores IS NOT NULL AND d.contract IS NOT NULL
     GROUP BY d.contract`;
}

/**
 * Bidding family, per bid and side (declarer or defender): the deals, how often the declarer made
 * the bid (a declarer's score of 0 or more) or failed it, and the player's own mean score. Only
 * deals the player took part in (a sitting-out dealer has no tricks).
 */
export function biddingStatsSql(playerId: string, preset: string): Prisma.Sql {
  return Prisma.sql`
    WITH ${seatsOf(playerId)}
    SELECT d.bid, d.declarer = s.seat AS declarer, count(*)::int AS deals,
           count(*) FILTER (WHERE x.declarer_score >= 0)::int AS made,
           count(*) FILTER (WHERE x.declarer_score < 0)::int AS failed,
           avg(x.score)::float8 AS average_score
      FROM mine s JOIN games g ON g.id = s.game_id
      JOIN deals d ON d.game_id = g.id
      CROSS JOIN LATERAL (SELECT (d.scores ->> s.seat::int)::int AS score, (d.scores ->> d.declarer::int)::int AS declarer_score) x
     WHERE g.preset = ${preset}::varchar AND ${COUNTS}
       AND d.scores IS NOT NULL AND d.bid IS NOT NULL AND d.declarer IS NOT NULL AND d.tricks ->> s.seat::int IS NOT NULL
     GROUP BY d.bid, d.declarer = s.seat`;
}

/** Two players' finished games together, per preset: who placed higher, how often they tied. */
export function headToHeadSql(playerId: string, otherId: string): Prisma.Sql {
  return Prisma.sql`
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
     GROUP BY g.preset`;
}
