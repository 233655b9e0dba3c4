import { hashString } from './random.js';
import { evenMeetings, rotatingByes, type IndexRound } from './schedule.js';
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
  evenMeetings(n, plan, { seed, budget: 20_000 + 2_000 * n * boards, samePosition: true });
  return {
    rounds: plan.map((r, board) => ({ board, tables: r.tables.map((t) => t.map((i) => players[i])) })),
    byes: plan.map((r) => r.byes.map((i) => players[i])),
  };
}
