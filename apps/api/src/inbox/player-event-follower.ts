import type { FeedCursor, FeedEvent } from '../player-events/feed.js';
import { isAfter, type FeedMembership, type PlayerFollowers } from './player-followers.js';

const CATCH_UP_PAGE = 100;
const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/** How a stream reads the feed on its own: its backlog, and where "now" is. */
export interface FeedReader {
  read(playerId: string, after: FeedCursor, limit: number): Promise<FeedEvent[]>;
  /** The last event of the player a read can see now (the start when there is none). */
  tail(playerId: string): Promise<FeedCursor>;
}

/**
 * One stream of a player's feed (`myEvents`, `/me/events`): the events after `after` (null: from
 * now on), read page by page as the client takes them, then what the player's hub hands over. It
 * never ends by itself; it ends when returned, when `signal` aborts (client gone, token revoked)
 * or when the server shuts down, and a pending `next()` then resolves as done at once.
 */
export class PlayerEventFollower implements AsyncIterableIterator<FeedEvent> {
  private last: FeedCursor | null;
  private started = false;
  private caughtUp = false;
  private ended = false;
  private page: FeedEvent[] = [];
  /** Events handed over by the hub, in order; those not after `last` are dropped when taken. */
  private handed: FeedEvent[] = [];
  private wake: (() => void) | null = null;
  private membership: FeedMembership | null = null;
  private readonly onAbort = () => this.end();

  constructor(
    private readonly reader: FeedReader,
    private readonly followers: PlayerFollowers,
    private readonly playerId: string,
    after: FeedCursor | null,
    private readonly signal?: AbortSignal,
  ) {
    this.last = after;
    if (signal?.aborted) this.ended = true;
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<FeedEvent, undefined>> {
    try {
      if (!this.started) {
        this.started = true;
        if (!this.ended) await this.start();
      }
      for (;;) {
        if (this.ended) return DONE;
        const event = this.take();
        if (event) {
          this.last = event.cursor;
          return { value: event, done: false };
        }
        if (!this.caughtUp) await this.readPage();
        else await this.nextHanding();
      }
    } catch (error) {
      this.end();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<FeedEvent, undefined>> {
    return this.end();
  }

  async throw(error?: unknown): Promise<IteratorResult<FeedEvent, undefined>> {
    this.end();
    throw error;
  }

  /** Joins the hub first: whatever it reads from here on is handed to this stream too. */
  private async start(): Promise<void> {
    this.membership = this.followers.join(this.playerId, {
      deliver: (events) => {
        if (this.ended) return;
        const fresh = this.last ? events.filter((e) => isAfter(e.cursor, this.last!)) : [...events];
        if (fresh.length === 0) return;
        const before = this.handed.at(-1)?.cursor;
        this.handed.push(...fresh);
        if (before && !isAfter(fresh[0].cursor, before)) this.handed.sort((a, b) => (isAfter(a.cursor, b.cursor) ? 1 : -1));
        this.wake?.();
      },
      closed: () => this.end(),
    });
    // From now on: where the feed stands, read after joining, so nothing committed later is missed.
    if (this.last === null) this.last = await this.reader.tail(this.playerId);
  }

  private async readPage(): Promise<void> {
    const events = await this.reader.read(this.playerId, this.last!, CATCH_UP_PAGE);
    if (this.ended) return;
    this.page = events;
    if (events.length < CATCH_UP_PAGE) {
      this.caughtUp = true;
      // Where this stream's own read stopped; the hub hands over what comes after.
      const at = events.at(-1)?.cursor ?? this.last!;
      this.membership?.from(at);
    }
  }

  private take(): FeedEvent | undefined {
    while (this.page.length > 0) {
      const event = this.page.shift()!;
      if (isAfter(event.cursor, this.last!)) return event;
    }
    if (!this.caughtUp) return undefined;
    while (this.handed.length > 0) {
      const event = this.handed.shift()!;
      if (isAfter(event.cursor, this.last!)) return event;
    }
    return undefined;
  }

  private nextHanding(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
    });
  }

  private end(): IteratorReturnResult<undefined> {
    if (!this.ended) {
      this.ended = true;
      this.signal?.removeEventListener('abort', this.onAbort);
      this.membership?.leave();
      this.page = [];
      this.handed = [];
    }
    this.wake?.();
    return DONE;
  }
}
