// What the tournament screens work out from the API's answers: names by id, "your next game".
import type { TournamentQuery } from './gql/graphql';
import i18n, { formatNumber } from './i18n';

export type Rounds = TournamentQuery['tournamentRounds'];
export type Board = TournamentQuery['tournament']['boards'][number];
export type BoardResult = NonNullable<Board['results']>[number];

/** The formats the create form offers: all four the server runs (docs/tournaments.md). */
export const RUNNING_FORMATS = ['round-robin', 'swiss', 'duplicate', 'arena'] as const;

/** A format's name in the interface's language (tournaments:formatName.<name>); an unknown one as the API names it. */
export function formatName(format: string): string {
  return i18n.t(`tournaments:formatName.${format}`, { defaultValue: format });
}

/** A player's name by id, from the tournament's entrants; an id it does not know shows shortened. */
export function namesOf(players: readonly { id: string; name: string }[]): (id: string) => string {
  const names = new Map(players.map((p) => [p.id, p.name]));
  return (id) => names.get(id) ?? i18n.t('tournaments:unknownPlayer', { id: id.slice(0, 8) });
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
  return formatNumber(value, { maximumFractionDigits: 2, useGrouping: false });
}

/** The tie-breaks the API names (docs/tournaments.md, "Standings"). */
export const TIE_BREAKS = ['head-to-head', 'sonneborn-berger', 'buchholz', 'wins', 'points-per-game', 'matchpoints', 'place-points'] as const;

/** A tie-break's column name and what it counts (tournaments:tieBreak.<name>); an unknown one by its name. */
export function tieBreakWords(name: string): { short: string; long: string } {
  if (!(TIE_BREAKS as readonly string[]).includes(name)) return { short: name, long: name };
  return { short: i18n.t(`tournaments:tieBreak.${name}.short`), long: i18n.t(`tournaments:tieBreak.${name}.long`) };
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
  return percent === null ? '–' : formatNumber(Math.round(percent) / 100, { style: 'percent' });
}
