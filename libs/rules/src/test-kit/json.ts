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

export const sameJson = (a: unknown, b: unknown): boolean => canon(a) === canon(b);

const CARD_NAME = /\b[2-9TJQKA][CDHS]\b/g;

/** Every card name written anywhere in a text (JSON of a view, an event, a message). */
export function cardNamesIn(text: string): string[] {
  return text.match(CARD_NAME) ?? [];
}

export const sortedNames = (xs: readonly string[]): string[] => [...xs].sort();
export const sortedNums = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
export const sameSet = <T extends string | number>(a: readonly T[], b: readonly T[]): boolean =>
  a.length === b.length && canon([...a].sort()) === canon([...b].sort());
