import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import postgres from 'postgres';
import { DATABASE_URL } from '../prisma/database-url.js';

/**
 * A small Postgres.js pool of the history module's own, for the export's pages. Its own
 * connections, so that exports never take one from the moves' pool; an export holds one only while it reads a page, never while it waits for
 * its client (ExportService), so three of them serve any number of exports.
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
    // A page being read is cancelled: the shutdown must not wait for it.
    await this.sql.end({ timeout: 2 });
  }
}
