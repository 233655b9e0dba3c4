import { describe, expect, it } from 'vitest';
import { ROUND_ROBIN_EXTRA, roundRobinMinRounds, roundRobinRounds } from './index.js';
import { checkRound, ids, meetingCounts, spread } from './test-support.js';

/**
 * What the schedule achieves for tables of three (docs/tournaments.md, "Round-robin"): the number of
 * rounds and the least and most times a pair meets. Everyone meets everyone; the counts differ by at
 * most one except for six players, where no better schedule exists (the proof is below).
 */
const TABLES_OF_THREE: Record<number, { rounds: number; min: number; max: number }> = {
  3: { rounds: 1, min: 1, max: 1 },
  4: { rounds: 3, min: 1, max: 2 },
  5: { rounds: 5, min: 1, max: 2 },
  6: { rounds: 4, min: 1, max: 4 },
  7: { rounds: 6, min: 1, max: 2 },
  8: { rounds: 6, min: 1, max: 2 },
  9: { rounds: 4, min: 1, max: 1 },
  10: { rounds: 6, min: 1, max: 2 },
  11: { rounds: 7, min: 1, max: 2 },
  12: { rounds: 7, min: 1, max: 2 },
};

/** The same for tables of four: everyone meets everyone, as evenly as the search finds. */
const TABLES_OF_FOUR: Record<number, { rounds: number; min: number; max: number }> = {
  4: { rounds: 1, min: 1, max: 1 },
  5: { rounds: 4, min: 2, max: 3 },
  6: { rounds: 3, min: 1, max: 2 },
  7: { rounds: 5, min: 1, max: 2 },
  8: { rounds: 3, min: 1, max: 3 },
  9: { rounds: 5, min: 1, max: 3 },
  10: { rounds: 5, min: 1, max: 4 },
  11: { rounds: 6, min: 1, max: 4 },
  12: { rounds: 5, min: 1, max: 3 },
};

function describePlan(players: string[], k: 3 | 4) {
  const plan = roundRobinRounds(players, k);
  for (const r of plan) checkRound(players, k, r);
  const meetings = meetingCounts(players, plan.flatMap((r) => r.tables));
  const byes = new Map(players.map((p) => [p, 0]));
  for (const r of plan) for (const p of r.byes) byes.set(p, byes.get(p)! + 1);
  const seats = new Map(players.map((p) => [p, new Array<number>(k).fill(0)]));
  for (const r of plan) for (const t of r.tables) t.forEach((p, s) => seats.get(p)![s]++);
  return { plan, meetings: spread(meetings.values()), byes: spread(byes.values()), seats };
}

describe('roundRobinRounds', () => {
  for (let n = 3; n <= 12; n++) {
    it(`tables of three, ${n} players: ${TABLES_OF_THREE[n].rounds} rounds, pairs meet ${TABLES_OF_THREE[n].min} to ${TABLES_OF_THREE[n].max} times, byes even`, () => {
      const players = ids(n);
      const { plan, meetings, byes, seats } = describePlan(players, 3);
      expect({ rounds: plan.length, ...meetings }).toEqual(TABLES_OF_THREE[n]);
      expect(byes.max - byes.min).toBeLessThanOrEqual(1);
      for (const r of plan) expect(r.byes.length).toBe(n % 3);
      // Seat positions: every player's counts differ by at most one.
      for (const [p, counts] of seats) {
        const s = spread(counts);
        expect(s.max - s.min, `${p}'s seats ${counts.join(',')}`).toBeLessThanOrEqual(1);
      }
    });
  }

  for (let n = 4; n <= 12; n++) {
    it(`tables of four, ${n} players: ${TABLES_OF_FOUR[n].rounds} rounds, everyone meets everyone, byes even`, () => {
      const players = ids(n);
      const { plan, meetings, byes, seats } = describePlan(players, 4);
      expect({ rounds: plan.length, ...meetings }).toEqual(TABLES_OF_FOUR[n]);
      for (const [p, counts] of seats) expect(spread(counts).max - spread(counts).min, `${p}'s seats`).toBeLessThanOrEqual(1);
      expect(byes.max - byes.min).toBeLessThanOrEqual(1);
      expect(plan.length).toBeLessThanOrEqual(roundRobinMinRounds(n, 4) + ROUND_ROBIN_EXTRA);
    });
  }

  it('six players at tables of three: in four rounds everyone meets everyone only if a pair always sits together', () => {
    // A round splits the six into two halves; a player's sides over four rounds are a 4-bit word, and
    // a pair meets in 4 − (Hamming distance) rounds. Every choice of six words with three players on
    // each side of every round: none has all distances from 1 to 3 (counts 1 to 3).
    const bits = (x: number) => x.toString(2).replaceAll('0', '').length;
    let best = Infinity;
    const go = (from: number, words: number[]) => {
      if (words.length === 6) {
        for (let r = 0; r < 4; r++) if (words.filter((w) => (w >> r) & 1).length !== 3) return;
        const counts = words.flatMap((a, i) => words.slice(i + 1).map((b) => 4 - bits(a ^ b)));
        if (Math.min(...counts) >= 1) best = Math.min(best, Math.max(...counts));
        return;
      }
      for (let w = from; w < 16; w++) go(w, [...words, w]);
    };
    go(0, []);
    expect(best).toBe(4);
  });

  it('is deterministic, and the rounds option fixes the length', () => {
    const players = ids(8);
    expect(roundRobinRounds(players, 3)).toEqual(roundRobinRounds(players, 3));
    const fixed = roundRobinRounds(players, 3, { rounds: 3 });
    expect(fixed).toHaveLength(3);
    for (const r of fixed) checkRound(players, 3, r);
  });

  it('refuses what it cannot schedule', () => {
    expect(() => roundRobinRounds(['a', 'b'], 3)).toThrow(RangeError);
    expect(() => roundRobinRounds(['a', 'b', 'a'], 3)).toThrow(/twice/);
    expect(() => roundRobinRounds(ids(41), 3)).toThrow(RangeError);
    expect(() => roundRobinRounds(ids(5), 5 as never)).toThrow(RangeError);
    expect(() => roundRobinRounds(ids(5), 3, { rounds: 0 })).toThrow(RangeError);
  });
});
