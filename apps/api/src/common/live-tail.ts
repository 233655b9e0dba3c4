import { EventEmitter, on } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { liveTailReads, watchTails } from '../metrics/metrics.js';

/**
 * A read sees only what is below the oldest running transaction (the horizon), so right after a
 * commit it may not yet see the new rows while an older transaction is still open: a read that a
 * notice asked for and that did not reach the noticed transaction is repeated after these pauses
 * (about 2 s in all, far longer than a move's transaction), then left to the poll. The feed's
 * streams (PlayerFollowers) and the webhook fan-out both wait on this one schedule.
 */
export const HORIZON_RETRY_MS: readonly number[] = [1, 2, 4, 8, 16, 25, ...Array<number>(78).fill(25)];

/** Where a wake-up comes from: `event` on `emitter` (a bus told of a commit). */
export interface WakeSource {
  emitter: EventEmitter;
  event: string | symbol;
}

/**
 * A notice that names what it announces (a feed's committed transaction): a read that has not yet
 * passed it (the horizon still below it) is tried again after each of `retryMs`, then left to the poll.
 */
export interface NoticeOptions<P> {
  /** The position a wake-up's arguments announce; null when they name none. */
  mark(args: unknown[]): P | null;
  retryMs: readonly number[];
}

export interface TailOptions<P, T> {
  /** Read from just after here. */
  after: P;
  /** Up to `limit` items after `after`, in order. */
  read(after: P, limit: number): Promise<readonly T[]>;
  position(item: T): P;
  /** Is `a` after `b`? */
  isAfter(a: P, b: P): boolean;
  /** What wakes the tail; without it, it only polls. */
  wake?: WakeSource;
  /** The tail ends when this aborts, at once, whatever it waits for. */
  signal: AbortSignal;
  /** Looks again this long after its last read when nothing woke it (a lost notice, another writer). */
  pollMs: number;
  /** The most items one read asks for: a full batch is followed by the next read at once. */
  batch: number;
  notice?: NoticeOptions<P>;
  /** A read failed (the database is away): the next wake-up or poll tries again. */
  failed?(error: unknown): void;
}

/**
 * Tails a sequence kept in PostgreSQL: reads after `after`, yields each non-empty batch, then
 * waits for the bus, the poll or a notice's retry, and ends when `signal` aborts (no listener nor
 * timer is left behind). Wake-ups heard while reading cost one more read, not one each.
 */
export async function* tail<P, T>(options: TailOptions<P, T>): AsyncGenerator<readonly T[], void, undefined> {
  const { signal, read, position, isAfter, notice } = options;
  if (signal.aborted) return;
  const wakes = wakeUps(options.wake, signal);
  let after = options.after;
  /** A notice asked for the current reads; `awaited` is the newest position one named. */
  let noticed = false;
  let awaited: P | null = null;
  let retries = 0;
  const hear = (heard: readonly unknown[][]) => {
    for (const args of heard) {
      const mark = notice?.mark(args) ?? null;
      if (mark !== null && (awaited === null || isAfter(mark, awaited))) awaited = mark;
      noticed = notice !== undefined;
      retries = 0;
    }
    return heard.length > 0;
  };
  try {
    for (;;) {
      let rows: readonly T[] | null = null;
      try {
        rows = await read(after, options.batch);
      } catch (error) {
        if (signal.aborted) return;
        options.failed?.(error);
      }
      if (signal.aborted) return;
      if (rows && rows.length > 0) {
        after = position(rows[rows.length - 1]);
        if (awaited !== null && !isAfter(awaited, after)) awaited = null;
        if (awaited === null) {
          noticed = false;
          retries = 0;
        }
        yield rows;
        if (signal.aborted) return;
      }
      if (rows && rows.length === options.batch) continue;
      // Wake-ups heard meanwhile: one more read answers them all.
      if (hear(await wakes.heard())) continue;
      let wait = options.pollMs;
      if (noticed && rows && (rows.length === 0 || awaited !== null)) {
        const retry = notice?.retryMs[retries++];
        if (retry === undefined) {
          // Still not there: an older transaction holds the horizon longer; the poll will find it.
          noticed = false;
          awaited = null;
          retries = 0;
        } else wait = retry;
      }
      hear(await wakes.wait(wait));
      if (signal.aborted) return;
    }
  } finally {
    await wakes.close();
  }
}

/** One listener's wake-ups from a bus, heard through events.on until `signal` aborts or `close`. */
export interface WakeUps {
  /** The arguments of the wake-ups heard and not yet taken, taken now without waiting. */
  heard(): Promise<unknown[][]>;
  /** Waits for a wake-up, at most `ms` (and not past the signal), then takes every one heard ([]: none came). */
  wait(ms: number): Promise<unknown[][]>;
  /** Removes the listener now (events.on also does when the signal aborts). */
  close(): Promise<void>;
}

/** Listens to `source` from now on (without a source: only `wait`'s timer). */
export function wakeUps(source: WakeSource | undefined, signal: AbortSignal): WakeUps {
  const wakes = source && !signal.aborted ? on(source.emitter, source.event, { signal }) : null;
  /** The next wake-up, asked for and still to come. */
  let pending: Promise<IteratorResult<unknown[]>> | null = null;
  const heard = async (): Promise<unknown[][]> => {
    const taken: unknown[][] = [];
    if (!wakes) return taken;
    try {
      for (;;) {
        const next = pending ?? wakes.next();
        // A buffered wake-up's promise is already settled, so it wins the race against NOT_YET.
        const result = await Promise.race([next, NOT_YET]);
        if (result === UNHEARD) {
          pending = next;
          return taken;
        }
        pending = null;
        if (result.done) return taken;
        taken.push(result.value as unknown[]);
      }
    } catch (error) {
      pending = null;
      if (signal.aborted) return taken; // events.on rejects its pending wake-up with an AbortError
      throw error;
    }
  };
  return {
    heard,
    async wait(ms) {
      if (signal.aborted) return [];
      const timer = new AbortController();
      const onAbort = () => timer.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const timeout: Promise<typeof UNHEARD> = sleep(ms, UNHEARD, { signal: timer.signal, ref: false }).catch(() => UNHEARD);
        if (wakes) pending ??= wakes.next();
        const first = await Promise.race(pending ? [pending, timeout] : [timeout]);
        if (first === UNHEARD) return [];
        pending = null;
        return first.done ? [] : [first.value as unknown[], ...(await heard())];
      } catch (error) {
        pending = null;
        if (signal.aborted) return [];
        throw error;
      } finally {
        timer.abort();
        signal.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      await wakes?.return?.();
    },
  };
}

const UNHEARD: unique symbol = Symbol('unheard');
const NOT_YET = Promise.resolve(UNHEARD);

/**
 * `start` as an iterator whose `return()` (a client completing its subscription) ends it at once:
 * an async generator's own `return()` waits behind a pending `next()`, so here it aborts the
 * generator's signal first. The generator also ends when `signal` (the client's) aborts.
 */
export function untilReturned<T>(start: (signal: AbortSignal) => AsyncGenerator<T, void, undefined>, signal?: AbortSignal): AsyncIterableIterator<T> {
  const own = new AbortController();
  const onAbort = () => own.abort();
  if (signal?.aborted) own.abort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const unlink = () => signal?.removeEventListener('abort', onAbort);
  const generator = start(own.signal);
  const settle = async (step: Promise<IteratorResult<T, void>>): Promise<IteratorResult<T, undefined>> => {
    try {
      const result = await step;
      if (result.done) unlink();
      return result.done ? { value: undefined, done: true } : result;
    } catch (error) {
      unlink();
      own.abort();
      throw error;
    }
  };
  return {
    next: () => settle(generator.next()),
    return: () => {
      own.abort();
      return settle(generator.return());
    },
    throw: (error?: unknown) => {
      own.abort();
      return settle(generator.throw(error));
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

export interface LiveTailsOptions<P, T> {
  /** What the tails follow (game, feed): the `tail` label of their metrics. */
  name: string;
  read(key: string, after: P, limit: number): Promise<readonly T[]>;
  position(item: T): P;
  isAfter(a: P, b: P): boolean;
  wake(key: string): WakeSource;
  pollMs: number;
  /** The most items a shared read asks for. */
  batch: number;
  /** The most items a follower's own read of its backlog asks for (it reads the next as it is taken). */
  page: number;
  notice?: NoticeOptions<P>;
  failed?(key: string, error: unknown): void;
}

/** Where a follower starts: after `after`; `live: false` when nothing can follow its backlog (a finished game). */
export interface FollowStart<P> {
  after: P;
  live: boolean;
}

/** One key's followers on this instance, and its one tail. */
interface Hub<P> {
  /** Hands each batch to every follower (`rows`); `closed` ends them all. */
  readonly members: EventEmitter;
  /** Where the tail started (null: no follower has said where it stands yet). */
  start: P | null;
  /** Every item up to here has been handed to every follower. */
  known: P | null;
  readonly stop: AbortController;
}

/**
 * The followers of one key (a game, a player) on this instance share one tail: N followers cost
 * one read per new batch, not N. A follower joins first, reads its own backlog page by page as its
 * client takes it, then takes what the shared tail hands over, skipping what it already has.
 * Whatever the tail hands over after the join reaches it; what the tail had handed over before
 * was committed before the join, so the follower's own reads (all after the join) see it. The
 * tail starts where the first follower's backlog ends and stops with the last follower.
 */
export class LiveTails<P, T> {
  private readonly hubs = new Map<string, Hub<P>>();
  /** Followers past their start (`begin` answered). */
  private following = 0;
  private readonly unwatch: () => void;

  constructor(private readonly options: LiveTailsOptions<P, T>) {
    this.unwatch = watchTails({ name: options.name, tails: () => this.hubs.size, following: () => this.following });
  }

  /**
   * The items of `key` after where `begin` says (called once joined), then each as the tail reads
   * it; ends when `signal` aborts, when the consumer returns it, or when `closeAll` runs.
   * `started` is called once `begin` has answered: from then on, whatever is committed reaches it.
   */
  async *follow(key: string, signal: AbortSignal, begin: () => Promise<FollowStart<P>>, started?: () => void): AsyncGenerator<T, void, undefined> {
    if (signal.aborted) return;
    const { read, position, isAfter, page } = this.options;
    const hub = this.hubFor(key);
    const knownAtJoin = hub.known;
    const handed = on(hub.members, 'rows', { signal, close: ['closed'] });
    let counted = false;
    try {
      const { after, live } = await begin();
      if (signal.aborted) return;
      this.following++;
      counted = true;
      started?.();
      if (!live) await handed.return?.();
      let last = after;
      let reach: P | null = null;
      for (;;) {
        const rows = await read(key, last, page);
        if (signal.aborted) return;
        for (const row of rows) {
          last = position(row);
          yield row;
        }
        if (rows.length === page) continue;
        if (!live) return;
        reach ??= this.from(key, hub, knownAtJoin, last);
        // The tail stood further when this one joined: read up to there first (it is committed).
        if (rows.length === 0 || !isAfter(reach, last)) break;
      }
      for await (const [rows] of handed as AsyncIterableIterator<[readonly T[]]>) {
        for (const row of rows) {
          const at = position(row);
          if (!isAfter(at, last)) continue;
          last = at;
          yield row;
        }
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      if (counted) this.following--;
      await handed.return?.();
      if (hub.members.listenerCount('rows') === 0 && this.hubs.get(key) === hub) this.close(key, hub);
    }
  }

  /** Ends every follower and tail, and leaves the metrics (the server is going down). */
  closeAll(): void {
    for (const [key, hub] of [...this.hubs]) {
      this.close(key, hub);
      hub.members.emit('closed');
    }
    this.unwatch();
  }

  private hubFor(key: string): Hub<P> {
    let hub = this.hubs.get(key);
    if (!hub) {
      const members = new EventEmitter();
      members.setMaxListeners(0); // one per open stream of the key, capped by the live-connection quotas
      hub = { members, start: null, known: null, stop: new AbortController() };
      this.hubs.set(key, hub);
    }
    return hub;
  }

  /** A follower's backlog ends at `last`: returns where the tail's hand-over to it begins, starting the tail if none runs. */
  private from(key: string, hub: Hub<P>, knownAtJoin: P | null, last: P): P {
    if (hub.start === null) {
      hub.start = hub.known = last;
      this.run(key, hub, last).catch((error: unknown) => this.options.failed?.(key, error));
    }
    return knownAtJoin ?? hub.start;
  }

  private async run(key: string, hub: Hub<P>, after: P): Promise<void> {
    const { name, read, position, isAfter, wake, pollMs, batch, notice, failed } = this.options;
    const rows = tail({
      after,
      read: async (from, limit) => {
        const found = await read(key, from, limit);
        liveTailReads.inc({ tail: name, result: found.length > 0 ? 'found' : 'empty' });
        return found;
      },
      position,
      isAfter,
      wake: wake(key),
      signal: hub.stop.signal,
      pollMs,
      batch,
      notice,
      failed: (error) => failed?.(key, error),
    });
    for await (const found of rows) {
      hub.known = position(found[found.length - 1]);
      hub.members.emit('rows', found);
    }
  }

  private close(key: string, hub: Hub<P>): void {
    hub.stop.abort();
    this.hubs.delete(key);
  }
}
