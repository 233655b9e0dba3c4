import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { DATABASE_URL } from './database-url.js';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(DATABASE_URL) url: string, config: ConfigService<AppConfig, true>) {
    super({
      adapter: new PrismaPg({
        connectionString: url,
        max: config.get('databasePoolSize', { infer: true }),
        // pg waits forever by default; a stuck database must surface as an error instead.
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 30_000,
        query_timeout: 15_000,
        statement_timeout: 15_000,
      }),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
