import { badInput } from '../common/errors.js';
import { Prisma } from '../generated/prisma/client.js';
import type { FeedEventType, NewFeedEvent } from './feed-events.js';

/**
 * A place in a player's feed: the (transaction id, row id) of the last event read. Events are
 * read in that order and only below the oldest transaction still running, so an event whose
 * transaction commits after a later one's is not skipped: every transaction below the horizon has
 * ended, and whatever commits afterwards sorts after everything already read. Clients see it as
 * an opaque id such as `7312-1045` (SSE's `Last-Event-ID`, `myEvents(after:)`).
 */
export interface FeedCursor {
  tx: bigint;
  id: bigint;
}

export const FEED_START: FeedCursor = { tx: 0n, id: 0n };

export function feedEventId(cursor: FeedCursor): string {
  return `${cursor.tx}-${cursor.id}`;
}

/** Parses a client's event id; `field` names where it came from for the BAD_INPUT. */
export function parseFeedEventId(value: string, field: string): FeedCursor {
  const match = /^(\d{1,20})-(\d{1,19})$/.exec(value.trim());
  if (!match) throw badInput(`${field} must be an event id as given with an event, such as 7312-1045`, { field });
  const cursor = { tx: BigInt(match[1]), id: BigInt(match[2]) };
  if (cursor.tx >= 2n ** 64n || cursor.id >= 2n ** 63n) throw badInput(`${field} is out of range`, { field });
  return cursor;
}

/**
 * Whether `cursor` names an event of `playerId`'s feed that a read could have handed out (below
 * the horizon): only such an id was ever issued to that player. One index probe (the row id is
 * the primary key). Feeds are never trimmed today (rows go only with their player); if
 * they ever are, an id trimmed away must still be taken here, e.g. by a per-player low mark.
 */
export async function feedEventIssued(db: Pick<Prisma.TransactionClient, '$queryRaw'>, playerId: string, cursor: FeedCursor): Promise<boolean> {
  const rows = await db.$queryRaw<{ issued: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM player_events
       WHERE player_id = ${playerId}::uuid
         AND tx = ${cursor.tx.toString()}::xid8
         AND id = ${cursor.id}::bigint
         AND tx < pg_snapshot_xmin(pg_current_snapshot())) AS issued`;
  return rows[0]?.issued === true;
}

export interface FeedEvent {
  id: string;
  cursor: FeedCursor;
  type: FeedEventType;
  gameId: string | null;
  lobbyId: string | null;
  seq: number | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** The events of `playerId` after `after` that are safe to hand out, oldest first. */
export async function readFeed(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  playerId: string,
  after: FeedCursor,
  limit: number,
): Promise<FeedEvent[]> {
  const rows = await db.$queryRaw<
    {
      id: bigint;
      tx: string;
      type: FeedEventType;
      game_id: string | null;
      lobby_id: string | null;
      seq: number | null;
      payload: unknown;
      created_at: Date;
    }[]
  >`
    SELECT id, tx::text AS tx, type, game_id, lobby_id, seq, payload, created_at
      FROM player_events
     WHERE player_id = ${playerId}::uuid
       AND (tx, id) > (${after.tx.toString()}::xid8, ${after.id}::bigint)
       AND tx < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY tx, id
     LIMIT ${limit}::int`;
  return rows.map((r) => {
    const cursor = { tx: BigInt(r.tx), id: BigInt(r.id) };
    return {
      id: feedEventId(cursor),
      cursor,
      type: r.type,
      gameId: r.game_id,
      lobbyId: r.lobby_id,
      seq: r.seq,
      payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
      createdAt: r.created_at,
    };
  });
}

/**
 * Adds events to players' feeds, as a statement or, given `from`, as part of a data-modifying CTE
 * that selects from `from` (the move's guarded UPDATE), so a write that lost its race adds none.
 * A game's event is unique per (player, game, seq, type): adding it again does nothing.
 */
export function insertFeedSql(events: readonly NewFeedEvent[], from?: Prisma.Sql): Prisma.Sql {
  const rows = JSON.stringify(events);
  return Prisma.sql`INSERT INTO player_events (player_id, type, game_id, lobby_id, seq, payload)
    SELECT r."playerId", r.type, r."gameId", r."lobbyId", r.seq, r.payload
      FROM jsonb_to_recordset(${rows}::jsonb)
           AS r("playerId" uuid, type varchar, "gameId" uuid, "lobbyId" uuid, seq int, payload jsonb)
           ${from ? Prisma.sql`, ${from}` : Prisma.empty}
    ON CONFLICT (player_id, game_id, seq, type) DO NOTHING`;
}
