import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { watchPool } from '../metrics/metrics.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { DATABASE_URL } from './database-url.js';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';

/**
 * A Prisma pool's options (the primary's, PrismaService; a read replica's, ReplicaPrisma): its size
 * from DATABASE_POOL_SIZE, and time limits, since pg waits forever by default and a stuck database
 * must surface as an error instead.
 */
export function prismaPoolOptions(url: string, config: ConfigService<AppConfig, true>): pg.PoolConfig {
  return {
    connectionString: url,
    max: config.get('databasePoolSize', { infer: true }),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    query_timeout: 15_000,
    statement_timeout: 15_000,
  };
}

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  private readonly pool: pg.Pool;
  private readonly unwatch: () => void;

  constructor(@Inject(DATABASE_URL) url: string, config: ConfigService<AppConfig, true>) {
    // Our own pool, so that /metrics can report its use.
    const pool = new pg.Pool(prismaPoolOptions(url, config));
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
    this.unwatch = watchPool(pool);
  }

  async onModuleDestroy(): Promise<void> {
    this.unwatch();
    await this.$disconnect();
    await this.pool.end().catch(() => undefined); // the adapter does not end a pool it was given
  }
}
