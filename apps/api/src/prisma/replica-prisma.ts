import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Counter } from 'prom-client';
import type { AppConfig } from '../config/app-config.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { registry, watchPool } from '../metrics/metrics.js';
import { DATABASE_URL } from './database-url.js';
import { PrismaService, prismaPoolOptions } from './prisma.service.js';

export const replicaCheckouts = new Counter({
  name: 'mizerka_db_replica_checkouts_total',
  help: 'Connections taken from the read replica pool (DATABASE_REPLICA_URL) for the history reads, by pool (prisma, export)',
  labelNames: ['pool'] as const,
  registers: [registry],
});

/**
 * Connections of a replica's pool are read-only sessions: on a hot standby every write fails
 * anyway; on a server that is not one (a URL mistaken for the primary's), a write sent there by
 * mistake fails too, instead of landing where no one expects it.
 */
export const REPLICA_SESSION_OPTIONS = '-c default_transaction_read_only=on';

/**
 * Where the history module's heavy reads go (lists and searches of finished games, exports, rating
 * histories and leaderboards): a PrismaClient on a pool of its own to DATABASE_REPLICA_URL when it
 * is set, else the primary's PrismaService itself. They read finished games, which never change,
 * so the replica's lag costs nothing there; nothing that writes, or reads what it just wrote, uses it.
 */
@Injectable()
export class ReplicaPrisma implements OnModuleDestroy {
  /** The client the history reads use. */
  readonly client: PrismaClient;
  /** The URL the export's own pool connects to: the replica's, else the primary's. */
  readonly url: string;
  /** Whether the reads go to a replica (DATABASE_REPLICA_URL set). */
  readonly isReplica: boolean;
  private readonly pool: pg.Pool | null = null;
  private readonly unwatch: () => void = () => undefined;

  constructor(primary: PrismaService, @Inject(DATABASE_URL) primaryUrl: string, config: ConfigService<AppConfig, true>) {
    const replicaUrl = config.get('databaseReplicaUrl', { infer: true });
    this.isReplica = replicaUrl !== null;
    this.url = replicaUrl ?? primaryUrl;
    if (replicaUrl === null) {
      this.client = primary;
      return;
    }
    const pool = new pg.Pool({
      ...prismaPoolOptions(replicaUrl, config),
      application_name: 'mizerka-replica',
      options: REPLICA_SESSION_OPTIONS,
    });
    pool.on('acquire', () => replicaCheckouts.inc({ pool: 'prisma' }));
    this.pool = pool;
    this.unwatch = watchPool(pool);
    this.client = new PrismaClient({ adapter: new PrismaPg(pool) });
  }

  async onModuleDestroy(): Promise<void> {
    if (this.pool === null) return;
    this.unwatch();
    await this.client.$disconnect();
    await this.pool.end().catch(() => undefined);
  }
}
