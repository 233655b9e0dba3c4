import { z } from 'zod';
import { jsonColumn, toJsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { FEED_EVENT_TYPES, type NewFeedEvent } from './feed-events.js';

// The SQL of the players' feeds. An event is handed out only once its transaction is below the
// horizon (the oldest transaction still running): see FeedCursor.

/** A place in a feed (FeedCursor in feed.ts, which runs these statements). */
interface FeedPlace {
  tx: bigint;
  id: bigint;
}

/**
 * Whether `cursor` names an event of the player's feed below the horizon, or one at or below the
 * newest the retention job deleted from it (player_feed_trims): reading after it then starts at
 * the oldest event kept. Two index probes.
 */
export function feedEventIssuedSql(playerId: string, cursor: FeedPlace) {
  return sqlQuery(
    z.object({ issued: z.boolean() }),
    Prisma.sql`
      SELECT EXISTS (
        SELECT 1 FROM player_events
         WHERE player_id = ${playerId}::uuid
           AND tx = ${cursor.tx.toString()}::xid8
           AND id = ${cursor.id}::bigint
           AND tx < pg_snapshot_xmin(pg_current_snapshot()))
        OR EXISTS (
        SELECT 1 FROM player_feed_trims
         WHERE player_id = ${playerId}::uuid
           AND (${cursor.tx.toString()}::xid8, ${cursor.id}::bigint) <= (tx, id)
           AND ${cursor.id}::bigint > 0) AS issued`,
  );
}

/** The player's events after `after` and below the horizon, oldest first, at most `limit`. */
export function readFeedSql(playerId: string, after: FeedPlace, limit: number) {
  return sqlQuery(
    z.object({
      id: z.bigint(),
      tx: z.string(),
      type: z.enum(FEED_EVENT_TYPES),
      game_id: z.string().nullable(),
      lobby_id: z.string().nullable(),
      seq: z.number().nullable(),
      payload: jsonColumn(z.record(z.string(), z.unknown())),
      created_at: z.date(),
    }),
    // e.tx, not tx: a bare name in ORDER BY is the output column, here its text.
    Prisma.sql`
      SELECT e.id, e.tx::text AS tx, e.type, e.game_id, e.lobby_id, e.seq, e.payload, e.created_at
        FROM player_events e
       WHERE e.player_id = ${playerId}::uuid
         AND (e.tx, e.id) > (${after.tx.toString()}::xid8, ${after.id}::bigint)
         AND e.tx < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.tx, e.id
       LIMIT ${limit}::int`,
  );
}

/**
 * The player's newest event: committed or not, or with `readable` the newest a read can see now
 * (below the horizon).
 */
export function feedTailSql(playerId: string, readable: boolean) {
  return sqlQuery(
    z.object({ tx: z.string(), id: z.bigint() }),
    Prisma.sql`
      SELECT e.tx::text AS tx, e.id FROM player_events e
       WHERE e.player_id = ${playerId}::uuid
         ${readable ? Prisma.sql`AND e.tx < pg_snapshot_xmin(pg_current_snapshot())` : Prisma.empty}
       ORDER BY e.tx DESC, e.id DESC
       LIMIT 1`,
  );
}

/**
 * Adds events to players' feeds, as a statement or, given `from`, as part of a data-modifying CTE
 * that selects from `from` (the move's guarded UPDATE), so a write that lost its race adds none.
 * A game's event is unique per (player, game, seq, type): adding it again does nothing. That key
 * is each monthly partition's own unique index (docs/decisions/partitions.md), so the conflict
 * names no columns: a partitioned table has no unique index on them to name.
 */
export function insertFeedSql(events: readonly NewFeedEvent[], from?: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`INSERT INTO player_events (player_id, type, game_id, lobby_id, seq, payload)
    SELECT r."playerId", r.type, r."gameId", r."lobbyId", r.seq, r.payload
      FROM jsonb_to_recordset(${toJsonColumn(events)}::jsonb)
           AS r("playerId" uuid, type varchar, "gameId" uuid, "lobbyId" uuid, seq int, payload jsonb)
           ${from ? Prisma.sql`, ${from}` : Prisma.empty}
    ON CONFLICT DO NOTHING`;
}
