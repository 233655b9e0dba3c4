import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meetingsOf, splitCount, swissOrder, swissRound, tableCost, type Meetings, type SwissEntrant } from './index.js';
import { makeRandom } from './random.js';
import { checkRound, ids } from './test-support.js';

type MetMap = Map<string, Map<string, number>>;

function addMeetings(met: MetMap, tables: readonly (readonly string[])[]): void {
  for (const t of tables) {
    for (const a of t) {
      for (const b of t) {
        if (a === b) continue;
        let m = met.get(a);
        if (!m) met.set(a, (m = new Map()));
        m.set(b, (m.get(b) ?? 0) + 1);
      }
    }
  }
}

/** Every split of `players` into tables of k, by brute force (independent of the library's search). */
function* allSplits(players: readonly string[], k: number): Generator<string[][]> {
  if (players.length === 0) {
    yield [];
    return;
  }
  const [top, ...rest] = players;
  const choose = function* (from: number, picked: string[]): Generator<string[]> {
    if (picked.length === k - 1) {
      yield picked;
      return;
    }
    for (let i = from; i < rest.length; i++) yield* choose(i + 1, [...picked, rest[i]]);
  };
  for (const mates of choose(0, [])) {
    const left = rest.filter((p) => !mates.includes(p));
    for (const more of allSplits(left, k)) yield [[top, ...mates], ...more];
  }
}

function totalCost(tables: readonly (readonly string[])[], scores: ReadonlyMap<string, number>, met: Meetings): [number, number] {
  let r = 0;
  let s = 0;
  for (const t of tables) {
    const [a, b] = tableCost(t.map((id) => ({ id, score: scores.get(id)! })), met);
    r += a;
    s += b;
  }
  return [r, s];
}

/** Entrants with small integer scores and bye counts, so that ties are common. */
const arbEntrants = (min: number, max: number) =>
  fc.integer({ min, max }).chain((n) =>
    fc.tuple(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }), fc.array(fc.integer({ min: 0, max: 1 }), { minLength: n, maxLength: n })).map(([scores, byes]) =>
      ids(n).map((id, i): SwissEntrant => ({ id, score: scores[i], byes: byes[i] })),
    ),
  );

describe('swissRound', () => {
  it('seats everyone once or gives a bye, byes only for the remainder, to the fewest-byes lowest-ranked', () => {
    fc.assert(
      fc.property(arbEntrants(0, 30), fc.constantFrom<3 | 4>(3, 4), fc.string(), fc.integer({ min: 0, max: 3 }), (entrants, k, seed, rounds) => {
        const met: MetMap = new Map();
        // A few earlier rounds give the meetings.
        for (let r = 0; r < rounds; r++) addMeetings(met, swissRound(entrants, k, met, `${seed}${r}`).tables);
        const plan = swissRound(entrants, k, met, seed);
        checkRound(entrants.map((e) => e.id), k, plan);
        expect(plan.byes).toHaveLength(entrants.length % k);
        const order = swissOrder(entrants, seed);
        const rank = new Map(order.map((e, i) => [e.id, i]));
        const byeSet = new Set(plan.byes);
        // No seated player has fewer byes than one sitting out, or as few and a lower rank.
        for (const b of plan.byes) {
          const eb = entrants.find((e) => e.id === b)!;
          for (const e of entrants) {
            if (byeSet.has(e.id)) continue;
            expect(e.byes < eb.byes || (e.byes === eb.byes && rank.get(e.id)! > rank.get(b)!)).toBe(false);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('finds the fewest repeated meetings, then the least score spread, checked exhaustively up to 9 players over 4 rounds', () => {
    fc.assert(
      fc.property(arbEntrants(3, 9), fc.constantFrom<3 | 4>(3, 4), fc.string({ maxLength: 4 }), (entrants, k, seed) => {
        const met: MetMap = new Map();
        const scores = new Map(entrants.map((e) => [e.id, e.score]));
        for (let round = 0; round < 4; round++) {
          const plan = swissRound(entrants, k, met, `${seed}/${round}`);
          const seated = entrants.map((e) => e.id).filter((id) => !plan.byes.includes(id));
          let best: [number, number] = [Infinity, Infinity];
          for (const split of allSplits(seated, k)) {
            const c = totalCost(split, scores, met);
            if (c[0] < best[0] || (c[0] === best[0] && c[1] < best[1])) best = c;
          }
          expect(totalCost(plan.tables, scores, met)).toEqual(best);
          addMeetings(met, plan.tables);
          // Scores move on as if the first seat of each table won.
          for (const t of plan.tables) scores.set(t[0], scores.get(t[0])! + 1);
          entrants = entrants.map((e) => ({ ...e, score: scores.get(e.id)!, byes: e.byes + (plan.byes.includes(e.id) ? 1 : 0) }));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('beyond the exhaustive range, leaves no swap of two players between tables that would lower repeats or spread', () => {
    fc.assert(
      fc.property(arbEntrants(13, 40), fc.constantFrom<3 | 4>(3, 4), fc.string({ maxLength: 4 }), (entrants, k, seed) => {
        const met: MetMap = new Map();
        for (let round = 0; round < 3; round++) {
          const plan = swissRound(entrants, k, met, `${seed}/${round}`, { exactLimit: 0 });
          checkRound(entrants.map((e) => e.id), k, plan);
          const scores = new Map(entrants.map((e) => [e.id, e.score]));
          const cost = (t: readonly string[]) => tableCost(t.map((id) => ({ id, score: scores.get(id)! })), met);
          for (let a = 0; a < plan.tables.length; a++) {
            for (let b = a + 1; b < plan.tables.length; b++) {
              const [ra, sa] = cost(plan.tables[a]);
              const [rb, sb] = cost(plan.tables[b]);
              for (let i = 0; i < k; i++) {
                for (let j = 0; j < k; j++) {
                  const ta = [...plan.tables[a]];
                  const tb = [...plan.tables[b]];
                  [ta[i], tb[j]] = [tb[j], ta[i]];
                  const [r1, s1] = cost(ta);
                  const [r2, s2] = cost(tb);
                  const better = r1 + r2 < ra + rb || (r1 + r2 === ra + rb && s1 + s2 < sa + sb - 1e-9);
                  expect(better, `swap ${plan.tables[a][i]} and ${plan.tables[b][j]}`).toBe(false);
                }
              }
            }
          }
          addMeetings(met, plan.tables);
          entrants = entrants.map((e, i) => ({ ...e, score: e.score + (i % 3) }));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('searching locally finds the exhaustive search\'s repeats, and nearly always its spread, on 7 to 12 players', () => {
    // 100 random events of five rounds, from a fixed seed. Measured over 3 000 rounds (this and
    // another score pattern): the repeats every time, the spread in all but 3.
    const random = makeRandom(7);
    let rounds = 0;
    let sameSpread = 0;
    for (let event = 0; event < 100; event++) {
      const n = 7 + Math.floor(random() * 6);
      const k = random() < 0.5 ? 3 : 4;
      let entrants: SwissEntrant[] = ids(n).map((id) => ({ id, score: Math.floor(random() * 5), byes: 0 }));
      const met: MetMap = new Map();
      for (let round = 0; round < 5; round++) {
        const scores = new Map(entrants.map((e) => [e.id, e.score]));
        const exact = swissRound(entrants, k, met, `e${event}/${round}`);
        const local = swissRound(entrants, k, met, `e${event}/${round}`, { exactLimit: 0 });
        const [re, se] = totalCost(exact.tables, scores, met);
        const [rl, sl] = totalCost(local.tables, scores, met);
        expect(rl, `event ${event} round ${round}`).toBe(re);
        rounds++;
        if (Math.abs(sl - se) < 1e-9) sameSpread++;
        addMeetings(met, exact.tables);
        entrants = entrants.map((e) => ({ ...e, score: e.score + Math.floor(random() * k), byes: e.byes + (exact.byes.includes(e.id) ? 1 : 0) }));
      }
    }
    expect(sameSpread / rounds).toBeGreaterThanOrEqual(0.98);
  });

  it('avoids every repeat in the first rounds of a large event (300 players, tables of three)', () => {
    let entrants: SwissEntrant[] = ids(300).map((id) => ({ id, score: 0, byes: 0 }));
    const met: MetMap = new Map();
    for (let round = 0; round < 5; round++) {
      const plan = swissRound(entrants, 3, met, `big/${round}`);
      checkRound(entrants.map((e) => e.id), 3, plan);
      let repeats = 0;
      for (const t of plan.tables) for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) repeats += meetingsOf(met, t[i], t[j]);
      expect(repeats).toBe(0);
      addMeetings(met, plan.tables);
      const points = new Map<string, number>();
      for (const t of plan.tables) t.forEach((p, s) => points.set(p, 2 - s));
      entrants = entrants.map((e) => ({ ...e, score: e.score + (points.get(e.id) ?? 1) }));
    }
  });

  it('pairs the top of the ranking together when nobody has met', () => {
    const entrants = ids(9).map((id, i) => ({ id, score: 9 - i, byes: 0 }));
    const plan = swissRound(entrants, 3, new Map());
    expect(plan.tables.map((t) => [...t].sort())).toEqual([
      ['p00', 'p01', 'p02'],
      ['p03', 'p04', 'p05'],
      ['p06', 'p07', 'p08'],
    ]);
  });

  it('is deterministic for a seed and counts the splits it searches', () => {
    const entrants = ids(10).map((id) => ({ id, score: 0, byes: 0 }));
    expect(swissRound(entrants, 3, new Map(), 's')).toEqual(swissRound(entrants, 3, new Map(), 's'));
    expect(splitCount(9, 3)).toBe(280);
    expect(splitCount(8, 4)).toBe(35);
    expect(splitCount(12, 3)).toBe(15400);
  });

  it('refuses a bad entrant', () => {
    expect(() => swissRound([{ id: 'a', score: NaN, byes: 0 }], 3, new Map())).toThrow(RangeError);
    expect(() => swissRound([{ id: 'a', score: 0, byes: -1 }], 3, new Map())).toThrow(RangeError);
    expect(() => swissRound([{ id: 'a', score: 0, byes: 0 }, { id: 'a', score: 0, byes: 0 }], 3, new Map())).toThrow(/twice/);
  });
});
