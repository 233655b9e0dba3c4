import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { watchPool } from '../metrics/metrics.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { DATABASE_URL } from './database-url.js';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  private readonly pool: pg.Pool;
  private readonly unwatch: () => void;

  constructor(@Inject(DATABASE_URL) url: string, config: ConfigService<AppConfig, true>) {
    // Our own pool, so that /metrics can report its use.
    const pool = new pg.Pool({
      connectionString: url,
      max: config.get('databasePoolSize', { infer: true }),
      // pg waits forever by default; a stuck database must surface as an error instead.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      query_timeout: 15_000,
      statement_timeout: 15_000,
    });
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
