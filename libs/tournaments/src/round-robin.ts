import { hashString, makeRandom } from './random.js';
import { countMeetings, evenLowerBound, evenMeetings, permutations, rotatingByes, type IndexRound } from './schedule.js';
import { checkPlayers, checkTableSize, type PlayerId, type RoundPlan, type TableSize } from './types.js';

export interface RoundRobinOptions {
  /** A fixed number of rounds instead of the one chosen as docs/tournaments.md says. */
  rounds?: number;
}

/** How many rounds beyond the minimum a round-robin may take to meet its aims. */
export const ROUND_ROBIN_EXTRA = 2;
/** Players at most: the schedule is searched, and a round-robin is for a small group. */
export const ROUND_ROBIN_MAX_PLAYERS = 40;

/** The fewest rounds in which everyone can play ⌈(n−1)/(k−1)⌉ games, byes spread evenly. */
export function roundRobinMinRounds(n: number, tableSize: TableSize): number {
  const perRound = n % tableSize;
  const games = Math.ceil((n - 1) / (tableSize - 1));
  let r = games;
  while (r - Math.ceil((r * perRound) / n) < games) r++;
  return r;
}

/**
 * Round-robin for tables of 3 or 4: every round at once. Chooses the number of rounds, then spreads
 * the meetings as evenly as it can (pair meeting counts differ by at most one whenever the search
 * finds such a schedule; docs/tournaments.md lists what it achieves), then orders each table's seats
 * so that every player's seat positions, and who sits on their left, are balanced too.
 */
export function roundRobinRounds(players: readonly PlayerId[], tableSize: TableSize, options: RoundRobinOptions = {}): RoundPlan[] {
  checkTableSize(tableSize);
  checkPlayers(players);
  const n = players.length;
  if (n < tableSize) throw new RangeError(`a round-robin needs at least ${tableSize} players, not ${n}`);
  if (n > ROUND_ROBIN_MAX_PLAYERS) throw new RangeError(`a round-robin takes at most ${ROUND_ROBIN_MAX_PLAYERS} players, not ${n}`);
  if (options.rounds !== undefined && (!Number.isInteger(options.rounds) || options.rounds < 1 || options.rounds > 1000)) {
    throw new RangeError('rounds must be a whole number from 1 to 1000');
  }
  const seed = hashString(players.join('\u0000') + `|${tableSize}`);
  let chosen: IndexRound[];
  if (options.rounds !== undefined) {
    chosen = schedule(n, tableSize, options.rounds, seed).rounds;
  } else {
    // The fewest rounds in which everyone meets everyone with counts differing by at most one; else
    // the fewest in which everyone meets everyone; looking at most ROUND_ROBIN_EXTRA rounds beyond
    // the minimum (five players at tables of three: five rounds, not four).
    const min = roundRobinMinRounds(n, tableSize);
    const tries = Array.from({ length: ROUND_ROBIN_EXTRA + 1 }, (_, extra) => schedule(n, tableSize, min + extra, seed));
    chosen = (tries.find((t) => t.everyone && t.even) ?? tries.find((t) => t.everyone) ?? tries[0]).rounds;
  }
  const seated = orderSeats(n, tableSize, chosen, seed);
  return seated.map((r) => ({ tables: r.tables.map((t) => t.map((i) => players[i])), byes: r.byes.map((i) => players[i]) }));
}

function schedule(n: number, k: TableSize, rounds: number, seed: number): { rounds: IndexRound[]; even: boolean; everyone: boolean } {
  const perRound = n % k;
  const byes = rotatingByes(n, rounds, perRound);
  const plan: IndexRound[] = byes.map((b, r) => {
    const out = new Set(b);
    // Start from a rotation of the seated players, then let the search even the meetings out.
    const seated = [...Array(n).keys()].filter((i) => !out.has(i));
    const shift = (r * (k + 1)) % seated.length;
    const rotated = [...seated.slice(shift), ...seated.slice(0, shift)];
    const tables: number[][] = [];
    for (let t = 0; t < rotated.length / k; t++) tables.push(rotated.slice(t * k, t * k + k));
    return { tables, byes: b };
  });
  const totalByes = rounds * perRound;
  const byeBounds = perRound > 0 ? { min: Math.floor(totalByes / n), max: Math.ceil(totalByes / n) } : undefined;
  const pairs = (n * (n - 1)) / 2;
  const total = plan.reduce((s, r) => s + (r.tables.length * k * (k - 1)) / 2, 0);
  const budget = Math.min(SEARCH_CAP, 40_000 + 4_000 * n * rounds);
  const start = plan.map((r) => ({ tables: r.tables.map((t) => [...t]), byes: [...r.byes] }));
  let cost = evenMeetings(n, plan, { seed, budget, byeBounds });
  // A second search from the same start when the first stalled above the bound.
  if (cost !== evenLowerBound(total, pairs)) {
    const again = start;
    const cost2 = evenMeetings(n, again, { seed: seed + 1, budget, byeBounds });
    if (cost2 < cost) {
      cost = cost2;
      plan.splice(0, plan.length, ...again);
    }
  }
  const counts = countMeetings(n, plan).values();
  return { rounds: plan, even: cost === evenLowerBound(total, pairs), everyone: Math.min(...counts) >= 1 };
}

/**
 * Seat order: every table takes one of its k! arrangements so that each player's seat positions
 * are as even as they can be (weighted first), then who plays after whom. Improves table by table
 * (the best arrangement given all the others) until nothing changes, from several starts.
 */
function orderSeats(n: number, k: number, rounds: IndexRound[], seed: number): IndexRound[] {
  const perms = permutations(k);
  const random = makeRandom(seed);
  let best: IndexRound[] = [];
  let bestScore = Infinity;
  // A few starts (the sorted order, then random arrangements): the descent can stall.
  for (let attempt = 0; attempt < SEAT_ATTEMPTS && bestScore > 0; attempt++) {
    const out = rounds.map((r) => ({
      byes: [...r.byes].sort((a, b) => a - b),
      tables: r.tables.map((t) => {
        const sorted = [...t].sort((a, b) => a - b);
        return attempt === 0 ? sorted : perms[Math.floor(random() * perms.length)].map((i) => sorted[i]);
      }),
    }));
    descend(n, k, out.flatMap((r) => r.tables), perms);
    const score = seatImbalance(n, k, out);
    if (score < bestScore) {
      bestScore = score;
      best = out;
    }
  }
  return best;
}

/** How far seat positions are from even: over players, the spread of their seat counts beyond one. */
function seatImbalance(n: number, k: number, rounds: readonly IndexRound[]): number {
  const seatCount = new Int32Array(n * k);
  for (const r of rounds) for (const t of r.tables) t.forEach((p, s) => seatCount[p * k + s]++);
  let bad = 0;
  for (let p = 0; p < n; p++) {
    const c = seatCount.subarray(p * k, p * k + k);
    bad += Math.max(0, Math.max(...c) - Math.min(...c) - 1);
  }
  return bad;
}

/** Each table in turn takes its best arrangement given all the others, until nothing changes. */
function descend(n: number, k: number, tables: number[][], perms: readonly number[][]): void {
  const seatCount = new Int32Array(n * k);
  const nextCount = new Int32Array(n * n);
  const apply = (t: readonly number[], d: number) => {
    for (let s = 0; s < k; s++) {
      seatCount[t[s] * k + s] += d;
      nextCount[t[s] * n + t[(s + 1) % k]] += d;
    }
  };
  // The cost a table adds on top of the others (seat balance weighs more than neighbours).
  const cost = (t: readonly number[]) => {
    let c = 0;
    for (let s = 0; s < k; s++) c += SEAT_WEIGHT * (2 * seatCount[t[s] * k + s] + 1) + 2 * nextCount[t[s] * n + t[(s + 1) % k]] + 1;
    return c;
  };
  for (const t of tables) apply(t, 1);
  for (let pass = 0; pass < 200; pass++) {
    let changed = false;
    for (const t of tables) {
      apply(t, -1);
      const members = [...t].sort((a, b) => a - b);
      let best = [...t];
      let bestCost = cost(t);
      for (const perm of perms) {
        const order = perm.map((i) => members[i]);
        const c = cost(order);
        if (c < bestCost) {
          bestCost = c;
          best = order;
        }
      }
      if (best.some((p, s) => p !== t[s])) {
        t.splice(0, k, ...best);
        changed = true;
      }
      apply(t, 1);
    }
    if (!changed) break;
  }
}

const SEAT_ATTEMPTS = 20;
/** Moves tried at most by one search. */
const SEARCH_CAP = 2_000_000;
const SEAT_WEIGHT = 8;
