import postgres from 'postgres';
import { Prisma } from '../generated/prisma/client.js';

/**
 * A unique key broken, by a Prisma client call (P2002), by a raw statement through the pg adapter
 * (SQLSTATE 23505, which Prisma reports in `meta`) or by one through Postgres.js (its `code`):
 * someone else wrote it first.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return error.code === '23505';
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === 'P2002') return true;
  const meta = error.meta as { code?: string; driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } | undefined;
  return (
    meta?.code === '23505' ||
    meta?.driverAdapterError?.cause?.originalCode === '23505' ||
    meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation'
  );
}
