// The server's use of @mizerka/tournaments (libs/tournaments): its pairings, schedules and
// standings, fed from the tournament's rows. Pure: no database, no NestJS.
import {
  arenaTables as seatArena,
  duplicateRounds as scheduleDuplicate,
  matchpoints,
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
export type RunningFormat = 'round-robin' | 'swiss' | 'duplicate' | 'arena';

/** A player who resigned or forfeited a game (withdrawal, a round's deadline) is placed last in it. */
export function gameResult(round: number, table: PlayerId[], finalScores: number[], endSeat: number | null, board: number | null = null): GameResult {
  return { round, table, finalScores, ...(endSeat !== null ? { forfeited: [table[endSeat]] } : {}), ...(board !== null ? { board } : {}) };
}

/** Duplicate: the schedule of `boards` rounds for the starting field, round n playing board n. */
export function duplicateRounds(players: readonly PlayerId[], tableSize: number, boards: number): RoundPlan[] {
  const plan = scheduleDuplicate(players, tableSize as TableSize, boards);
  return plan.rounds.map((r, i) => ({ tables: r.tables, byes: plan.byes[i] }));
}

export interface BoardLine {
  position: number;
  playerId: PlayerId;
  score: number;
  matchpoints: number;
  tops: number;
}

/**
 * One board's comparison: each result against the others of its seat position (the same cards),
 * as the standings count it (a forfeited result below every other). `games` all played this board.
 */
export function boardComparison(games: readonly GameResult[]): BoardLine[] {
  const lines = games.flatMap((g) => {
    const forfeited = new Set(g.forfeited ?? []);
    return g.table.map((playerId, position) => ({ board: 0, position, playerId, score: g.finalScores[position], ranked: forfeited.has(playerId) ? -Infinity : g.finalScores[position] }));
  });
  const out: BoardLine[] = [];
  for (const position of [...new Set(lines.map((l) => l.position))].sort((a, b) => a - b)) {
    const group = lines.filter((l) => l.position === position);
    const totals = matchpoints(group.map((l) => ({ board: 0, position, playerId: l.playerId, score: l.ranked })));
    for (const l of group) out.push({ position, playerId: l.playerId, score: l.score, matchpoints: totals.get(l.playerId)!.matchpoints, tops: totals.get(l.playerId)!.tops });
  }
  return out;
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

export function standings(format: RunningFormat, players: readonly PlayerId[], tableSize: number, games: readonly GameResult[], byes: readonly { round: number; playerId: PlayerId }[], arenaStreak = false): Standing[] {
  return libraryStandings(format, players, games, byes, { tableSize: tableSize as TableSize, arenaStreak });
}

/**
 * Arena: the tables that sit down now from the waiting players (scores from the standings so far;
 * `lastTableMates`, who sat at the player's last table, kept apart from them while others wait).
 */
export function arenaTables(waiting: readonly { id: PlayerId; score: number; waitingSince: Date; lastTableMates?: readonly PlayerId[] }[], tableSize: number, now: Date, maxWaitMs: number): PlayerId[][] {
  return seatArena(
    waiting.map((w) => ({ id: w.id, score: w.score, waitingSince: w.waitingSince.getTime(), lastTableMates: w.lastTableMates ?? [] })),
    tableSize as TableSize,
    now.getTime(),
    maxWaitMs,
  );
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
