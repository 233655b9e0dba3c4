import { checkPlayers, checkTableSize, type PlayerId, type TableSize } from './types.js';

export interface ArenaWaiter {
  id: PlayerId;
  score: number;
  /** When the player started waiting, in ms on the caller's clock. */
  waitingSince: number;
  /** Who sat at the player's last table: not seated with them again while others are waiting. */
  lastTableMates?: readonly PlayerId[];
}

/**
 * Arena: who of the waiting players sit down now (docs/tournaments.md, "Arena"). Openers are taken
 * longest-waiting first; an opener's table-mates are the k−1 other unseated waiters nearest in score
 * (then longest waiting, then id), chosen one by one: a player who sat at the last game of someone
 * already at the table (the opener or a mate chosen before) only when nobody else is waiting. The table sits down when all its players have the opener's score,
 * or when the opener has waited `maxWaitMs` or more: a player waits at most that long for a table of
 * equals. `maxWaitMs` 0 seats everyone it can at once. Seat order: the opener, then its mates as
 * chosen.
 */
export function arenaTables(waiting: readonly ArenaWaiter[], tableSize: TableSize, now: number, maxWaitMs: number): PlayerId[][] {
  checkTableSize(tableSize);
  checkPlayers(waiting.map((w) => w.id), 'waiting');
  if (!Number.isFinite(now)) throw new RangeError('now must be a finite number');
  if (!Number.isFinite(maxWaitMs) || maxWaitMs < 0) throw new RangeError('maxWaitMs must be a finite number ≥ 0');
  for (const w of waiting) {
    if (!Number.isFinite(w.score) || !Number.isFinite(w.waitingSince)) throw new RangeError(`waiting: ${w.id} has a bad score or waitingSince`);
  }
  const byWait = [...waiting].sort((a, b) => a.waitingSince - b.waitingSince || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seated = new Set<PlayerId>();
  const tables: PlayerId[][] = [];
  for (const opener of byWait) {
    if (seated.has(opener.id)) continue;
    const others = byWait.filter((w) => w !== opener && !seated.has(w.id));
    if (others.length < tableSize - 1) break;
    // byWait is already in waiting order, then id: a stable sort on the distance keeps those ties.
    const candidates = [...others].sort((a, b) => Math.abs(a.score - opener.score) - Math.abs(b.score - opener.score));
    // Each mate in turn: the fewest last-game table-mates among those already at the table (either
    // way round), then the nearest in score.
    const metAgain = (a: ArenaWaiter, b: ArenaWaiter) => (a.lastTableMates?.includes(b.id) || b.lastTableMates?.includes(a.id) ? 1 : 0);
    const mates: ArenaWaiter[] = [];
    while (mates.length < tableSize - 1) {
      const atTable = [opener, ...mates];
      let best = -1;
      let bestRepeats = Infinity;
      for (const [i, c] of candidates.entries()) {
        if (mates.includes(c)) continue;
        const repeats = atTable.reduce((n, p) => n + metAgain(p, c), 0);
        if (repeats < bestRepeats) [best, bestRepeats] = [i, repeats];
      }
      mates.push(candidates[best]);
    }
    const due = now - opener.waitingSince >= maxWaitMs;
    const equals = mates.every((m) => m.score === opener.score);
    if (!due && !equals) continue;
    const table = [opener, ...mates].map((w) => w.id);
    for (const id of table) seated.add(id);
    tables.push(table);
  }
  return tables;
}
