import { z } from 'zod';
import { toJsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';

// The relay's SQL: outbox rows moved into the job queue (with the queue's own `add_jobs`). The
// move's write into the outbox is insertOutboxSql (outbox-entries.ts), a part of the game commit.

/**
 * One relay batch: deletes the oldest `batch` rows (SKIP LOCKED: two relays never take the same) and
 * adds one `task` job per consumer with entries among them, each with that consumer's entries in
 * commit order. `relayed`: the rows deleted.
 */
export function relayBatchSql(task: string, batch: number, consumers: readonly { consumer: string; type: string }[]) {
  // The queue's schema is a fixed name of ours, not a value: written into the text.
  const q = Prisma.raw(JOB_QUEUE_SCHEMA);
  return sqlQuery(
    z.object({ relayed: z.number(), jobs: z.number().nullable() }),
    Prisma.sql`WITH batch AS (
         DELETE FROM outbox WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
         RETURNING id, game_id, seq, entries),
       shares AS (
         SELECT c.consumer,
                json_agg(json_build_object('gameId', b.game_id, 'seq', b.seq, 'entries', mine.entries) ORDER BY b.id) AS jobs
           FROM batch b
          CROSS JOIN json_to_recordset(${toJsonColumn(consumers)}::json) AS c(consumer text, type text)
          CROSS JOIN LATERAL (SELECT jsonb_agg(e ORDER BY n) AS entries
                                FROM jsonb_array_elements(b.entries) WITH ORDINALITY AS x(e, n) WHERE e->>'type' = c.type) mine
          WHERE mine.entries IS NOT NULL
          GROUP BY c.consumer),
       specs AS (
         SELECT ARRAY(SELECT ROW(${task}::text, json_build_object('consumer', consumer, 'jobs', jobs), NULL, NULL, NULL, NULL, NULL, NULL)::${q}.job_spec
                        FROM shares ORDER BY consumer) AS specs),
       added AS (
         SELECT (SELECT count(*) FROM ${q}.add_jobs(specs)) AS jobs FROM specs WHERE cardinality(specs) > 0)
       SELECT (SELECT count(*) FROM batch)::int AS relayed, (SELECT jobs FROM added)::int AS jobs`,
  );
}
