// The pairing and scoring a tournament needs, in the names of @mizerka/tournaments (libs/tournaments,
// built beside this module): a stand-in until that library is merged, then a re-export of it.
// Pure: no database, no NestJS.

export type PlayerId = string;

/** One round: the tables (players in seat order) and the players who sit out (a bye). */
export interface RoundPlan {
  tables: PlayerId[][];
  byes: PlayerId[];
}

/** A finished game of the event: its players by seat, each seat's place (0 = first) and total. */
export interface GameResult {
  round: number;
  players: PlayerId[];
  places: number[];
  totals: number[];
}

export interface Standing {
  playerId: PlayerId;
  /** 1 = first; players tied on points and every tie-break share a rank. */
  rank: number;
  points: number;
  games: number;
  byes: number;
  /** Tie-break 1: the sum of the player's game totals. */
  scoreSum: number;
  /** Tie-break 2: games won (place 0). */
  wins: number;
}

/** Points for `place` (0 = first) at a table of `size`: size-1 for the winner, down to 0 for the last. */
export function placePoints(size: number, place: number): number {
  return size - 1 - place;
}

/** A bye scores the average of a table's places: (size-1)/2. */
export function byePoints(size: number): number {
  return (size - 1) / 2;
}

/** How often each pair of players has shared a table. */
export function meetings(results: readonly { players: readonly PlayerId[] }[]): Map<string, number> {
  const met = new Map<string, number>();
  for (const r of results) {
    for (let i = 0; i < r.players.length; i++) {
      for (let j = i + 1; j < r.players.length; j++) {
        const key = pairKey(r.players[i], r.players[j]);
        met.set(key, (met.get(key) ?? 0) + 1);
      }
    }
  }
  return met;
}

const pairKey = (a: PlayerId, b: PlayerId) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/**
 * Swiss: players sorted by score (then by id, stably), the remainder past a multiple of `size`
 * sits out (the lowest-scored among those with the fewest byes so far), then tables are filled
 * from the top: each table takes the best-placed player left and adds, from the next few, those
 * who met its players least.
 */
export function swissRound(players: readonly PlayerId[], size: number, points: ReadonlyMap<PlayerId, number>, byeCounts: ReadonlyMap<PlayerId, number>, met: ReadonlyMap<string, number>): RoundPlan {
  const ordered = [...players].sort((a, b) => (points.get(b) ?? 0) - (points.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  const sitOut = ordered.length % size;
  const byes = [...ordered]
    .reverse()
    .sort((a, b) => (byeCounts.get(a) ?? 0) - (byeCounts.get(b) ?? 0))
    .slice(0, sitOut);
  const left = ordered.filter((p) => !byes.includes(p));
  const tables: PlayerId[][] = [];
  while (left.length > 0) {
    const table = [left.shift()!];
    while (table.length < size) {
      const window = left.slice(0, Math.max(size * 2, 1));
      let best = 0;
      let bestCost = Infinity;
      window.forEach((candidate, i) => {
        const cost = table.reduce((sum, p) => sum + (met.get(pairKey(p, candidate)) ?? 0), 0);
        if (cost < bestCost) [best, bestCost] = [i, cost];
      });
      table.push(left.splice(best, 1)[0]);
    }
    tables.push(table);
  }
  return { tables, byes };
}

/**
 * Round-robin: size-1 new table-mates a round, so ceil((n-1)/(size-1)) rounds; each round is the
 * Swiss fill with every score equal, which seats together those who met least.
 */
export function roundRobinRounds(players: readonly PlayerId[], size: number): RoundPlan[] {
  const rounds: RoundPlan[] = [];
  const count = Math.max(1, Math.ceil((players.length - 1) / (size - 1)));
  const played: { players: PlayerId[] }[] = [];
  const byeCounts = new Map<PlayerId, number>();
  for (let r = 0; r < count; r++) {
    const plan = swissRound(players, size, new Map(), byeCounts, meetings(played));
    for (const t of plan.tables) played.push({ players: t });
    for (const b of plan.byes) byeCounts.set(b, (byeCounts.get(b) ?? 0) + 1);
    rounds.push(plan);
  }
  return rounds;
}

/**
 * The standings: points by place, a bye scoring byePoints; ties broken by the sum of game totals,
 * then by games won; players equal on all three share a rank. Computed from the results alone.
 */
export function standings(players: readonly PlayerId[], size: number, games: readonly GameResult[], byes: readonly PlayerId[][]): Standing[] {
  const rows = new Map<PlayerId, Standing>(players.map((p) => [p, { playerId: p, rank: 0, points: 0, games: 0, byes: 0, scoreSum: 0, wins: 0 }]));
  for (const g of games) {
    g.players.forEach((p, seat) => {
      const row = rows.get(p);
      if (!row) return;
      row.points += placePoints(g.players.length, g.places[seat]);
      row.games += 1;
      row.scoreSum += g.totals[seat];
      if (g.places[seat] === 0) row.wins += 1;
    });
  }
  for (const round of byes) {
    for (const p of round) {
      const row = rows.get(p);
      if (row) {
        row.points += byePoints(size);
        row.byes += 1;
      }
    }
  }
  const sorted = [...rows.values()].sort((a, b) => b.points - a.points || b.scoreSum - a.scoreSum || b.wins - a.wins || (a.playerId < b.playerId ? -1 : 1));
  sorted.forEach((row, i) => {
    const prev = sorted[i - 1];
    row.rank = prev && prev.points === row.points && prev.scoreSum === row.scoreSum && prev.wins === row.wins ? prev.rank : i + 1;
  });
  return sorted;
}
