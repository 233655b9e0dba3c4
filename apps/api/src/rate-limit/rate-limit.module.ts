import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
import { RATE_LIMIT_STORE, RateLimiter } from './rate-limiter.js';

/** Rate limits: counted in Redis when REDIS_URL is set (shared by all instances), else in memory. */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>): RateLimitStore => {
        const url = config.get('redisUrl', { infer: true });
        return url === null ? new MemoryRateLimitStore() : new RedisRateLimitStore(url, `${config.get('redisPrefix', { infer: true })}rate:`);
      },
    },
    RateLimiter,
  ],
  exports: [RateLimiter, RATE_LIMIT_STORE],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
