import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchpoints, placePoints } from './index.js';

describe('placePoints', () => {
  it('gives k − place, equal totals sharing, the higher total better (docs/rules.md)', () => {
    expect(placePoints([5, -3, 1], 3)).toEqual([2, 0, 1]);
    expect(placePoints([4, 4, -8], 3)).toEqual([1.5, 1.5, 0]);
    expect(placePoints([0, 0, 0], 3)).toEqual([1, 1, 1]);
    expect(placePoints([1, 2, 3, 4], 4)).toEqual([0, 1, 2, 3]);
    expect(placePoints([7, 7, 7, -21], 4)).toEqual([2, 2, 2, 0]);
    expect(placePoints([2, 1, 1, 0], 4)).toEqual([3, 1.5, 1.5, 0]);
  });

  it('places a seat that resigned or forfeited last, whatever its total', () => {
    expect(placePoints([30, -60, 30], 3, [0])).toEqual([0, 1, 2]);
    expect(placePoints([10, 0, 0, -10], 4, [1, 2])).toEqual([3, 0.5, 0.5, 2]);
  });

  it('always hands out k(k−1)/2 points, and a higher total never gets fewer', () => {
    fc.assert(
      fc.property(fc.constantFrom<3 | 4>(3, 4).chain((k) => fc.tuple(fc.constant(k), fc.array(fc.integer({ min: -5, max: 5 }), { minLength: k, maxLength: k }))), ([k, scores]) => {
        const pts = placePoints(scores, k);
        expect(pts.reduce((a, b) => a + b, 0)).toBe((k * (k - 1)) / 2);
        for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (scores[i] > scores[j]) expect(pts[i]).toBeGreaterThan(pts[j]);
      }),
    );
  });

  it('refuses a score list of the wrong length', () => {
    expect(() => placePoints([1, 2], 3)).toThrow(RangeError);
    expect(() => placePoints([1, 2, 3], 3, [3])).toThrow(RangeError);
  });
});

describe('matchpoints', () => {
  it('compares a result only with those of the same board and position', () => {
    const totals = matchpoints([
      { board: 0, position: 0, playerId: 'a', score: 10 },
      { board: 0, position: 0, playerId: 'b', score: 5 },
      { board: 0, position: 0, playerId: 'c', score: 5 },
      { board: 0, position: 1, playerId: 'd', score: 99 },
      { board: 1, position: 0, playerId: 'a', score: 0 },
      { board: 1, position: 0, playerId: 'b', score: 1 },
    ]);
    expect(totals.get('a')).toEqual({ matchpoints: 2, tops: 3, percentage: 200 / 3 });
    expect(totals.get('b')).toEqual({ matchpoints: 1.5, tops: 3, percentage: 50 });
    expect(totals.get('c')).toEqual({ matchpoints: 0.5, tops: 2, percentage: 25 });
    // Nothing to compare with: an average.
    expect(totals.get('d')).toEqual({ matchpoints: 0, tops: 0, percentage: 50 });
  });

  it('hands out half of the tops in every group', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ board: fc.integer({ min: 0, max: 2 }), position: fc.integer({ min: 0, max: 2 }), playerId: fc.constantFrom('a', 'b', 'c', 'd', 'e'), score: fc.integer({ min: -3, max: 3 }) })), (results) => {
        const totals = [...matchpoints(results).values()];
        const mp = totals.reduce((s, t) => s + t.matchpoints, 0);
        const tops = totals.reduce((s, t) => s + t.tops, 0);
        expect(mp).toBeCloseTo(tops / 2, 9);
      }),
    );
  });
});
