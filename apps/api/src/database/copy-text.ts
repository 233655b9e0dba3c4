// PostgreSQL's COPY text format: one line per row, columns separated by tabs, \N for null (the
// seeding script's bulk load, and the game commit's gameCommitCopy).

const SPECIAL = /[\\\t\n\r]/;

/** A value as COPY's text format writes it. */
export function field(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : value;
}

/** jsonb: the JSON text, or null. */
export function jsonField(value: unknown): string {
  return value === null || value === undefined ? '\\N' : field(JSON.stringify(value));
}

/** int[] / text[] of simple elements (numbers, card names): no quoting needed. */
export function arrayField(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

export function timeField(ms: number | null): string {
  return ms === null ? '\\N' : new Date(ms).toISOString();
}

export function row(values: string[]): string {
  return `${values.join('\t')}\n`;
}
