import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';

/** A client's count in its current window, after a hit. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number;
}

/**
 * Fixed windows that start at a client's first request: `hit` adds `cost` to the key's count and
 * returns the new count. A negative cost gives back to a window still running and starts none.
 * Shared by every instance when it lives in Redis.
 */
export interface RateLimitStore {
  hit(key: string, cost: number, windowMs: number): Promise<WindowCount>;
  close(): Promise<void>;
}

const MEMORY_LIMIT = 100_000;

/** One instance's counts. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; until: number }>();

  hit(key: string, cost: number, windowMs: number): Promise<WindowCount> {
    return Promise.resolve(this.hitNow(key, cost, windowMs));
  }

  hitNow(key: string, cost: number, windowMs: number, now = Date.now()): WindowCount {
    let entry = this.windows.get(key);
    if (cost < 0 && (!entry || entry.until <= now)) return { count: 0, resetMs: 0 };
    if (!entry || entry.until <= now) {
      if (!entry && this.windows.size >= MEMORY_LIMIT) this.sweep(now);
      entry = { count: 0, until: now + windowMs };
      this.windows.set(key, entry);
    }
    entry.count += cost;
    return { count: entry.count, resetMs: entry.until - now };
  }

  /** Drops ended windows; if none had ended, the oldest ones (a flood of new clients). */
  private sweep(now: number) {
    for (const [key, entry] of this.windows) if (entry.until <= now) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < MEMORY_LIMIT * 0.9) break;
      this.windows.delete(key);
    }
  }

  close(): Promise<void> {
    this.windows.clear();
    return Promise.resolve();
  }
}

// INCRBY and the window's expiry in one atomic step: two instances never both start a window,
// and a key never outlives its window.
const HIT_SCRIPT = `
if tonumber(ARGV[1]) < 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  return {0, 0}
end
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}
`;

const WARN_EVERY_MS = 30_000;

type RedisWithHit = Redis & { rateLimitHit(key: string, cost: number, windowMs: number): Promise<[number, number]> };

/**
 * Counts in Redis (REDIS_URL), shared by every instance. When Redis does not answer, each
 * instance counts on its own in memory and says so in a warning (at most every 30 s): moves go on.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;
  private readonly fallback = new MemoryRateLimitStore();
  private readonly log = new Logger('RateLimit');
  private lastWarning = 0;

  constructor(
    url: string,
    private readonly prefix = 'mizerka:rate:',
  ) {
    this.redis = new Redis(url, {
      // A request never waits for Redis to come back: it fails at once and falls back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.on('error', (error: Error) => this.warn(error));
  }

  async hit(key: string, cost: number, windowMs: number): Promise<WindowCount> {
    try {
      const [count, ttl] = await this.redis.rateLimitHit(this.prefix + key, cost, windowMs);
      return { count: Number(count), resetMs: Math.max(0, Number(ttl)) };
    } catch (error) {
      this.warn(error);
      return this.fallback.hit(key, cost, windowMs);
    }
  }

  private warn(error: unknown) {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    const message = error instanceof Error ? error.message : String(error);
    this.log.warn(`Redis does not answer (${message}): rate limits are counted by this instance alone until it does`);
  }

  async close(): Promise<void> {
    await this.fallback.close();
    this.redis.disconnect();
  }
}
