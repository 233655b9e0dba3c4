// Standings from random events: the points add up, the order of the games does not matter (but in
// an arena with streaks), ranks follow the lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standings, TIE_BREAKS, type Format, type GameResult } from './index.js';

const PLAYERS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

const arbEvent = (k: 3 | 4) =>
  fc.record({
    games: fc.array(
      fc.record({
        round: fc.integer({ min: 1, max: 6 }),
        board: fc.integer({ min: 0, max: 3 }),
        table: fc.shuffledSubarray(PLAYERS, { minLength: k, maxLength: k }),
        finalScores: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: k, maxLength: k }),
        forfeitSeat: fc.option(fc.integer({ min: 0, max: k - 1 }), { freq: 5 }),
      }).map(({ forfeitSeat, ...g }): GameResult => ({ ...g, forfeited: forfeitSeat === null ? undefined : [g.table[forfeitSeat]] })),
      { maxLength: 12 },
    ),
    byes: fc.array(fc.record({ round: fc.integer({ min: 1, max: 6 }), playerId: fc.constantFrom(...PLAYERS) }), { maxLength: 4 }),
  });

describe('standings', () => {
  for (const k of [3, 4] as const) {
    it(`tables of ${k}: points add up to the games' and byes' points; game order does not matter`, () => {
      fc.assert(
        fc.property(arbEvent(k), fc.constantFrom<Format>('round-robin', 'swiss', 'arena', 'duplicate'), ({ games, byes }, format) => {
          const lines = standings(format, PLAYERS, games, byes, { tableSize: k });
          expect(lines.map((l) => l.playerId).sort()).toEqual([...PLAYERS].sort());
          for (const l of lines) expect(l.tieBreaks).toHaveLength(TIE_BREAKS[format].length);
          if (format === 'round-robin' || format === 'swiss') {
            const total = lines.reduce((s, l) => s + l.points, 0);
            expect(total).toBeCloseTo((games.length * k * (k - 1)) / 2 + (byes.length * (k - 1)) / 2, 9);
          }
          if (format === 'duplicate') for (const l of lines) expect(l.points).toBeGreaterThanOrEqual(0);
          // Ranks: 1 + the number strictly ahead; the lines in rank order.
          lines.forEach((l, i) => {
            expect(l.rank).toBeLessThanOrEqual(i + 1);
            if (i > 0) expect(l.rank).toBeGreaterThanOrEqual(lines[i - 1].rank);
            if (i > 0 && l.rank === lines[i - 1].rank) expect(l.playerId > lines[i - 1].playerId).toBe(true);
          });
          expect(standings(format, PLAYERS, [...games].reverse(), [...byes].reverse(), { tableSize: k })).toEqual(lines);
        }),
        { numRuns: 150 },
      );
    });
  }
});
