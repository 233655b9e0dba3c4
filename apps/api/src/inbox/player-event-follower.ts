import { untilReturned } from '../common/live-tail.js';
import type { FeedCursor, FeedEvent } from '../player-events/feed.js';
import type { PlayerFollowers } from './player-followers.js';

/** Where "now" is in a player's feed. */
export type FeedTail = (playerId: string) => Promise<FeedCursor>;

/**
 * One stream of a player's feed (`myEvents`, `/me/events`): the events after `after` (null: from
 * now on), read page by page as the client takes them, then what the player's live tail hands
 * over. It never ends by itself; it ends when returned, when `signal` aborts (client gone, token
 * revoked) or when the server shuts down, and a pending `next()` then resolves as done at once.
 * `started` is called once it knows where it starts (LiveTails.follow).
 */
export function followFeed(
  followers: PlayerFollowers,
  tail: FeedTail,
  playerId: string,
  after: FeedCursor | null,
  signal?: AbortSignal,
  started?: () => void,
): AsyncIterableIterator<FeedEvent> {
  // From now on: where the feed stands, read after joining, so nothing committed later is missed.
  return untilReturned((ended) => followers.follow(playerId, ended, async () => ({ after: after ?? (await tail(playerId)), live: true }), started), signal);
}
