import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import type { FeedCursor, FeedEvent } from '../player-events/feed.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PlayerFeedBus } from '../player-events/player-feed-bus.js';

/** What a hub hands new events to: one open stream of the player. */
export interface FeedMember {
  deliver(events: readonly FeedEvent[]): void;
  /** The hub is going away with the server: the stream ends. */
  closed(): void;
}

export interface FeedMembership {
  /** Where the member's own catch-up read stopped: the hub hands it everything after. */
  from(cursor: FeedCursor): void;
  leave(): void;
}

const READ_PAGE = 200;
/**
 * A feed read sees only what is below the oldest running transaction, so right after a commit
 * it may not yet see the new row while an older transaction is still open: a read that a notice
 * asked for and that did not reach the noticed transaction is repeated after these pauses (about
 * 2 s in all, far longer than a move's transaction), then left to the poll.
 */
const NOTICE_RETRY_MS = [1, 2, 4, 8, 16, 25, ...Array<number>(78).fill(25)];

/** (tx, id) order: is `a` after `b`? */
export function isAfter(a: FeedCursor, b: FeedCursor): boolean {
  return a.tx > b.tx || (a.tx === b.tx && a.id > b.id);
}

/** One player's open streams on this instance, and where their shared reads have got to. */
class Hub {
  readonly members = new Set<FeedMember>();
  /** Everything up to here was handed to every member (null: no member has said where it stands). */
  known: FeedCursor | null = null;
  /** A member that stands before `known` joined while a read ran: the hub goes back to it after. */
  floor: FeedCursor | null = null;
  dirty = false;
  reading = false;
  /** A notice asked for the current reads: one that did not reach what it was told of is retried (NOTICE_RETRY_MS). */
  noticed = false;
  /** The newest transaction a notice named: reads go on until they have passed it. */
  awaited: bigint | null = null;
  retries = 0;
  retry: NodeJS.Timeout | null = null;
  stopListening: () => void = () => undefined;
  poll: NodeJS.Timeout | null = null;
}

/**
 * The open streams of a player (`myEvents` subscriptions, `/me/events`) share one follower per
 * instance, like GameFollowers does per game: woken by the PlayerFeedBus after a commit, it reads
 * the feed after the last event it handed out, once, and hands the events to every stream. A
 * slow poll (FEED_POLL_MS) is the safety net for a lost notice or a commit on another instance.
 *
 * A stream joins before it reads its own backlog, then says where that read stopped (`from`):
 * events after it were read by the hub after the join and handed to the stream; events up to it
 * are in its own read. Streams skip what they already have, so there is neither gap nor duplicate.
 */
@Injectable()
export class PlayerFollowers implements OnModuleDestroy {
  private readonly logger = new Logger(PlayerFollowers.name);
  private readonly hubs = new Map<string, Hub>();
  private readonly pollMs: number;
  /** Shared reads made so far (each one statement). */
  reads = 0;
  /** Of them, those that found events (the others: nothing yet, or the feed's horizon lagging). */
  found = 0;

  constructor(
    private readonly events: PlayerEventsService,
    private readonly bus: PlayerFeedBus,
    config: ConfigService<AppConfig, true>,
  ) {
    this.pollMs = config.get('streams', { infer: true }).feedPollMs;
  }

  /** Open streams of `playerId` on this instance. */
  followers(playerId: string): number {
    return this.hubs.get(playerId)?.members.size ?? 0;
  }

  join(playerId: string, member: FeedMember): FeedMembership {
    let hub = this.hubs.get(playerId);
    if (!hub) {
      const created = new Hub();
      created.stopListening = this.bus.listen(playerId, (tx) => this.wake(playerId, created, true, tx));
      created.poll = setInterval(() => this.wake(playerId, created, false), this.pollMs).unref();
      this.hubs.set(playerId, created);
      hub = created;
    }
    const joined = hub;
    joined.members.add(member);
    let left = false;
    return {
      from: (cursor) => {
        if (left || (joined.known !== null && !isAfter(joined.known, cursor))) return;
        if (joined.reading) {
          if (joined.floor === null || isAfter(joined.floor, cursor)) joined.floor = cursor;
          return;
        }
        const wentBack = joined.known !== null;
        joined.known = cursor;
        if (wentBack || joined.dirty) this.wake(playerId, joined, false);
      },
      leave: () => {
        if (left) return;
        left = true;
        joined.members.delete(member);
        if (joined.members.size === 0 && this.hubs.get(playerId) === joined) this.close(playerId, joined);
      },
    };
  }

  onModuleDestroy(): void {
    for (const [playerId, hub] of [...this.hubs]) {
      const members = [...hub.members];
      this.close(playerId, hub);
      for (const member of members) member.closed();
    }
  }

  private close(playerId: string, hub: Hub): void {
    hub.stopListening();
    if (hub.poll) clearInterval(hub.poll);
    if (hub.retry) clearTimeout(hub.retry);
    hub.poll = null;
    hub.retry = null;
    hub.members.clear();
    this.hubs.delete(playerId);
  }

  private wake(playerId: string, hub: Hub, notice: boolean, tx: bigint | null = null): void {
    if (notice) {
      if (tx !== null && (hub.awaited === null || tx > hub.awaited)) hub.awaited = tx;
      hub.noticed = true;
      hub.retries = 0;
      if (hub.retry) clearTimeout(hub.retry);
      hub.retry = null;
    }
    hub.dirty = true;
    if (hub.reading || hub.known === null || hub.members.size === 0) return;
    void this.readNew(playerId, hub);
  }

  private async readNew(playerId: string, hub: Hub): Promise<void> {
    hub.reading = true;
    try {
      while (hub.dirty && hub.members.size > 0 && hub.known !== null) {
        hub.dirty = false;
        const rows = await this.events.feed(playerId, hub.known, READ_PAGE);
        this.reads++;
        if (rows.length > 0) {
          this.found++;
          hub.known = rows[rows.length - 1].cursor;
          for (const member of [...hub.members]) member.deliver(rows);
          // Found: the notice is answered once the read has passed the transaction it named (or,
          // naming none, found anything), unless another came while reading (then read again).
          if (hub.awaited !== null && hub.known.tx >= hub.awaited) hub.awaited = null;
          if (!hub.dirty && hub.awaited === null) {
            hub.noticed = false;
            hub.retries = 0;
          }
        }
        if (rows.length === READ_PAGE) hub.dirty = true;
        if (hub.floor !== null) {
          if (isAfter(hub.known, hub.floor)) {
            hub.known = hub.floor;
            hub.dirty = true;
          }
          hub.floor = null;
        }
        if (hub.noticed && !hub.dirty && (rows.length === 0 || hub.awaited !== null)) this.retryLater(playerId, hub);
      }
    } catch (error) {
      // The database is away: the next notice or poll tries again.
      hub.dirty = true;
      this.logger.warn(`reading the feed of player ${playerId} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      hub.reading = false;
    }
  }

  private retryLater(playerId: string, hub: Hub): void {
    if (hub.retry) return;
    const delay = NOTICE_RETRY_MS[hub.retries++];
    if (delay === undefined) {
      // Still nothing: an older transaction holds the horizon longer; the poll will find it.
      hub.noticed = false;
      hub.awaited = null;
      hub.retries = 0;
      return;
    }
    hub.retry = setTimeout(() => {
      hub.retry = null;
      hub.dirty = true;
      if (!hub.reading && hub.known !== null && hub.members.size > 0) void this.readNew(playerId, hub);
    }, delay).unref();
  }
}
