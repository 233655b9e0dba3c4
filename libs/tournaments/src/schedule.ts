/**
 * The local search behind round-robin and duplicate schedules: players are indices 0..n-1, a
 * schedule is rounds of tables (and byes), and the search swaps two players of one round to make
 * the pair meeting counts as even as possible. Evenness is measured by a sum over pairs of a convex
 * cost of the meeting count (meetingCost): the seats are fixed, so the total of the counts is fixed,
 * and the sum is at its lower bound exactly when all counts differ by at most one.
 */
import { makeRandom } from './random.js';

export interface IndexRound {
  tables: number[][];
  byes: number[];
}

export class PairCounts {
  readonly counts: Int32Array;
  constructor(readonly n: number) {
    this.counts = new Int32Array(n * n);
  }
  get(a: number, b: number): number {
    return this.counts[a * this.n + b];
  }
  add(a: number, b: number, d: number): void {
    this.counts[a * this.n + b] += d;
    this.counts[b * this.n + a] += d;
  }
  addTable(table: readonly number[], d = 1): void {
    for (let i = 0; i < table.length; i++) for (let j = i + 1; j < table.length; j++) this.add(table[i], table[j], d);
  }
  cost(): number {
    let s = 0;
    for (let a = 0; a < this.n; a++) for (let b = a + 1; b < this.n; b++) s += meetingCost(this.get(a, b));
    return s;
  }
  /** The pair counts (a < b) as a flat list. */
  values(): number[] {
    const out: number[] = [];
    for (let a = 0; a < this.n; a++) for (let b = a + 1; b < this.n; b++) out.push(this.get(a, b));
    return out;
  }
}

/**
 * The cost of a pair that met c times: c³, convex so that spreading meetings evenly pays (steeper
 * than c², which left pairs meeting in every round at the same cost as an even spread), and a
 * pair that never meets costs as much as one meeting three times.
 */
export function meetingCost(c: number): number {
  return c === 0 ? NEVER_MET : c * c * c;
}
const NEVER_MET = 27;

/** The least possible cost when `total` meetings are spread over `pairs` pairs: counts q and q+1. */
export function evenLowerBound(total: number, pairs: number): number {
  const q = Math.floor(total / pairs);
  const rem = total - q * pairs;
  return rem * meetingCost(q + 1) + (pairs - rem) * meetingCost(q);
}

export function countMeetings(n: number, rounds: readonly IndexRound[]): PairCounts {
  const c = new PairCounts(n);
  for (const r of rounds) for (const t of r.tables) c.addTable(t);
  return c;
}

export interface SearchOptions {
  seed: number;
  /** Moves tried at most. */
  budget: number;
  /** Swap only players at the same index (seat position) of their tables (duplicate). */
  samePosition?: boolean;
  /** Also swap a seated player with one who sits out, keeping every player's bye count in [min, max]. */
  byeBounds?: { min: number; max: number };
  /** Annealing temperatures, from start to end (defaults 10 and 0.3: tried against 1.5 to 50 on hard cases). */
  temperatures?: [number, number];
}

/**
 * Simulated annealing on the meeting cost; changes `rounds` in place to the best schedule seen and
 * returns its cost. Deterministic for a given seed.
 */
export function evenMeetings(n: number, rounds: IndexRound[], opts: SearchOptions): number {
  const counts = countMeetings(n, rounds);
  const lower = evenLowerBound(
    rounds.reduce((s, r) => s + r.tables.reduce((u, t) => u + (t.length * (t.length - 1)) / 2, 0), 0),
    (n * (n - 1)) / 2,
  );
  let cost = counts.cost();
  let best = cost;
  let bestRounds = rounds.map((r) => ({ tables: r.tables.map((t) => [...t]), byes: [...r.byes] }));
  if (cost === lower) return cost;
  const byeCount = new Int32Array(n);
  for (const r of rounds) for (const p of r.byes) byeCount[p]++;
  const random = makeRandom(opts.seed);
  const pick = (m: number) => Math.floor(random() * m);
  const swappable = rounds.map((r, i) => ({ i, groups: r.tables.length + (opts.byeBounds && r.byes.length > 0 ? 1 : 0) })).filter((r) => r.groups >= 2);
  if (swappable.length === 0) return cost;
  const [startTemp, endTemp] = opts.temperatures ?? [10, 0.3];
  for (let step = 0; step < opts.budget; step++) {
    const temp = startTemp * (endTemp / startTemp) ** (step / opts.budget);
    const { i: ri, groups } = swappable[pick(swappable.length)];
    const round = rounds[ri];
    const g1 = pick(groups);
    let g2 = pick(groups - 1);
    if (g2 >= g1) g2++;
    const A = round.tables[g1] ?? round.byes;
    const B = round.tables[g2] ?? round.byes;
    const aIsBye = g1 >= round.tables.length;
    const bIsBye = g2 >= round.tables.length;
    let ia: number;
    let ib: number;
    if (opts.samePosition && !aIsBye && !bIsBye) {
      ia = pick(A.length);
      ib = ia;
    } else {
      ia = pick(A.length);
      ib = pick(B.length);
    }
    const x = A[ia];
    const y = B[ib];
    if (aIsBye || bIsBye) {
      // x moves to B's group and y to A's: bye counts change for both.
      const bounds = opts.byeBounds!;
      const out = aIsBye ? x : y; // leaves the byes
      const inn = aIsBye ? y : x; // joins the byes
      if (byeCount[out] - 1 < bounds.min || byeCount[inn] + 1 > bounds.max) continue;
    }
    let delta = 0;
    if (!aIsBye) for (const a of A) if (a !== x) delta += change(counts.get(x, a), -1) + change(counts.get(y, a), 1);
    if (!bIsBye) for (const b of B) if (b !== y) delta += change(counts.get(y, b), -1) + change(counts.get(x, b), 1);
    if (delta > 0 && random() >= Math.exp(-delta / temp)) continue;
    if (!aIsBye) for (const a of A) if (a !== x) {
      counts.add(x, a, -1);
      counts.add(y, a, 1);
    }
    if (!bIsBye) for (const b of B) if (b !== y) {
      counts.add(y, b, -1);
      counts.add(x, b, 1);
    }
    A[ia] = y;
    B[ib] = x;
    if (aIsBye) {
      byeCount[x]--;
      byeCount[y]++;
    }
    if (bIsBye) {
      byeCount[y]--;
      byeCount[x]++;
    }
    cost += delta;
    if (cost < best) {
      best = cost;
      bestRounds = rounds.map((r) => ({ tables: r.tables.map((t) => [...t]), byes: [...r.byes] }));
      if (best === lower) break;
    }
  }
  rounds.splice(0, rounds.length, ...bestRounds);
  return best;
}

const change = (c: number, d: number) => meetingCost(c + d) - meetingCost(c);

/** Byes spread evenly: round r's byes are the next `perRound` players in a circular order. */
export function rotatingByes(n: number, rounds: number, perRound: number): number[][] {
  const out: number[][] = [];
  for (let r = 0; r < rounds; r++) {
    const b: number[] = [];
    for (let i = 0; i < perRound; i++) b.push((r * perRound + i) % n);
    out.push(b);
  }
  return out;
}

/** All permutations of 0..k-1 in lexicographic order (k ≤ 4). */
export function permutations(k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(k - 1)) {
    for (let i = 0; i <= rest.length; i++) out.push([...rest.slice(0, i), k - 1, ...rest.slice(i)]);
  }
  return out.sort((a, b) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  });
}
