/** Checks shared by the tests: what every plan must satisfy, whatever the format. */
import type { PlayerId, RoundPlan } from './types.js';

/** Every player exactly once per round (at a table or sitting out); tables of k. */
export function checkRound(players: readonly PlayerId[], k: number, round: RoundPlan): void {
  const seen = new Map<PlayerId, number>();
  for (const t of round.tables) {
    if (t.length !== k) throw new Error(`a table of ${t.length}, not ${k}`);
    for (const p of t) seen.set(p, (seen.get(p) ?? 0) + 1);
  }
  for (const p of round.byes) seen.set(p, (seen.get(p) ?? 0) + 1);
  for (const p of players) if (seen.get(p) !== 1) throw new Error(`${p} appears ${seen.get(p) ?? 0} times in a round`);
  if (seen.size !== players.length) throw new Error('a round seats someone who is not a player');
}

/** Pair meeting counts (every pair of players, met or not), keyed "a|b" with a < b. */
export function meetingCounts(players: readonly PlayerId[], tables: readonly (readonly PlayerId[])[]): Map<string, number> {
  const sorted = [...players].sort();
  const counts = new Map<string, number>();
  for (let i = 0; i < sorted.length; i++) for (let j = i + 1; j < sorted.length; j++) counts.set(`${sorted[i]}|${sorted[j]}`, 0);
  for (const t of tables) {
    for (let i = 0; i < t.length; i++) {
      for (let j = i + 1; j < t.length; j++) {
        const key = t[i] < t[j] ? `${t[i]}|${t[j]}` : `${t[j]}|${t[i]}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  return counts;
}

export function spread(values: Iterable<number>): { min: number; max: number } {
  const v = [...values];
  return { min: Math.min(...v), max: Math.max(...v) };
}

export const ids = (n: number, prefix = 'p'): PlayerId[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
