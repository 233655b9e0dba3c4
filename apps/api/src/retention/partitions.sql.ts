import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

// The SQL of the feed's monthly partitions (docs/decisions/partitions.md). The DDL is text, not a
// statement with parameters (PostgreSQL takes none in DDL): every name and bound in it is made here
// from a Date, never from input.

/** The partitioned table, and the partition holding every row from before the partitioning. */
export const FEED_TABLE = 'player_events';
export const FEED_LEGACY_PARTITION = 'player_events_legacy';

/** Taken by whoever changes the feed's partitions, so two instances never race to make one. */
export const PARTITIONS_LOCK_KEY = 0x6d7a7061; // "mzpa"

/** A partition of the feed and its range of created_at; `from` is null for MINVALUE. */
export type FeedPartition = { name: string; from: Date | null; to: Date };

/** The feed's partitions, oldest first. */
export function feedPartitionsSql() {
  return sqlQuery(
    z.object({ name: z.string(), from: z.date().nullable(), to: z.date() }),
    Prisma.sql`
      SELECT name, (regexp_match(bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS "from",
             (regexp_match(bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS "to"
        FROM (SELECT c.relname::text AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
                FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
               WHERE h.inhparent = ${FEED_TABLE}::regclass) p
       ORDER BY "to"`,
  );
}

/** The name of the month starting at `month` (UTC): player_events_y2027m01. */
export function monthPartitionName(month: Date): string {
  return `${FEED_TABLE}_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Makes the month [from, to) a partition, with its unique (player_id, game_id, seq, type): the key
 * that makes feed writes idempotent is each partition's own (a partitioned table's unique keys
 * must hold its partition key).
 */
export function createMonthDdl(name: string, from: Date, to: Date): string[] {
  return [
    `CREATE TABLE "${name}" PARTITION OF "${FEED_TABLE}" FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
    `CREATE UNIQUE INDEX "${name}_player_id_game_id_seq_type_key" ON "${name}" ("player_id", "game_id", "seq", "type")`,
  ];
}

/**
 * Before a partition goes: raises each of its players' trim mark (player_feed_trims) to the newest
 * (tx, id) in it, as the row-by-row delete does (retention.sql.ts), so that a stream resuming
 * after one of its events is still answered; answers the rows it holds. A second run raises none.
 */
export function markPartitionSql(name: string) {
  const t = Prisma.raw(`"${name}"`);
  return sqlQuery(
    z.object({ n: z.number() }),
    Prisma.sql`
      WITH marks AS (
        INSERT INTO player_feed_trims AS t (player_id, tx, id, trimmed_at)
        SELECT DISTINCT ON (player_id) player_id, tx, id, now() FROM ${t} ORDER BY player_id, tx DESC, id DESC
        ON CONFLICT (player_id) DO UPDATE SET tx = excluded.tx, id = excluded.id, trimmed_at = excluded.trimmed_at
         WHERE (excluded.tx, excluded.id) > (t.tx, t.id))
      SELECT count(*)::int AS n FROM ${t}`,
  );
}

/** Takes the partition out of the feed: a catalog change, however many rows it holds. */
export function detachPartitionDdl(name: string): string {
  return `ALTER TABLE "${FEED_TABLE}" DETACH PARTITION "${name}"`;
}

/**
 * Drops a month once detached, in a transaction of its own: unlinking its files takes seconds for
 * gigabytes, and the detach's lock on the feed must not wait for that.
 */
export function dropDetachedDdl(name: string): string {
  return `DROP TABLE IF EXISTS "${name}"`;
}

/**
 * Months detached but not yet dropped (a run stopped between the two): tables named as the feed's
 * partitions that are no partition of it. Their trim marks were raised before their detach.
 */
export function detachedMonthsSql() {
  return sqlQuery(
    z.object({ name: z.string() }),
    Prisma.sql`
      SELECT c.relname::text AS name FROM pg_class c
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
         AND (c.relname ~ ${`^${FEED_TABLE}_y[0-9]{4}m[0-9]{2}$`} OR c.relname = ${FEED_LEGACY_PARTITION})
       ORDER BY 1`,
  );
}
