// What the tournament screens work out from the API's answers: names by id, "your next game".
import type { TournamentQuery } from './gql/graphql';

export type Rounds = TournamentQuery['tournamentRounds'];

export const FORMAT_NAMES: Record<string, string> = {
  'round-robin': 'Round-robin',
  swiss: 'Swiss',
  arena: 'Arena',
  duplicate: 'Duplicate',
};

/** The formats the server runs today (docs/tournaments.md: arena and duplicate are refused by name). */
export const RUNNING_FORMATS = ['round-robin', 'swiss'] as const;

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

/** Points as the standings print them: whole numbers plain, a bye's half with one decimal. */
export function points(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
