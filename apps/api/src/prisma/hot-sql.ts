import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import postgres from 'postgres';
import { parseRows, type SqlQuery } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { watchHotPool } from '../metrics/metrics.js';
import { DATABASE_URL } from './database-url.js';

/** PostgreSQL's type ids of json and jsonb. */
const JSON_OID = 114;
const JSONB = 3802;

/** A parameter type whose values are sent as the text they are (read as Postgres.js would). */
function sentAsText(oid: number) {
  return { to: oid, from: [] as number[], serialize: (text: string) => text, parse: (text: string) => text };
}

/**
 * The hot path's own Postgres.js pool, for the statements every move runs: the game store's read
 * and guarded write, and the token lookup of a request whose token is not cached (in
 * correspondence play, nearly every move's). They are built as Prisma.Sql, as everywhere else, but
 * run here as named prepared statements: a statement's text depends only on its shape (how many
 * log entries a write has, whether a trick or a deal ended), so each connection parses and plans
 * each shape once instead of on every move, and Postgres.js spends a fraction of the server's CPU
 * per query that Prisma over `pg` does (`npm run bench:api`, README). Everything else stays with
 * Prisma.
 */
@Injectable()
export class HotSql implements OnApplicationShutdown {
  private readonly sql: postgres.Sql;
  /** Statements sent and not yet answered (`mizerka_db_hot_statements_in_flight`). */
  inFlight = 0;
  private readonly unwatch = watchHotPool(this);

  constructor(@Inject(DATABASE_URL) url: string, config: ConfigService<AppConfig, true>) {
    this.sql = postgres(url, {
      max: config.get('databasePoolSize', { infer: true }),
      idle_timeout: 30,
      connect_timeout: 5,
      prepare: true,
      onnotice: () => undefined,
      // Our json and jsonb parameters are JSON text already (JSON.stringify'd, as for Prisma): sent
      // as they are. Postgres.js would stringify them again, storing a JSON string of the text.
      types: { jsonText: sentAsText(JSON_OID), jsonbText: sentAsText(JSONB) },
      connection: { application_name: 'mizerka-moves', statement_timeout: 15_000 },
    });
  }

  /** Runs `query` as a prepared statement; answers its rows, checked against its shape. */
  async rows<Row>(query: SqlQuery<Row>): Promise<Row[]> {
    this.inFlight++;
    let rows: readonly unknown[];
    try {
      rows = await this.sql.unsafe(query.text, query.values as postgres.ParameterOrJSON<never>[], { prepare: true });
    } finally {
      this.inFlight--;
    }
    return parseRows(query, rows);
  }

  async onApplicationShutdown(): Promise<void> {
    this.unwatch();
    await this.sql.end({ timeout: 5 });
  }
}
