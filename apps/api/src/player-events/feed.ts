import { badInput } from '../common/errors.js';
import { queryRows, type RowReader } from '../common/sql-query.js';
import type { FeedEventType } from './feed-events.js';
import { feedEventIssuedSql, feedTailSql, readFeedSql } from './feed.sql.js';

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
 * the horizon): only such an id was ever issued to that player. The retention job deletes old
 * events (FEED_RETENTION_SECONDS) and keeps, per player, the newest it deleted: an id at or below
 * that mark is taken too, and reading after it resumes from the oldest event kept.
 */
export async function feedEventIssued(db: RowReader, playerId: string, cursor: FeedCursor): Promise<boolean> {
  const rows = await queryRows(db, feedEventIssuedSql(playerId, cursor));
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
export async function readFeed(db: RowReader, playerId: string, after: FeedCursor, limit: number): Promise<FeedEvent[]> {
  const rows = await queryRows(db, readFeedSql(playerId, after, limit));
  return rows.map((r) => {
    const cursor = { tx: BigInt(r.tx), id: r.id };
    return {
      id: feedEventId(cursor),
      cursor,
      type: r.type,
      gameId: r.game_id,
      lobbyId: r.lobby_id,
      seq: r.seq,
      payload: r.payload,
      createdAt: r.created_at,
    };
  });
}

/**
 * The player's newest committed feed event: a new (or re-enabled) webhook endpoint starts after
 * it. Not bounded by readFeed's horizon, which may lag behind a transaction left open elsewhere and
 * would replay recent history; an event still uncommitted now counts as before the endpoint.
 */
export async function feedTail(db: RowReader, playerId: string): Promise<FeedCursor> {
  return tailOf(await queryRows(db, feedTailSql(playerId, false)));
}

/** The player's last event a read can see now (see readFeed's horizon): "from now on" starts after it. */
export async function readableFeedTail(db: RowReader, playerId: string): Promise<FeedCursor> {
  return tailOf(await queryRows(db, feedTailSql(playerId, true)));
}

function tailOf(rows: readonly { tx: string; id: bigint }[]): FeedCursor {
  return rows[0] ? { tx: BigInt(rows[0].tx), id: rows[0].id } : FEED_START;
}
