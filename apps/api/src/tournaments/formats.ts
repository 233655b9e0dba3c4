// The server's use of @mizerka/tournaments (libs/tournaments): its pairings, schedules and
// standings, fed from the tournament's rows. Pure: no database, no NestJS.
import {
  roundRobinRounds as scheduleRoundRobin,
  standings as libraryStandings,
  swissRound as pairSwiss,
  TIE_BREAKS,
  type GameResult,
  type PlayerId,
  type RoundPlan,
  type Standing,
  type TableSize,
} from '@mizerka/tournaments';

export { TIE_BREAKS, type GameResult, type PlayerId, type RoundPlan, type Standing };
export type RunningFormat = 'round-robin' | 'swiss';

/** A player who resigned or forfeited a game (withdrawal, a round's deadline) is placed last in it. */
export function gameResult(round: number, table: PlayerId[], finalScores: number[], endSeat: number | null): GameResult {
  return { round, table, finalScores, ...(endSeat !== null ? { forfeited: [table[endSeat]] } : {}) };
}

/** How often each pair of players has shared a table, as the Swiss pairing reads it. */
export function meetings(results: readonly GameResult[]): Map<PlayerId, Map<PlayerId, number>> {
  const met = new Map<PlayerId, Map<PlayerId, number>>();
  const add = (a: PlayerId, b: PlayerId) => {
    let row = met.get(a);
    if (!row) met.set(a, (row = new Map()));
    row.set(b, (row.get(b) ?? 0) + 1);
  };
  for (const r of results) for (const a of r.table) for (const b of r.table) if (a !== b) add(a, b);
  return met;
}

export function standings(format: RunningFormat, players: readonly PlayerId[], tableSize: number, games: readonly GameResult[], byes: readonly { round: number; playerId: PlayerId }[]): Standing[] {
  return libraryStandings(format, players, games, byes, { tableSize: tableSize as TableSize });
}

/** Swiss: the next round from the standings so far; the seed (the tournament and round) breaks ties the same way on every run. */
export function swissRound(active: readonly PlayerId[], tableSize: number, table: readonly Standing[], results: readonly GameResult[], seed: string): RoundPlan {
  const line = new Map(table.map((s) => [s.playerId, s]));
  const entrants = active.map((id) => ({ id, score: line.get(id)?.points ?? 0, byes: line.get(id)?.byes ?? 0 }));
  return pairSwiss(entrants, tableSize as TableSize, meetings(results), seed);
}

export function roundRobinRounds(players: readonly PlayerId[], tableSize: number, rounds?: number): RoundPlan[] {
  return scheduleRoundRobin(players, tableSize as TableSize, rounds !== undefined ? { rounds } : {});
}
