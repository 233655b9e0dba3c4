import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import postgres from 'postgres';
import { DATABASE_URL } from '../prisma/database-url.js';

/**
 * A small Postgres.js pool of the history module's own, for what Prisma cannot do: reading a long
 * query through a server-side cursor (the export), a batch at a time. Its own connections, so an
 * export streaming to a slow client never holds one of the moves' pool.
 */
@Injectable()
export class HistorySql implements OnApplicationShutdown {
  readonly sql: postgres.Sql;

  constructor(@Inject(DATABASE_URL) url: string) {
    this.sql = postgres(url, {
      max: 3,
      idle_timeout: 30,
      connect_timeout: 10,
      prepare: true,
      onnotice: () => undefined,
      // JIT compiling an export's plan cost more than it saved (~250 ms per 1,000 records, the
      // estimate of its subqueries far above jit_above_cost); this pool runs only the export.
      connection: { application_name: 'mizerka-history', jit: 'off' },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    // Open cursors are cancelled: a stream cut by the shutdown must not hold the database.
    await this.sql.end({ timeout: 2 });
  }
}
