import { hashString, makeRandom } from './random.js';
import { checkPlayers, checkTableSize, type PlayerId, type RoundPlan, type TableSize } from './types.js';

export interface SwissEntrant {
  id: PlayerId;
  score: number;
  byes: number;
}

/** How often two players have already sat at one table: met.get(a)?.get(b) (or the other way round). */
export type Meetings = ReadonlyMap<PlayerId, ReadonlyMap<PlayerId, number>>;

/** Above this many ways to split the seated players into tables the search is local, not exhaustive. */
export const SWISS_EXACT_LIMIT = 20_000;

/**
 * One Swiss round (the rule is docs/tournaments.md, "Swiss"):
 * 1. rank the entrants by score, highest first, equal scores in an order drawn from `seed`;
 * 2. the n mod k byes go to the players with the fewest byes so far, the lowest-ranked among them;
 * 3. the others are split into tables minimising, in this order: the repeated meetings (over every
 *    table, the sum of its pairs' previous meetings), the score spread (over every table, the sum of
 *    its pairs' score differences), and then the split that fills tables from the top of the ranking.
 *    Exhaustive while there are at most SWISS_EXACT_LIMIT splits; a greedy fill from the top and
 *    improving swaps beyond;
 * 4. each table's seat order is drawn from `seed`; tables are listed from the top.
 */
export interface SwissOptions {
  /** Exhaustive search up to this many splits (default SWISS_EXACT_LIMIT); 0 always searches locally. */
  exactLimit?: number;
}

export function swissRound(entrants: readonly SwissEntrant[], tableSize: TableSize, met: Meetings, seed = '', options: SwissOptions = {}): RoundPlan {
  checkTableSize(tableSize);
  checkPlayers(entrants.map((e) => e.id), 'entrants');
  for (const e of entrants) {
    if (!Number.isFinite(e.score)) throw new RangeError(`entrants: ${e.id} has no finite score`);
    if (!Number.isInteger(e.byes) || e.byes < 0) throw new RangeError(`entrants: ${e.id} has a bad bye count`);
  }
  const order = swissOrder(entrants, seed);
  const byeCount = order.length % tableSize;
  const byes = new Set(
    order
      .map((e, rank) => ({ e, rank }))
      .sort((a, b) => a.e.byes - b.e.byes || b.rank - a.rank)
      .slice(0, byeCount)
      .map((x) => x.e.id),
  );
  const seated = order.filter((e) => !byes.has(e.id));
  const groups = splitTables(seated, tableSize, met, options.exactLimit ?? SWISS_EXACT_LIMIT);
  const tables = groups.map((g, t) =>
    g
      .map((i) => seated[i].id)
      .sort((a, b) => hashString(`${seed}\u0000seat\u0000${t}\u0000${a}`) - hashString(`${seed}\u0000seat\u0000${t}\u0000${b}`) || cmp(a, b)),
  );
  return { tables, byes: order.filter((e) => byes.has(e.id)).map((e) => e.id) };
}

/** Step 1: by score, highest first; equal scores by a hash of (seed, id), then by id. */
export function swissOrder<T extends { id: PlayerId; score: number }>(entrants: readonly T[], seed = ''): T[] {
  const key = new Map(entrants.map((e) => [e.id, hashString(`${seed}\u0000${e.id}`)]));
  return [...entrants].sort((a, b) => b.score - a.score || key.get(a.id)! - key.get(b.id)! || cmp(a.id, b.id));
}

export function meetingsOf(met: Meetings, a: PlayerId, b: PlayerId): number {
  return met.get(a)?.get(b) ?? met.get(b)?.get(a) ?? 0;
}

/** The two costs a split minimises, in order: repeated meetings, then score spread. */
export function tableCost(table: readonly { id: PlayerId; score: number }[], met: Meetings): [number, number] {
  let repeats = 0;
  let spread = 0;
  for (let i = 0; i < table.length; i++) {
    for (let j = i + 1; j < table.length; j++) {
      repeats += meetingsOf(met, table[i].id, table[j].id);
      spread += Math.abs(table[i].score - table[j].score);
    }
  }
  return [repeats, spread];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const EPS = 1e-9;
const better = (a: readonly number[], b: readonly number[]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1] - EPS);

/** The number of ways to split n players into tables of k. */
export function splitCount(n: number, k: number): number {
  let count = 1;
  for (let left = n; left > k; left -= k) {
    // The top player's table-mates among the others, then the rest.
    let c = 1;
    for (let i = 0; i < k - 1; i++) c = (c * (left - 1 - i)) / (i + 1);
    count *= c;
    if (count > 1e15) return Infinity;
  }
  return count;
}

/** Indices into `seated` (rank order), table by table from the top. */
function splitTables(seated: readonly SwissEntrant[], k: number, met: Meetings, exactLimit: number): number[][] {
  const n = seated.length;
  if (n === 0) return [];
  // Pair costs looked up once: the searches evaluate tables many times over.
  const repeats = new Float64Array(n * n);
  const spreads = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      repeats[a * n + b] = repeats[b * n + a] = meetingsOf(met, seated[a].id, seated[b].id);
      spreads[a * n + b] = spreads[b * n + a] = Math.abs(seated[a].score - seated[b].score);
    }
  }
  const costOf = (t: readonly number[]): [number, number] => {
    let r = 0;
    let s = 0;
    for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) {
      r += repeats[t[i] * n + t[j]];
      s += spreads[t[i] * n + t[j]];
    }
    return [r, s];
  };
  if (splitCount(n, k) <= exactLimit) return exactSplit(n, k, costOf);
  return localSplit(n, k, costOf);
}

/** Branch and bound over every split; the first best found is the one that fills from the top. */
function exactSplit(n: number, k: number, costOf: (t: readonly number[]) => [number, number]): number[][] {
  let best: number[][] = [];
  let bestCost: [number, number] = [Infinity, Infinity];
  const used = new Array<boolean>(n).fill(false);
  const current: number[][] = [];
  const go = (cost: [number, number]) => {
    // Costs only grow as tables are added: a partial split no better than the best is dropped.
    if (!better(cost, bestCost)) return;
    const top = used.indexOf(false);
    if (top < 0) {
      best = current.map((t) => [...t]);
      bestCost = cost;
      return;
    }
    used[top] = true;
    const rest: number[] = [];
    for (let i = top + 1; i < n; i++) if (!used[i]) rest.push(i);
    const pick = (from: number, table: number[]) => {
      if (table.length === k) {
        const c = costOf(table);
        current.push([...table]);
        go([cost[0] + c[0], cost[1] + c[1]]);
        current.pop();
        return;
      }
      for (let i = from; i <= rest.length - (k - table.length); i++) {
        used[rest[i]] = true;
        table.push(rest[i]);
        pick(i + 1, table);
        table.pop();
        used[rest[i]] = false;
      }
    };
    pick(0, [top]);
    used[top] = false;
  };
  go([0, 0]);
  return best;
}

/** Swaps of two players between two tables while one lowers (repeats, spread); returns the total. */
function descend(tables: number[][], k: number, costOf: (t: readonly number[]) => [number, number]): [number, number] {
  const costs = tables.map(costOf);
  for (let pass = 0; pass < 50; pass++) {
    let improved = false;
    for (let a = 0; a < tables.length; a++) {
      for (let b = a + 1; b < tables.length; b++) {
        for (let i = 0; i < k; i++) {
          for (let j = 0; j < k; j++) {
            const ta = [...tables[a]];
            const tb = [...tables[b]];
            [ta[i], tb[j]] = [tb[j], ta[i]];
            const ca = costOf(ta);
            const cb = costOf(tb);
            const before: [number, number] = [costs[a][0] + costs[b][0], costs[a][1] + costs[b][1]];
            if (better([ca[0] + cb[0], ca[1] + cb[1]], before)) {
              tables[a] = ta;
              tables[b] = tb;
              costs[a] = ca;
              costs[b] = cb;
              improved = true;
            }
          }
        }
      }
    }
    if (!improved) break;
  }
  return costs.reduce<[number, number]>((s, c) => [s[0] + c[0], s[1] + c[1]], [0, 0]);
}

const seedOf = (n: number, k: number) => hashString(`swiss-local|${n}|${k}`);

/** Greedy fill from the top (each table's mates among the next few), then improving swaps. */
function localSplit(n: number, k: number, costOf: (t: readonly number[]) => [number, number]): number[][] {
  const window = 3 * k;
  const free: number[] = [...Array(n).keys()];
  const tables: number[][] = [];
  while (free.length > 0) {
    const top = free.shift()!;
    const cands = free.slice(0, Math.min(window, free.length));
    let best: number[] | null = null;
    let bestCost: [number, number] = [Infinity, Infinity];
    const pick = (from: number, mates: number[]) => {
      if (mates.length === k - 1) {
        const c = costOf([top, ...mates]);
        if (best === null || better(c, bestCost)) {
          best = [...mates];
          bestCost = c;
        }
        return;
      }
      for (let i = from; i <= cands.length - (k - 1 - mates.length); i++) {
        mates.push(cands[i]);
        pick(i + 1, mates);
        mates.pop();
      }
    };
    pick(0, []);
    const mates: number[] = best!;
    for (const m of mates) free.splice(free.indexOf(m), 1);
    tables.push([top, ...mates].sort((a, b) => a - b));
  }
  let best = tables;
  let bestCost = descend(best, k, costOf);
  // Iterated local search on small and middle-sized events: a few random swaps, descend again,
  // keep what is better (a plain descent missed the fewest repeats in 2% of rounds of 7-12 players).
  const kicks = best.length < 2 ? 0 : n <= 40 ? 40 : n <= 120 ? 8 : 0;
  const random = makeRandom(seedOf(n, k));
  for (let kick = 0; kick < kicks && bestCost[0] + bestCost[1] > 0; kick++) {
    const trial = best.map((t) => [...t]);
    for (let m = 0; m < 3; m++) {
      const a = Math.floor(random() * trial.length);
      let b = Math.floor(random() * (trial.length - 1));
      if (b >= a) b++;
      const i = Math.floor(random() * k);
      const j = Math.floor(random() * k);
      [trial[a][i], trial[b][j]] = [trial[b][j], trial[a][i]];
    }
    const c = descend(trial, k, costOf);
    if (better(c, bestCost)) {
      best = trial;
      bestCost = c;
    }
  }
  const tablesOut = best;
  return tablesOut.map((t) => [...t].sort((x, y) => x - y)).sort((x, y) => x[0] - y[0]);
}
