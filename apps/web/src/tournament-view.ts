// What the tournament screens work out from the API's answers: names by id, "your next game".
import type { TournamentQuery } from './gql/graphql';

export type Rounds = TournamentQuery['tournamentRounds'];
export type Board = TournamentQuery['tournament']['boards'][number];
export type BoardResult = NonNullable<Board['results']>[number];

export const FORMAT_NAMES: Record<string, string> = {
  'round-robin': 'Round-robin',
  swiss: 'Swiss',
  arena: 'Arena',
  duplicate: 'Duplicate',
};

/** The formats the create form offers: all four the server runs (docs/tournaments.md). */
export const RUNNING_FORMATS = ['round-robin', 'swiss', 'duplicate', 'arena'] as const;

export function formatName(format: string): string {
  return FORMAT_NAMES[format] ?? format;
}

/** A player's name by id, from the tournament's entrants; an id it does not know shows shortened. */
export function namesOf(players: readonly { id: string; name: string }[]): (id: string) => string {
  const names = new Map(players.map((p) => [p.id, p.name]));
  return (id) => names.get(id) ?? `player ${id.slice(0, 8)}`;
}

export type NextGame =
  | { kind: 'play'; gameId: string; round: number; /** The API's table index, from 0. */ table: number }
  | { kind: 'bye'; round: number }
  | { kind: 'wait'; round: number }
  | { kind: 'none' };

/**
 * What the player does next in a running tournament: the game of theirs still under way (the
 * latest round first), a bye this round, or waiting for the round's other tables to finish.
 */
export function nextGame(rounds: Rounds, myId: string, status: string): NextGame {
  if (status !== 'running') return { kind: 'none' };
  const latest = [...rounds].sort((a, b) => b.number - a.number);
  for (const round of latest) {
    for (const table of round.tables) {
      if (table.status === 'active' && table.players.includes(myId)) return { kind: 'play', gameId: table.gameId, round: round.number, table: table.table };
    }
  }
  const current = latest[0];
  if (!current) return { kind: 'none' };
  if (current.byes.includes(myId)) return { kind: 'bye', round: current.number };
  return { kind: 'wait', round: current.number };
}

/** Points as the standings print them: whole numbers plain, halves and quarters with their decimals. */
export function points(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
}

/** The tie-breaks the API names (docs/tournaments.md, "Standings"): a column's short name and what it counts. */
export const TIE_BREAK_WORDS: Record<string, { short: string; long: string }> = {
  'head-to-head': { short: 'H2H', long: 'head-to-head: table-mates equal so far whom the player finished above' },
  'sonneborn-berger': { short: 'SB', long: 'Sonneborn–Berger: the points of the table-mates beaten, half of those tied' },
  buchholz: { short: 'Buchholz', long: "Buchholz: the sum of the table-mates' points" },
  wins: { short: 'Wins', long: 'wins: games finished first' },
  'points-per-game': { short: 'Per game', long: 'points per game' },
  matchpoints: { short: 'MP', long: 'matchpoints' },
  'place-points': { short: 'Place pts', long: 'place points' },
};

export function tieBreakWords(name: string): { short: string; long: string } {
  return TIE_BREAK_WORDS[name] ?? { short: name, long: name };
}

/** A result on a board as its comparison table shows it; percent is null where there was no one to compare with. */
export type ComparedResult = BoardResult & { percent: number | null };

/**
 * A released board's comparison: one group per seat position (the same cards at every table), in
 * position order, each best first (most matchpoints, then the higher score).
 */
export function boardComparison(results: readonly BoardResult[]): { position: number; results: ComparedResult[] }[] {
  const byPosition = new Map<number, ComparedResult[]>();
  for (const r of results) {
    const group = byPosition.get(r.position) ?? [];
    group.push({ ...r, percent: r.tops > 0 ? (100 * r.matchpoints) / r.tops : null });
    byPosition.set(r.position, group);
  }
  return [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .map(([position, group]) => ({ position, results: group.sort((a, b) => b.matchpoints - a.matchpoints || b.score - a.score) }));
}

/** A percentage of tops as the comparison prints it: whole percent, a dash with nobody to compare with. */
export function percentOfTops(percent: number | null): string {
  return percent === null ? '–' : `${Math.round(percent)}%`;
}
