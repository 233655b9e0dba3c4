import { checkTableSize, type PlayerId, type TableSize } from './types.js';

/**
 * Place points of one game (docs/tournaments.md, "Place points"): place i of k is worth k − i
 * (3 players: 2, 1, 0; 4 players: 3, 2, 1, 0). Places follow docs/rules.md: the higher total is
 * better, and seats that resigned or forfeited (`lastSeats`) are placed below everyone, whatever their
 * total. Equal totals share their places' points equally (totals 4, 4, −8 give 1.5, 1.5, 0), so a
 * game always hands out k(k−1)/2 points.
 */
export function placePoints(finalScores: readonly number[], tableSize: TableSize, lastSeats: readonly number[] = []): number[] {
  checkTableSize(tableSize);
  if (finalScores.length !== tableSize) throw new RangeError(`finalScores must have ${tableSize} entries, not ${finalScores.length}`);
  for (const s of finalScores) if (!Number.isFinite(s)) throw new RangeError('finalScores must be finite numbers');
  for (const s of lastSeats) if (!Number.isInteger(s) || s < 0 || s >= tableSize) throw new RangeError(`lastSeats: ${String(s)} is not a seat`);
  const last = new Set(lastSeats);
  // Sort key: those who stayed first, then by total; equal keys share.
  const key = (seat: number): [number, number] => [last.has(seat) ? 1 : 0, -finalScores[seat]];
  const same = (a: number, b: number) => key(a)[0] === key(b)[0] && (key(a)[0] === 1 || key(a)[1] === key(b)[1]);
  const order = [...Array(tableSize).keys()].sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
  const points = new Array<number>(tableSize).fill(0);
  for (let i = 0; i < tableSize; ) {
    let j = i;
    while (j + 1 < tableSize && same(order[i], order[j + 1])) j++;
    // Places i+1 .. j+1 are worth tableSize-1-i .. tableSize-1-j: their average.
    const share = tableSize - 1 - (i + j) / 2;
    for (let x = i; x <= j; x++) points[order[x]] = share;
    i = j + 1;
  }
  return points;
}

/** One result on one board: `position` is the seat position, the same cards at every table. */
export interface BoardResult {
  board: number;
  position: number;
  playerId: PlayerId;
  score: number;
}

export interface MatchpointTotal {
  /** One for each result beaten, a half for each tied, among those who held the same cards. */
  matchpoints: number;
  /** The most that could have been scored: the number of results compared with. */
  tops: number;
  /** 100 × matchpoints / tops; 50 when nothing was compared. */
  percentage: number;
}

/**
 * Matchpoints as in duplicate bridge: a result is compared with every other result of the same
 * board and seat position, so skill, not the cards, decides.
 */
export function matchpoints(results: readonly BoardResult[]): Map<PlayerId, MatchpointTotal> {
  const groups = new Map<string, BoardResult[]>();
  for (const r of results) {
    if (Number.isNaN(r.score) || r.score === Infinity) throw new RangeError(`results: ${r.playerId} has no score`);
    const key = `${r.board}\u0000${r.position}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(r);
  }
  const out = new Map<PlayerId, MatchpointTotal>();
  for (const r of results) if (!out.has(r.playerId)) out.set(r.playerId, { matchpoints: 0, tops: 0, percentage: 50 });
  for (const g of groups.values()) {
    for (const r of g) {
      const t = out.get(r.playerId)!;
      for (const o of g) {
        if (o === r) continue;
        t.tops += 1;
        if (r.score > o.score) t.matchpoints += 1;
        else if (r.score === o.score) t.matchpoints += 0.5;
      }
    }
  }
  for (const t of out.values()) t.percentage = t.tops > 0 ? (100 * t.matchpoints) / t.tops : 50;
  return out;
}
