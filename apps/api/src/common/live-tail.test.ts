import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { metricValue } from '../../../../test/metrics.js';
import { LiveTails, tail, untilReturned, wakeUps, type TailOptions } from './live-tail.js';

/** A sequence 1, 2, 3… kept in memory, read like the log: items after a position, at most `limit`. */
function sequence() {
  const items: number[] = [];
  const reads: { after: number; limit: number }[] = [];
  return {
    items,
    reads,
    append(n: number) {
      for (let i = 0; i < n; i++) items.push(items.length + 1);
    },
    read: (after: number, limit: number): Promise<number[]> => {
      reads.push({ after, limit });
      return Promise.resolve(items.filter((i) => i > after).slice(0, limit));
    },
  };
}

const HOUR = 3_600_000;

function options(seq: ReturnType<typeof sequence>, over: Partial<TailOptions<number, number>> = {}): TailOptions<number, number> {
  return { after: 0, read: seq.read, position: (i) => i, isAfter: (a, b) => a > b, signal: new AbortController().signal, pollMs: HOUR, batch: 10, ...over };
}

/** Takes batches from `batches` into `got` until it ends. */
async function drain(batches: AsyncGenerator<readonly number[]>, got: number[]): Promise<void> {
  for await (const batch of batches) got.push(...batch);
}

describe('tail', () => {
  it('resumes after N: yields only what follows it', async () => {
    const seq = sequence();
    seq.append(5);
    const stop = new AbortController();
    const batches = tail(options(seq, { after: 3, signal: stop.signal }));
    const first = await batches.next();
    expect(first.value).toEqual([4, 5]);
    expect(seq.reads[0]).toEqual({ after: 3, limit: 10 });
    stop.abort();
    expect((await batches.next()).done).toBe(true);
  });

  it('reads in bounded batches, the next at once after a full one', async () => {
    const seq = sequence();
    seq.append(25);
    const stop = new AbortController();
    const got: number[] = [];
    const sizes: number[] = [];
    const done = (async () => {
      for await (const batch of tail(options(seq, { batch: 10, signal: stop.signal }))) {
        sizes.push(batch.length);
        got.push(...batch);
      }
    })();
    await expect.poll(() => got.length).toBe(25);
    expect(sizes).toEqual([10, 10, 5]);
    expect(seq.reads.every((r) => r.limit === 10)).toBe(true);
    stop.abort();
    await done;
  });

  it('wakes on the bus, and many wake-ups heard during a read cost one more read', async () => {
    const seq = sequence();
    const bus = new EventEmitter();
    const stop = new AbortController();
    const got: number[] = [];
    const done = drain(tail(options(seq, { wake: { emitter: bus, event: 'g' }, signal: stop.signal })), got);
    await expect.poll(() => seq.reads.length).toBe(1); // the first read found nothing; it waits now
    seq.append(1);
    bus.emit('g');
    await expect.poll(() => got).toEqual([1]);
    // Three notices while no one takes them (the generator is busy): one read answers them all.
    const before = seq.reads.length;
    seq.append(2);
    bus.emit('g');
    bus.emit('g');
    bus.emit('g');
    await expect.poll(() => got).toEqual([1, 2, 3]);
    await expect.poll(() => seq.reads.length - before).toBeGreaterThanOrEqual(1);
    expect(seq.reads.length - before).toBeLessThanOrEqual(2);
    stop.abort();
    await done;
  });

  it('polls without the bus', async () => {
    const seq = sequence();
    const stop = new AbortController();
    const got: number[] = [];
    const done = drain(tail(options(seq, { pollMs: 5, signal: stop.signal })), got);
    await expect.poll(() => seq.reads.length).toBeGreaterThanOrEqual(2);
    seq.append(2);
    await expect.poll(() => got).toEqual([1, 2]);
    stop.abort();
    await done;
  });

  it('ends at once on abort, leaving no listener on the bus', async () => {
    const seq = sequence();
    const bus = new EventEmitter();
    const stop = new AbortController();
    const batches = tail(options(seq, { wake: { emitter: bus, event: 'g' }, signal: stop.signal }));
    const waiting = batches.next(); // reads nothing, then waits on the bus (an hour's poll)
    await expect.poll(() => bus.listenerCount('g')).toBe(1);
    stop.abort();
    expect((await waiting).done).toBe(true);
    expect(bus.listenerCount('g')).toBe(0);
    expect(bus.listenerCount('error')).toBe(0);
  });

  it('tries a read that has not reached the noticed position again, on the retry schedule', async () => {
    const seq = sequence();
    const bus = new EventEmitter();
    const stop = new AbortController();
    const got: number[] = [];
    const done = drain(
      tail(options(seq, { wake: { emitter: bus, event: 'g' }, signal: stop.signal, notice: { mark: ([at]) => (typeof at === 'number' ? at : null), retryMs: [1, 1, 1] } })),
      got,
    );
    await expect.poll(() => seq.reads.length).toBe(1);
    bus.emit('g', 2); // announces 2, not yet visible: read, then three retries, then left to the poll
    await expect.poll(() => seq.reads.length).toBe(5);
    seq.append(2);
    bus.emit('g', 2);
    await expect.poll(() => got).toEqual([1, 2]);
    stop.abort();
    await done;
  });

  it('tells of a failed read and tries again at the next wake-up', async () => {
    const seq = sequence();
    const bus = new EventEmitter();
    const stop = new AbortController();
    const failures: unknown[] = [];
    let fail = true;
    const got: number[] = [];
    const read = (after: number, limit: number) => (fail ? Promise.reject(new Error('database away')) : seq.read(after, limit));
    const done = drain(tail(options(seq, { read, wake: { emitter: bus, event: 'g' }, signal: stop.signal, failed: (e) => failures.push(e) })), got);
    await expect.poll(() => failures.length).toBe(1);
    fail = false;
    seq.append(1);
    bus.emit('g');
    await expect.poll(() => got).toEqual([1]);
    stop.abort();
    await done;
  });
});

describe('wakeUps', () => {
  it('gives every wake-up heard since the last look, with its arguments, and [] when none came in time', async () => {
    const bus = new EventEmitter();
    const stop = new AbortController();
    const wakes = wakeUps({ emitter: bus, event: 'any' }, stop.signal);
    expect(await wakes.wait(1)).toEqual([]);
    bus.emit('any', ['p1'], 7n);
    bus.emit('any', ['p2'], null);
    expect(await wakes.heard()).toEqual([
      [['p1'], 7n],
      [['p2'], null],
    ]);
    expect(await wakes.heard()).toEqual([]);
    const waiting = wakes.wait(HOUR);
    bus.emit('any', ['p3'], 8n);
    expect(await waiting).toEqual([[['p3'], 8n]]);
    stop.abort();
    expect(await wakes.wait(HOUR)).toEqual([]);
    await wakes.close();
    expect(bus.listenerCount('any')).toBe(0);
    expect(bus.listenerCount('error')).toBe(0);
  });
});

describe('untilReturned', () => {
  it('ends a generator waiting for its next item as soon as it is returned', async () => {
    const bus = new EventEmitter();
    const seq = sequence();
    const items = untilReturned(async function* (signal) {
      for await (const batch of tail(options(seq, { wake: { emitter: bus, event: 'g' }, signal }))) yield* batch;
    });
    const waiting = items.next();
    await expect.poll(() => bus.listenerCount('g')).toBe(1);
    await expect(items.return!()).resolves.toEqual({ value: undefined, done: true });
    await expect(waiting).resolves.toEqual({ value: undefined, done: true });
    expect(bus.listenerCount('g')).toBe(0);
  });

  it('ends when the given signal aborts, and leaves no listener on it', async () => {
    const client = new AbortController();
    let own: AbortSignal | null = null;
    const items = untilReturned(async function* (signal) {
      own = signal;
      yield 1;
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }, client.signal);
    expect(await items.next()).toEqual({ value: 1, done: false });
    const waiting = items.next();
    client.abort();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(own!.aborted).toBe(true);
  });
});

describe('LiveTails', () => {
  let made = 0;
  /** Each test's tails under a name of their own: its metrics are its own. */
  function tails(seq: ReturnType<typeof sequence>, bus: EventEmitter) {
    const name = `unit-${++made}`;
    const live = new LiveTails<number, number>({
      name,
      read: (_key, after, limit) => seq.read(after, limit),
      position: (i) => i,
      isAfter: (a, b) => a > b,
      wake: (key) => ({ emitter: bus, event: key }),
      pollMs: HOUR,
      batch: 50,
      page: 3,
    });
    return Object.assign(live, {
      followers: () => metricValue('mizerka_live_tail_followers', { tail: name }),
      keys: () => metricValue('mizerka_live_tails', { tail: name }),
      reads: (result?: 'found' | 'empty') => metricValue('mizerka_live_tail_reads_total', { tail: name, ...(result ? { result } : {}) }),
    });
  }

  function follower(live: LiveTails<number, number>, after: number) {
    const stop = new AbortController();
    const got: number[] = [];
    const done = (async () => {
      for await (const item of live.follow('g', stop.signal, () => Promise.resolve({ after, live: true }))) got.push(item);
    })();
    return { got, stop, done };
  }

  it('reads its backlog in pages, then shares one read per new batch among its followers', async () => {
    const seq = sequence();
    seq.append(7);
    const bus = new EventEmitter();
    const live = tails(seq, bus);
    const a = follower(live, 0);
    const b = follower(live, 5);
    await expect.poll(() => [a.got.length, b.got.length]).toEqual([7, 2]);
    expect(await live.followers()).toBe(2);
    expect(await live.keys()).toBe(1);
    expect(bus.listenerCount('g')).toBe(1); // one tail for the key
    const reads = await live.reads();
    seq.append(2);
    bus.emit('g');
    await expect.poll(() => [a.got, b.got]).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
      [6, 7, 8, 9],
    ]);
    expect((await live.reads()) - reads).toBe(1);
    expect(await live.reads('found')).toBe(1);
    a.stop.abort();
    b.stop.abort();
    await Promise.all([a.done, b.done]);
    expect(await live.followers()).toBe(0);
    expect(await live.keys()).toBe(0);
    expect(bus.listenerCount('g')).toBe(0);
  });

  it('gives a follower that joins later neither gap nor duplicate', async () => {
    const seq = sequence();
    const bus = new EventEmitter();
    const live = tails(seq, bus);
    const a = follower(live, 0);
    await expect.poll(() => bus.listenerCount('g')).toBe(1);
    seq.append(4);
    bus.emit('g');
    await expect.poll(() => a.got.length).toBe(4);
    const b = follower(live, 2);
    await expect.poll(() => b.got).toEqual([3, 4]);
    seq.append(1);
    bus.emit('g');
    await expect.poll(() => [a.got, b.got]).toEqual([
      [1, 2, 3, 4, 5],
      [3, 4, 5],
    ]);
    a.stop.abort();
    b.stop.abort();
    await Promise.all([a.done, b.done]);
  });

  it('serves a follower with nothing to follow its backlog alone, and ends it there', async () => {
    const seq = sequence();
    seq.append(4);
    const bus = new EventEmitter();
    const live = tails(seq, bus);
    const got: number[] = [];
    for await (const item of live.follow('g', new AbortController().signal, () => Promise.resolve({ after: 1, live: false }))) got.push(item);
    expect(got).toEqual([2, 3, 4]);
    expect(await live.keys()).toBe(0);
    expect(await live.followers()).toBe(0);
    expect(bus.listenerCount('g')).toBe(0);
  });

  it('says a follower has started once begin has answered, and counts it until it leaves', async () => {
    const seq = sequence();
    seq.append(2);
    const bus = new EventEmitter();
    const live = tails(seq, bus);
    const stop = new AbortController();
    let answer!: () => void;
    const asked = new Promise<void>((resolve) => (answer = resolve));
    const events: string[] = [];
    const items = live.follow('g', stop.signal, async () => (await asked, { after: 0, live: true }), () => events.push('started'));
    const first = items.next().then((r) => events.push(`item ${String(r.value)}`));
    // Joined, but begin has not answered: it cannot have started, and is not counted yet.
    expect(events).toEqual([]);
    expect(await live.followers()).toBe(0);
    answer();
    await first;
    expect(events).toEqual(['started', 'item 1']);
    expect(await live.followers()).toBe(1);
    stop.abort();
    await items.return();
    expect(await live.followers()).toBe(0);
  });

  it('ends every follower on closeAll', async () => {
    const seq = sequence();
    const bus = new EventEmitter();
    const live = tails(seq, bus);
    const a = follower(live, 0);
    await expect.poll(() => bus.listenerCount('g')).toBe(1);
    live.closeAll();
    await a.done;
    expect(await live.followers()).toBe(0);
    expect(bus.listenerCount('g')).toBe(0);
  });
});
