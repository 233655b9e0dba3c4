import { describe, expect, it } from 'vitest';
import { duplicateRounds } from './index.js';
import { checkRound, ids, meetingCounts, spread } from './test-support.js';

describe('duplicateRounds', () => {
  const cases: [number, 3 | 4, number][] = [
    [6, 3, 6], [7, 3, 6], [8, 3, 9], [9, 3, 9], [12, 3, 12], [30, 3, 12], [8, 4, 8], [9, 4, 8], [10, 4, 8], [11, 4, 12], [16, 4, 8],
  ];
  for (const [n, k, boards] of cases) {
    it(`${n} players at tables of ${k}, ${boards} boards: one board per round, each held at most once, positions even, groups compared`, () => {
      const players = ids(n);
      const plan = duplicateRounds(players, k, boards);
      expect(plan.rounds.map((r) => r.board)).toEqual([...Array(boards).keys()]);
      expect(plan.byes).toHaveLength(boards);
      const held = new Map(players.map((p) => [p, new Array<number>(boards).fill(0)]));
      const positions = new Map(players.map((p) => [p, new Array<number>(k).fill(0)]));
      plan.rounds.forEach((r, i) => {
        checkRound(players, k, { tables: r.tables, byes: plan.byes[i] });
        expect(plan.byes[i]).toHaveLength(n % k);
        for (const t of r.tables) t.forEach((p, pos) => {
          held.get(p)![r.board]++;
          positions.get(p)![pos]++;
        });
        // The comparison group of a (board, position): one holder per table, two tables at least.
        expect(r.tables.length).toBeGreaterThanOrEqual(2);
      });
      for (const [p, h] of held) {
        expect(Math.max(...h), p).toBe(1);
        // Without byes every player holds every board.
        if (n % k === 0) expect(Math.min(...h), p).toBe(1);
      }
      const byes = spread(players.map((p) => plan.byes.filter((b) => b.includes(p)).length));
      expect(byes.max - byes.min).toBeLessThanOrEqual(1);
      for (const [p, c] of positions) {
        const s = spread(c);
        expect(s.max - s.min, `${p}'s positions ${c.join(',')}`).toBeLessThanOrEqual(1);
      }
      // Table-mates vary: no pair sits together more than the even share, rounded up, plus one.
      const meetings = meetingCounts(players, plan.rounds.flatMap((r) => r.tables));
      const total = [...meetings.values()].reduce((a, b) => a + b, 0);
      expect(spread(meetings.values()).max).toBeLessThanOrEqual(Math.ceil(total / meetings.size) + 1);
    });
  }

  it('is deterministic and refuses a single table', () => {
    expect(duplicateRounds(ids(9), 3, 4)).toEqual(duplicateRounds(ids(9), 3, 4));
    expect(() => duplicateRounds(ids(5), 3, 4)).toThrow(RangeError);
    expect(() => duplicateRounds(ids(9), 3, 0)).toThrow(RangeError);
  });
});
