import { DomainError } from '../common/errors.js';

/**
 * At most `atOnce` password hashes at a time on this instance (each holds a libuv thread and
 * 32 MiB), the others waiting their turn: one address's waiting requests are served one at a time
 * between other addresses', so a flood from one address delays its own requests, not everyone's.
 * An address may have `perAddress` waiting, everyone `total`: past that, RATE_LIMITED at once.
 */
export class HashGate {
  private running = 0;
  /** Waiting requests by address; a Map keeps the order addresses came in, the round's order. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private queued = 0;

  constructor(
    private readonly atOnce: number,
    private readonly perAddress = 8,
    private readonly total = 1000,
  ) {}

  async run<T>(address: string, work: () => Promise<T>): Promise<T> {
    await this.enter(address);
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  /** Hashes under way and waiting, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queued };
  }

  private enter(address: string): Promise<void> {
    if (this.running < this.atOnce && this.queued === 0) {
      this.running++;
      return Promise.resolve();
    }
    const queue = this.waiting.get(address) ?? [];
    if (queue.length >= this.perAddress || this.queued >= this.total) {
      throw new DomainError('RATE_LIMITED', 'Too many password checks are waiting (from your address, or in all); try again in a moment', {
        retryAfter: 1,
      });
    }
    return new Promise((resolve) => {
      queue.push(resolve);
      this.queued++;
      if (!this.waiting.has(address)) this.waiting.set(address, queue);
    });
  }

  private leave() {
    this.running--;
    const next = this.waiting.entries().next();
    if (next.done) return;
    const [address, queue] = next.value;
    const resolve = queue.shift()!;
    this.queued--;
    // The address goes to the back of the round, if it still waits.
    this.waiting.delete(address);
    if (queue.length > 0) this.waiting.set(address, queue);
    this.running++;
    resolve();
  }
}
