// Round-robin and duplicate schedules for random sizes: every round well formed, byes even, and the
// promises of docs/tournaments.md kept (everyone meets everyone; boards held once; positions even).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateRounds, ROUND_ROBIN_EXTRA, roundRobinMinRounds, roundRobinRounds } from './index.js';
import { checkRound, ids, meetingCounts, spread } from './test-support.js';

/** Each schedule is a search of up to a second on a loaded machine. */
const SLOW = 180_000;

const byeSpread = (players: readonly string[], byes: readonly (readonly string[])[]) =>
  spread(players.map((p) => byes.filter((b) => b.includes(p)).length));

describe('round-robin schedules', () => {
  it('for any size: well-formed rounds, even byes, everyone meets everyone within the allowed rounds', () => {
    fc.assert(
      fc.property(fc.constantFrom<3 | 4>(3, 4), fc.integer({ min: 0, max: 11 }), fc.string({ minLength: 1, maxLength: 3 }), (k, extra, prefix) => {
        const players = ids(k + extra, prefix);
        const plan = roundRobinRounds(players, k);
        for (const r of plan) checkRound(players, k, r);
        const byes = byeSpread(players, plan.map((r) => r.byes));
        expect(byes.max - byes.min).toBeLessThanOrEqual(1);
        expect(spread(meetingCounts(players, plan.flatMap((r) => r.tables)).values()).min).toBeGreaterThanOrEqual(1);
        expect(plan.length).toBeGreaterThanOrEqual(roundRobinMinRounds(players.length, k));
        expect(plan.length).toBeLessThanOrEqual(roundRobinMinRounds(players.length, k) + ROUND_ROBIN_EXTRA);
      }),
      { numRuns: 12 },
    );
  }, SLOW);

  it('with a fixed number of rounds: well-formed rounds and even byes', () => {
    fc.assert(
      fc.property(fc.constantFrom<3 | 4>(3, 4), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 6 }), (k, extra, rounds) => {
        const players = ids(k + extra);
        const plan = roundRobinRounds(players, k, { rounds });
        expect(plan).toHaveLength(rounds);
        for (const r of plan) checkRound(players, k, r);
        const byes = byeSpread(players, plan.map((r) => r.byes));
        expect(byes.max - byes.min).toBeLessThanOrEqual(1);
      }),
      { numRuns: 12 },
    );
  }, SLOW);
});

describe('duplicate schedules', () => {
  it('for any size: one board a round, held at most once (exactly once without byes), byes and positions even', () => {
    fc.assert(
      fc.property(fc.constantFrom<3 | 4>(3, 4), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 1, max: 10 }), (k, extra, boards) => {
        const players = ids(2 * k + extra);
        const plan = duplicateRounds(players, k, boards);
        const held = new Map(players.map((p) => [p, 0]));
        const positions = new Map(players.map((p) => [p, new Array<number>(k).fill(0)]));
        plan.rounds.forEach((r, i) => {
          expect(r.board).toBe(i);
          checkRound(players, k, { tables: r.tables, byes: plan.byes[i] });
          for (const t of r.tables) t.forEach((p, pos) => {
            held.set(p, held.get(p)! + 1);
            positions.get(p)![pos]++;
          });
        });
        for (const p of players) {
          expect(held.get(p)! + plan.byes.filter((b) => b.includes(p)).length).toBe(boards);
          const s = spread(positions.get(p)!);
          expect(s.max - s.min, `${p}'s positions ${positions.get(p)!.join(',')}`).toBeLessThanOrEqual(1);
        }
        const byes = byeSpread(players, plan.byes);
        expect(byes.max - byes.min).toBeLessThanOrEqual(1);
      }),
      { numRuns: 15 },
    );
  }, SLOW);
});
