import { z } from 'zod';

// The one reader of json and jsonb columns. Prisma's raw queries answer such a column parsed, but a
// json value built in SQL (json_agg, a jsonb cast of text) may come back as its text, depending on
// the client and the column's type; every reader takes either.

/** A json or jsonb column's value as stored, whether the client answered it parsed or as its text. */
export function fromJsonColumn(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** A json or jsonb column's value, read by `fromJsonColumn` and then checked by `schema`. */
export function jsonColumn<S extends z.ZodType>(schema: S) {
  return z.preprocess(fromJsonColumn, schema);
}

/** A value as a json or jsonb parameter: its JSON text, cast in the statement (`${toJsonColumn(v)}::jsonb`). */
export function toJsonColumn(value: unknown): string {
  return JSON.stringify(value);
}
