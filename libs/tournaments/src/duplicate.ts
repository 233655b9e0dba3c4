import { hashString, makeRandom } from './random.js';
import { evenLowerBound, evenMeetings, meetingCost, PairCounts, rotatingByes, type IndexRound } from './schedule.js';
import { checkPlayers, checkTableSize, type PlayerId, type TableSize } from './types.js';

export interface DuplicatePlan {
  /** Round r plays board r at every table; a table's seat position is the index in its list. */
  rounds: { board: number; tables: PlayerId[][] }[];
  /** byes[r]: who sits out round r (and so never holds board r). */
  byes: PlayerId[][];
}

/**
 * Duplicate: one round per board, every table playing it (docs/tournaments.md, "Duplicate").
 * Each seated player holds the board once; over the event each player's seat positions are as even
 * as the search makes them (counts differ by at most one in every tested case), byes rotate, and
 * table-mates vary: the same even-meetings search as the round-robin, swapping only players of the
 * same position so positions stay put. Needs two tables at least, or no result would be compared.
 */
export function duplicateRounds(players: readonly PlayerId[], tableSize: TableSize, boards: number): DuplicatePlan {
  checkTableSize(tableSize);
  checkPlayers(players);
  const n = players.length;
  if (!Number.isInteger(boards) || boards < 1 || boards > 1000) throw new RangeError('boards must be a whole number from 1 to 1000');
  if (n < 2 * tableSize) throw new RangeError(`duplicate needs two tables, ${2 * tableSize} players at least, not ${n}`);
  const k = tableSize;
  const tablesPerRound = Math.floor(n / k);
  const byes = rotatingByes(n, boards, n % k);
  const seed = hashString(`${players.join('\u0000')}|${k}|${boards}`);

  // Positions: seated player j of round r starts at (j + r) mod k, then swaps even the counts out.
  const posCount = new Int32Array(n * k);
  const positions: Map<number, number>[] = byes.map((b, r) => {
    const out = new Set(b);
    const seated = [...Array(n).keys()].filter((i) => !out.has(i));
    const m = new Map(seated.map((p, j) => [p, (j + r) % k]));
    for (const [p, pos] of m) posCount[p * k + pos]++;
    return m;
  });
  for (let pass = 0; pass < 100; pass++) {
    let improved = false;
    for (const m of positions) {
      const seated = [...m.keys()];
      for (let i = 0; i < seated.length; i++) {
        for (let j = i + 1; j < seated.length; j++) {
          const x = seated[i];
          const y = seated[j];
          const px = m.get(x)!;
          const py = m.get(y)!;
          if (px === py) continue;
          const delta = 2 * (posCount[x * k + py] - posCount[x * k + px]) + 2 + 2 * (posCount[y * k + px] - posCount[y * k + py]) + 2;
          if (delta >= 0) continue;
          posCount[x * k + px]--;
          posCount[x * k + py]++;
          posCount[y * k + py]--;
          posCount[y * k + px]++;
          m.set(x, py);
          m.set(y, px);
          improved = true;
        }
      }
    }
    if (!improved) break;
  }

  // Tables: table t takes the t-th holder of each position, the lists shifted per round and position.
  const plan: IndexRound[] = positions.map((m, r) => {
    const holders: number[][] = Array.from({ length: k }, () => []);
    for (const [p, pos] of m) holders[pos].push(p);
    const tables: number[][] = [];
    for (let t = 0; t < tablesPerRound; t++) tables.push(holders.map((h, pos) => h[(t + pos * r) % tablesPerRound]));
    return { tables, byes: byes[r] };
  });
  evenMeetings(n, plan, { seed, budget: Math.min(SEARCH_CAP, 20_000 + 2_000 * n * boards), samePosition: true });
  evenTogether(n, k, plan, seed);
  return {
    rounds: plan.map((r, board) => ({ board, tables: r.tables.map((t) => t.map((i) => players[i])) })),
    byes: plan.map((r) => r.byes.map((i) => players[i])),
  };
}

/** Positions weigh more than table-mates: every player should hold each position about as often. */
const POSITION_WEIGHT = 3;
/** Moves tried at most by each search pass: bounds the time of a large event (about a second). */
const SEARCH_CAP = 3_000_000;

/**
 * The second pass: table-mates and positions together. Any two seats of a round may swap (two
 * tables, or two positions at one table), the cost being the meeting cost plus POSITION_WEIGHT times
 * the sum of squared position counts. Simulated annealing from the first pass's plan, keeping the
 * best seen; deterministic for the seed.
 */
function evenTogether(n: number, k: number, rounds: IndexRound[], seed: number): void {
  const counts = new PairCounts(n);
  const pos = new Int32Array(n * k);
  const games = new Int32Array(n);
  for (const r of rounds) {
    for (const t of r.tables) {
      counts.addTable(t);
      t.forEach((p, s) => {
        pos[p * k + s]++;
        games[p]++;
      });
    }
  }
  const posCost = () => {
    let c = 0;
    for (let i = 0; i < pos.length; i++) c += pos[i] * pos[i];
    return c;
  };
  let posLower = 0;
  for (let p = 0; p < n; p++) {
    const q = Math.floor(games[p] / k);
    const rem = games[p] - q * k;
    posLower += rem * (q + 1) ** 2 + (k - rem) * q * q;
  }
  const meetTotal = rounds.reduce((s, r) => s + (r.tables.length * k * (k - 1)) / 2, 0);
  const lower = evenLowerBound(meetTotal, (n * (n - 1)) / 2) + POSITION_WEIGHT * posLower;
  let cost = counts.cost() + POSITION_WEIGHT * posCost();
  let best = cost;
  let bestTables = rounds.map((r) => r.tables.map((t) => [...t]));
  if (cost <= lower) return;
  const random = makeRandom(seed ^ 0x5bd1e995);
  const budget = Math.min(SEARCH_CAP, 20_000 + 3_000 * n * rounds.length);
  const change = (c: number, d: number) => meetingCost(c + d) - meetingCost(c);
  const [startTemp, endTemp] = [2, 0.05];
  for (let step = 0; step < budget; step++) {
    const temp = startTemp * (endTemp / startTemp) ** (step / budget);
    const round = rounds[Math.floor(random() * rounds.length)];
    const seats = round.tables.length * k;
    const s1 = Math.floor(random() * seats);
    let s2 = Math.floor(random() * (seats - 1));
    if (s2 >= s1) s2++;
    const A = round.tables[Math.floor(s1 / k)];
    const B = round.tables[Math.floor(s2 / k)];
    const ia = s1 % k;
    const ib = s2 % k;
    const x = A[ia];
    const y = B[ib];
    let delta = 0;
    if (A !== B) {
      for (const a of A) if (a !== x) delta += change(counts.get(x, a), -1) + change(counts.get(y, a), 1);
      for (const b of B) if (b !== y) delta += change(counts.get(y, b), -1) + change(counts.get(x, b), 1);
    }
    if (ia !== ib) {
      const px = pos[x * k + ia];
      const qx = pos[x * k + ib];
      const py = pos[y * k + ib];
      const qy = pos[y * k + ia];
      delta += POSITION_WEIGHT * (2 * qx + 1 + (1 - 2 * px) + 2 * qy + 1 + (1 - 2 * py));
    }
    if (delta > 0 && random() >= Math.exp(-delta / temp)) continue;
    if (A !== B) {
      for (const a of A) if (a !== x) {
        counts.add(x, a, -1);
        counts.add(y, a, 1);
      }
      for (const b of B) if (b !== y) {
        counts.add(y, b, -1);
        counts.add(x, b, 1);
      }
    }
    pos[x * k + ia]--;
    pos[x * k + ib]++;
    pos[y * k + ib]--;
    pos[y * k + ia]++;
    A[ia] = y;
    B[ib] = x;
    cost += delta;
    if (cost < best) {
      best = cost;
      bestTables = rounds.map((r) => r.tables.map((t) => [...t]));
      if (best <= lower) break;
    }
  }
  rounds.forEach((r, i) => {
    r.tables = bestTables[i];
  });
}
