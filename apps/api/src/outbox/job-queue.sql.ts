import { toJsonColumn } from '../common/json-column.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';

/** A game's job of one purpose: due at `runAt`, keyed `key` (one per game and purpose). */
export interface GameJob {
  task: string;
  key: string;
  payload: object;
  runAt: Date;
}

// Our SQL around the job queue (graphile-worker), through its public surface only: its `add_jobs`,
// `remove_job` and `force_unlock_workers` functions and its `jobs` view; and our own `job_pools`.
// The queue's schema is a fixed name of ours, not a value: written into the text with Prisma.raw.
const q = Prisma.raw(JOB_QUEUE_SCHEMA);

/** Takes the transaction's advisory locks of `lock` on these games (JobQueue.keepPerGame), in their order. */
export function lockGamesSql(gameIds: readonly string[], lock: string): Prisma.Sql {
  return Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${lock} || ':' || id, 0)) FROM unnest(${gameIds}::uuid[]) AS id`;
}

/** Sets these keyed jobs: add_jobs replaces a pending job of the same key (run_at included), with one NOTIFY for all. */
export function setGameJobsSql(jobs: readonly GameJob[]): Prisma.Sql {
  const specs = jobs.map((j) => ({ task: j.task, payload: j.payload, run_at: j.runAt.toISOString(), key: j.key }));
  return Prisma.sql`SELECT count(*) FROM ${q}.add_jobs(ARRAY(
             SELECT ROW(s.task, s.payload, NULL, s.run_at, NULL, s.key, NULL, NULL)::${q}.job_spec
               FROM json_to_recordset(${toJsonColumn(specs)}::json) AS s(task text, payload json, run_at timestamptz, key text)), false)`;
}

/** Removes the jobs of these keys. */
export function removeJobsSql(keys: readonly string[]): Prisma.Sql {
  return Prisma.sql`SELECT ${q}.remove_job(k) FROM unnest(${keys}::text[]) AS k`;
}

/**
 * Says that this instance's worker pools `poolIds` are alive, forgets pools not seen for a day, and
 * unlocks the jobs of pools that have not said so for `deadAfterMs` (their instance was killed).
 */
export function keepPoolsAliveSql(poolIds: readonly string[], deadAfterMs: number): Prisma.Sql {
  return Prisma.sql`WITH seen AS (
           INSERT INTO job_pools (pool_id, seen_at) SELECT unnest(${poolIds}::text[]), now()
           ON CONFLICT (pool_id) DO UPDATE SET seen_at = now()),
         gone AS (DELETE FROM job_pools WHERE seen_at < now() - interval '1 day'),
         dead AS (
           SELECT DISTINCT j.locked_by FROM ${q}.jobs j
            WHERE j.locked_by IS NOT NULL AND j.locked_by <> ALL(${poolIds}::text[])
              AND j.locked_at < now() - make_interval(secs => ${deadAfterMs}::float8 / 1000)
              AND NOT EXISTS (SELECT 1 FROM job_pools p
                               WHERE p.pool_id = j.locked_by AND p.seen_at > now() - make_interval(secs => ${deadAfterMs}::float8 / 1000)))
         SELECT ${q}.force_unlock_workers(array_agg(locked_by)) FROM dead HAVING count(*) > 0`;
}

/** Forgets this instance's worker pools, as it stops. */
export function forgetPoolsSql(poolIds: readonly string[]): Prisma.Sql {
  return Prisma.sql`DELETE FROM job_pools WHERE pool_id = ANY(${poolIds}::text[])`;
}
