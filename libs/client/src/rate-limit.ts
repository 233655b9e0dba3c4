// Rate-limit awareness: the server tells every answer's budget (RateLimit-* headers, GraphQL
// `extensions.rateLimit`); the client waits for the window to end rather than be refused.

/** One answer's figures: the budget, what is left, seconds until the window ends. */
export interface RateLimitFigures {
  limit: number;
  remaining: number;
  reset: number;
}

/** Time as the client reads it; tests pass their own. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      }, ms);
      const abort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
    }),
};

/** The figures of the RateLimit-* headers, or null when an answer has none. */
export function figuresFromHeaders(headers: Headers): RateLimitFigures | null {
  const limit = Number(headers.get('ratelimit-limit'));
  const remaining = Number(headers.get('ratelimit-remaining'));
  const reset = Number(headers.get('ratelimit-reset'));
  if (!headers.has('ratelimit-remaining') || ![limit, remaining, reset].every(Number.isFinite)) return null;
  return { limit, remaining, reset };
}

/** GraphQL's `extensions.rateLimit`, or null. */
export function figuresFromExtensions(extensions: unknown): RateLimitFigures | null {
  const figures = (extensions as { rateLimit?: Partial<RateLimitFigures> } | undefined)?.rateLimit;
  if (!figures || ![figures.limit, figures.remaining, figures.reset].every((n) => typeof n === 'number')) return null;
  return figures as RateLimitFigures;
}

/**
 * The budget as last seen. Before a request: when nothing is left, wait until the window ends
 * (the server answers only `reset` in whole seconds, so at most a second more than needed).
 */
export class RateLimitGate {
  private last: RateLimitFigures | null = null;
  private blockedUntil = 0;

  constructor(private readonly clock: Clock) {}

  /** The figures of the latest answer. */
  get figures(): RateLimitFigures | null {
    return this.last;
  }

  note(figures: RateLimitFigures | null): void {
    if (!figures) return;
    this.last = figures;
    if (figures.remaining <= 0) this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + figures.reset * 1000);
  }

  /** A RATE_LIMITED answer: nothing more before `retryAfter` seconds. */
  refused(retryAfterSeconds: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + retryAfterSeconds * 1000);
  }

  /** How long the next request should wait, in ms (0: send now). */
  delay(): number {
    return Math.max(0, this.blockedUntil - this.clock.now());
  }

  async wait(signal?: AbortSignal): Promise<void> {
    const ms = this.delay();
    if (ms > 0) await this.clock.sleep(ms, signal);
  }
}
