export type PlayerId = string;
export type TableSize = 3 | 4;

/** One round: the tables, each in seat order (index = seat), and who sits out. */
export interface RoundPlan {
  tables: PlayerId[][];
  byes: PlayerId[];
}

/** Checks shared by every entry point: a bad call is a programming error, so it throws. */
export function checkTableSize(tableSize: number): asserts tableSize is TableSize {
  if (tableSize !== 3 && tableSize !== 4) throw new RangeError(`tableSize must be 3 or 4, not ${String(tableSize)}`);
}

export function checkPlayers(players: readonly PlayerId[], what = 'players'): void {
  const seen = new Set<string>();
  for (const p of players) {
    if (typeof p !== 'string' || p.length === 0) throw new RangeError(`${what}: every id must be a non-empty string`);
    if (seen.has(p)) throw new RangeError(`${what}: ${p} is listed twice`);
    seen.add(p);
  }
}
