import { z } from 'zod';
import { parseRows, sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The per-player aggregates behind profiles and statistics (player_stats, see prisma/schema.prisma).
// One definition of what a finished game adds, statsIncrementsSql, serves the outbox consumer, the
// backfill of a whole database (db:backfill-stats, db:seed) and the tests' recomputation; it reads
// the game's seats and deals as the profile queries did before the aggregates.

/** The counters of a player_stats row, in column order. */
export const STAT_COLUMNS = [
  'games', 'wins', 'placed', 'place_sum', 'deals', 'score_sum', 'met', 'exact', 'failed', 'chosen', 'chosen_met', 'chosen_score_sum',
] as const;

const counters = Prisma.raw(STAT_COLUMNS.join(', '));
const summed = Prisma.raw(STAT_COLUMNS.map((c) => `coalesce(sum(${c}), 0)::int AS ${c}`).join(', '));
const added = Prisma.raw(STAT_COLUMNS.map((c) => `${c} = player_stats.${c} + excluded.${c}`).join(', '));

/**
 * What the games of `games` (a relation of id, preset, players, finished_at: finished games played
 * here) add to their players' rows, one row per (player_id, preset, kind, key), in key order:
 *  - kind 'preset', key '': games, wins (place 1), placed and place_sum (the mean place), deals and
 *    score_sum over the deals the player took part in (scored, with tricks for their seat: a
 *    bidding-4 dealer sits out), last_finished_at;
 *  - kind 'contract', key the contract: the scored deals, met (score ≥ 0: the quota met), exact
 *    (score 0), score_sum, and chosen, chosen_met, chosen_score_sum where the player was the
 *    chooser (the dealer's left);
 *  - kind 'declarer' or 'defender', key the bid: the scored deals the player took part in, met (the
 *    declarer's score ≥ 0: made) or failed, and the player's own score_sum.
 */
export function statsIncrementsSql(games: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH mine AS MATERIALIZED (
      SELECT s.player_id, s.seat, s.place, g.id AS game_id, g.preset, g.players, g.finished_at
        FROM ${games} g JOIN game_seats s ON s.game_id = g.id),
    dealt AS MATERIALIZED (
      SELECT m.player_id, m.preset, m.seat, d.contract, d.bid, d.declarer,
             d.tricks ->> m.seat::int IS NOT NULL AS played,
             (d.scores ->> m.seat::int)::int AS score,
             (d.scores ->> d.declarer::int)::int AS declarer_score,
             (d.dealer + 1) % m.players = m.seat AS chooser
        FROM mine m JOIN deals d ON d.game_id = m.game_id
       WHERE d.scores IS NOT NULL),
    parts (player_id, preset, kind, key, ${counters}, last_finished_at) AS (
      SELECT player_id, preset, 'preset', '', count(*), count(*) FILTER (WHERE place = 1), count(place), sum(place),
             0, 0, 0, 0, 0, 0, 0, 0, max(finished_at)
        FROM mine GROUP BY 1, 2
      UNION ALL
      SELECT player_id, preset, 'preset', '', 0, 0, 0, 0, count(*), sum(score), 0, 0, 0, 0, 0, 0, NULL
        FROM dealt WHERE played GROUP BY 1, 2
      UNION ALL
      SELECT player_id, preset, 'contract', contract, 0, 0, 0, 0, count(*), sum(score),
             count(*) FILTER (WHERE score >= 0), count(*) FILTER (WHERE score = 0), 0,
             count(*) FILTER (WHERE chooser), count(*) FILTER (WHERE chooser AND score >= 0), sum(score) FILTER (WHERE chooser), NULL
        FROM dealt WHERE contract IS NOT NULL GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT player_id, preset, CASE WHEN declarer = seat THEN 'declarer' ELSE 'defender' END, bid, 0, 0, 0, 0, count(*), sum(score),
             count(*) FILTER (WHERE declarer_score >= 0), 0, count(*) FILTER (WHERE declarer_score < 0), 0, 0, 0, NULL
        FROM dealt WHERE bid IS NOT NULL AND declarer IS NOT NULL AND played GROUP BY 1, 2, 3, 4)
    SELECT player_id, preset::varchar(32) AS preset, kind::varchar(16) AS kind, key::varchar(16) AS key, ${summed},
           max(last_finished_at) AS last_finished_at
      FROM parts GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
}

/** What one addStatsSql statement added: games, the last game's id (null: none), player_stats rows. */
const ADDED_STATS = z.object({ games: z.number(), last: z.string().nullable(), rows: z.number() });
export type AddedStats = z.output<typeof ADDED_STATS>;

/**
 * Claims the finished, not imported games among `pick` (a query of game ids) whose figures are not
 * added yet (stats_at from null to now) and adds their increments to player_stats, in one
 * statement: a game is added exactly once. A second claimant of the same game waits for the
 * first's row lock, then finds stats_at set and adds nothing. Every game of a statement is locked
 * (the claim) before any player_stats row (the increments are grouped first), and the rows are
 * upserted in key order, so two statements sharing players queue instead of deadlocking.
 * Answers the games claimed and the greatest id among them (the backfill's cursor).
 */
export function addStatsSql(pick: Prisma.Sql) {
  return sqlQuery(
    ADDED_STATS,
    Prisma.sql`
    WITH claimed AS (
      UPDATE games SET stats_at = now()
       WHERE id IN (${pick}) AND stats_at IS NULL AND status = 'finished' AND imported_by IS NULL
      RETURNING id, preset, players, finished_at),
    upserted AS (
      INSERT INTO player_stats (player_id, preset, kind, key, ${counters}, last_finished_at)
      SELECT * FROM (${statsIncrementsSql(Prisma.sql`claimed`)}) increments ORDER BY player_id, preset, kind, key
      ON CONFLICT (player_id, preset, kind, key) DO UPDATE SET ${added},
         last_finished_at = greatest(player_stats.last_finished_at, excluded.last_finished_at)
      RETURNING 1)
    SELECT (SELECT count(*)::int FROM claimed) AS games, (SELECT id::text FROM claimed ORDER BY id DESC LIMIT 1) AS last,
           (SELECT count(*)::int FROM upserted) AS rows`,
  );
}

/** One game, as the outbox consumer adds it. */
export function addGameStatsSql(gameId: string) {
  return addStatsSql(Prisma.sql`SELECT ${gameId}::uuid`);
}

/**
 * The next `limit` games after `after` (by id) whose figures are not added yet, locked in id order,
 * as the backfill adds them: resumable (a claimed game is skipped) and safe beside the consumer.
 */
export function addStatsBatchSql(after: string, limit: number) {
  return addStatsSql(Prisma.sql`
    SELECT id FROM games
     WHERE id > ${after}::uuid AND stats_at IS NULL AND status = 'finished' AND imported_by IS NULL
     ORDER BY id LIMIT ${limit}::int FOR UPDATE`);
}

/** Runs a statement and answers its rows (Prisma's $queryRaw, or pg / Postgres.js with sql.text and sql.values). */
export type RunSql = <T>(sql: Prisma.Sql) => Promise<T[]>;

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Adds the figures of every finished game not added yet, `batch` games per statement, in id order;
 * `progress` after each batch. Stopped and run again, it carries on: claimed games are skipped.
 */
export async function backfillPlayerStats(
  run: RunSql,
  options: { batch?: number; progress?: (done: { games: number; rows: number }) => void } = {},
): Promise<{ games: number; rows: number }> {
  const batch = options.batch ?? 1000;
  let after = FIRST_ID;
  let games = 0;
  let rows = 0;
  for (;;) {
    const query = addStatsBatchSql(after, batch);
    const [r] = parseRows(query, await run(query));
    if (r.games === 0 || r.last === null) return { games, rows };
    games += r.games;
    rows += r.rows;
    after = r.last;
    options.progress?.({ games, rows });
  }
}
