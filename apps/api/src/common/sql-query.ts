import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';

// A statement that answers rows is written once, in its feature's `*.sql.ts`, together with the
// shape of its rows; whoever runs it (Prisma's $queryRaw, or the hot path's Postgres.js pool) gets
// rows that have been checked against that shape, so a renamed column or a count that comes back as
// bigint fails at the boundary, in the tests, instead of as an undefined deep in a service.
// docs/decisions/data-access.md says why row shapes rather than generated types or a query builder.

/**
 * A statement and the shape of each row it answers. It is a Prisma.Sql still, so that the benchmark
 * and the plan tests can EXPLAIN exactly what runs, and the hot pool can run it as it is.
 */
export type SqlQuery<Row> = Prisma.Sql & { readonly row: z.ZodType<Row> };

/** The row of a query, or of the function that builds it: `RowOf<typeof endpointRunSql>`. */
export type RowOf<Q> = Q extends (...args: never[]) => SqlQuery<infer Row> ? Row : Q extends SqlQuery<infer Row> ? Row : never;

/** Pairs a statement with the shape of its rows. */
export function sqlQuery<S extends z.ZodType>(row: S, sql: Prisma.Sql): SqlQuery<z.output<S>> {
  // A new Sql around it: `sql` may be a fragment shared by other statements.
  return Object.assign(Prisma.sql`${sql}`, { row: row as z.ZodType<z.output<S>> });
}

/** A client that runs a statement and answers its rows: Prisma or one of its transactions. */
export type RowReader = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** Rows a client answered to `query`, each checked against its shape. */
export function parseRows<Row>(query: SqlQuery<Row>, rows: readonly unknown[]): Row[] {
  return rows.map((row, i) => {
    const parsed = query.row.safeParse(row);
    if (!parsed.success) throw new Error(`Row ${i} does not have the shape its statement declares: ${parsed.error.message}\n${query.text}`);
    return parsed.data;
  });
}

/** Runs `query` through Prisma; answers its rows, checked. */
export async function queryRows<Row>(db: RowReader, query: SqlQuery<Row>): Promise<Row[]> {
  return parseRows(query, await db.$queryRaw<unknown[]>(query));
}
