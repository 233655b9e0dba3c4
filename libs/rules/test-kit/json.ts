// Small helpers: canonical JSON for deep comparison, card names inside any JSON.

/** JSON with object keys sorted, so that two values compare by content. */
export function canon(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

/** Deep equality of JSON values, key order ignored (fast path: identical serialisations). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b) || canon(a) === canon(b);
}

const CARD_NAME = /\b[2-9TJQKA][CDHS]\b/g;

/** Every card name written anywhere in a text (JSON of a view, an event, a message). */
export function cardNamesIn(text: string): string[] {
  return text.match(CARD_NAME) ?? [];
}

export const sortedNames = (xs: readonly string[]): string[] => [...xs].sort();
export const sortedNums = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
export function sameSet<T extends string | number>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}
