import { matchpoints, placePoints, type BoardResult } from './scoring.js';
import { checkPlayers, checkTableSize, type PlayerId, type TableSize } from './types.js';

export type Format = 'round-robin' | 'swiss' | 'arena' | 'duplicate';

/** One finished game: `table` in seat order, `finalScores` by seat. */
export interface GameResult {
  round: number;
  /** Duplicate: the board played; required there, ignored elsewhere. */
  board?: number;
  table: PlayerId[];
  finalScores: number[];
  /** Who resigned or forfeited (by the clock, or by withdrawing): placed last, whatever their total. */
  forfeited?: PlayerId[];
  bye?: false;
}

export interface Standing {
  playerId: PlayerId;
  /** 1 + the number of players strictly ahead on points and tie-breaks: equal players share a rank. */
  rank: number;
  points: number;
  /** The format's tie-breaks, in the order of TIE_BREAKS[format]; higher is better. */
  tieBreaks: number[];
  games: number;
  byes: number;
}

export interface StandingsOptions {
  /** Points for a bye (not in duplicate): the average of a game's place points, (k−1)/2, unless given. */
  byePoints?: number;
  /** Arena: after two wins in a row, a player's games count double until one is not a win. */
  arenaStreak?: boolean;
  /** The table size when no game says it (only the default bye points depend on it). */
  tableSize?: TableSize;
}

/** The tie-breaks of each format, in order (docs/tournaments.md, "Tie-breaks"); the last resort is the id. */
export const TIE_BREAKS: Readonly<Record<Format, readonly string[]>> = {
  'round-robin': ['head-to-head', 'sonneborn-berger', 'wins'],
  swiss: ['buchholz', 'head-to-head', 'wins'],
  arena: ['points-per-game', 'wins'],
  duplicate: ['matchpoints', 'place-points'],
};

const FORMATS = Object.keys(TIE_BREAKS);
const EPS = 1e-9;

interface Played {
  game: number;
  round: number;
  seat: number;
  points: number; // place points, before any streak bonus
  win: boolean;
  mates: { id: PlayerId; points: number }[];
}

/**
 * Standings of one event from its games and byes: recomputable at any time from the records.
 * Players outside `players` (bots filling a table) count for their table-mates' tie-breaks but get
 * no line.
 */
export function standings(
  format: Format,
  players: readonly PlayerId[],
  games: readonly GameResult[],
  byes: readonly { round: number; playerId: PlayerId }[],
  options: StandingsOptions = {},
): Standing[] {
  if (!FORMATS.includes(format)) throw new RangeError(`format must be one of ${FORMATS.join(', ')}`);
  checkPlayers(players);
  const played = new Map<PlayerId, Played[]>();
  const entry = (id: PlayerId) => {
    let l = played.get(id);
    if (!l) played.set(id, (l = []));
    return l;
  };
  for (const id of players) entry(id);
  let tableSize = options.tableSize;
  if (tableSize !== undefined) checkTableSize(tableSize);
  games.forEach((g, gi) => {
    const k = g.table.length;
    checkTableSize(k);
    checkPlayers(g.table, `games[${gi}].table`);
    if (g.finalScores.length !== k) throw new RangeError(`games[${gi}]: one final score per seat`);
    if (format === 'duplicate' && !Number.isInteger(g.board)) throw new RangeError(`games[${gi}]: a duplicate game names its board`);
    tableSize ??= k;
    const forfeited = new Set(g.forfeited ?? []);
    const lastSeats = g.table.flatMap((id, seat) => (forfeited.has(id) ? [seat] : []));
    const pts = placePoints(g.finalScores, k, lastSeats);
    const top = Math.max(...g.table.map((_, s) => (forfeited.has(g.table[s]) ? -Infinity : g.finalScores[s])));
    g.table.forEach((id, seat) => {
      entry(id).push({
        game: gi,
        round: g.round,
        seat,
        points: pts[seat],
        win: !forfeited.has(id) && g.finalScores[seat] === top,
        mates: g.table.flatMap((m, s) => (s === seat ? [] : [{ id: m, points: pts[s] }])),
      });
    });
  });
  const byeCount = new Map<PlayerId, number>();
  for (const b of byes) byeCount.set(b.playerId, (byeCount.get(b.playerId) ?? 0) + 1);
  const byePoints = options.byePoints ?? ((tableSize ?? 3) - 1) / 2;
  if (!Number.isFinite(byePoints)) throw new RangeError('byePoints must be a finite number');

  // Points.
  const points = new Map<PlayerId, number>();
  let duplicateTotals: ReturnType<typeof matchpoints> | null = null;
  if (format === 'duplicate') {
    const results: BoardResult[] = games.flatMap((g) => {
      const forfeited = new Set(g.forfeited ?? []);
      // A forfeited board scores below every result it is compared with.
      return g.table.map((playerId, position) => ({ board: g.board!, position, playerId, score: forfeited.has(playerId) ? -Infinity : g.finalScores[position] }));
    });
    duplicateTotals = matchpoints(results);
    for (const id of played.keys()) points.set(id, duplicateTotals.get(id)?.percentage ?? 0);
  } else {
    for (const [id, list] of played) {
      let total = 0;
      let streak = 0;
      const ordered = [...list].sort((a, b) => a.round - b.round || a.game - b.game);
      for (const p of ordered) {
        const double = format === 'arena' && options.arenaStreak === true && streak >= 2;
        total += double ? 2 * p.points : p.points;
        streak = p.win ? streak + 1 : 0;
      }
      if (format !== 'arena') total += (byeCount.get(id) ?? 0) * byePoints;
      points.set(id, total);
    }
  }

  // Tie-breaks, in order; head-to-head looks only at the players equal on everything before it.
  const names = TIE_BREAKS[format];
  const tb = new Map<PlayerId, number[]>(players.map((id) => [id, []]));
  for (const name of names) {
    // Computed for everyone before any is added: head-to-head compares the lines as they stood.
    const values = new Map<PlayerId, number>();
    for (const id of players) {
      const list = played.get(id)!;
      let value = 0;
      switch (name) {
        case 'buchholz':
          value = list.reduce((s, p) => s + p.mates.reduce((u, m) => u + (points.get(m.id) ?? 0), 0), 0);
          break;
        case 'sonneborn-berger':
          value = list.reduce((s, p) => s + p.mates.reduce((u, m) => u + (points.get(m.id) ?? 0) * beat(p.points, m.points), 0), 0);
          break;
        case 'wins':
          value = list.filter((p) => p.win).length;
          break;
        case 'points-per-game':
          value = list.length > 0 ? points.get(id)! / list.length : 0;
          break;
        case 'matchpoints':
          value = duplicateTotals?.get(id)?.matchpoints ?? 0;
          break;
        case 'place-points':
          value = list.reduce((s, p) => s + p.points, 0);
          break;
        case 'head-to-head': {
          const mine = [points.get(id)!, ...tb.get(id)!];
          const tied = new Set(players.filter((o) => o !== id && same(mine, [points.get(o)!, ...tb.get(o)!])));
          value = list.reduce((s, p) => s + p.mates.reduce((u, m) => u + (tied.has(m.id) ? beat(p.points, m.points) : 0), 0), 0);
          break;
        }
      }
      values.set(id, value);
    }
    for (const id of players) tb.get(id)!.push(values.get(id)!);
  }

  const lines = players.map((id) => ({ playerId: id, points: points.get(id)!, tieBreaks: tb.get(id)!, games: played.get(id)!.length, byes: byeCount.get(id) ?? 0 }));
  const key = (l: (typeof lines)[number]) => [l.points, ...l.tieBreaks];
  lines.sort((a, b) => compareDesc(key(a), key(b)) || (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
  const out: Standing[] = [];
  lines.forEach((l, i) => {
    const rank = i > 0 && same(key(l), key(lines[i - 1])) ? out[i - 1].rank : i + 1;
    out.push({ ...l, rank });
  });
  return out;
}

/** 1 when a game's place points beat the other's, a half when equal. */
const beat = (mine: number, theirs: number) => (mine > theirs + EPS ? 1 : Math.abs(mine - theirs) <= EPS ? 0.5 : 0);

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) <= EPS);
}

function compareDesc(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > EPS) return b[i] - a[i];
  return 0;
}
