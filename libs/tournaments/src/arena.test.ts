import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arenaTables, type ArenaWaiter } from './index.js';

const w = (id: string, score: number, waitingSince: number): ArenaWaiter => ({ id, score, waitingSince });

describe('arenaTables', () => {
  it('seats equals at once and holds a mixed table until the opener has waited maxWaitMs', () => {
    const waiting = [w('a', 0, 100), w('b', 0, 200), w('c', 0, 300), w('d', 5, 50), w('e', 9, 60)];
    // d opens (longest waiting) but its nearest are not its equals: it waits; a, b, c sit down.
    expect(arenaTables(waiting, 3, 1_000, 10_000)).toEqual([['a', 'b', 'c']]);
    // Once d is due it takes the nearest in score among all waiting.
    expect(arenaTables(waiting, 3, 10_050, 10_000)).toEqual([['d', 'e', 'a'], ]);
  });

  it('takes the nearest in score, then the longest waiting, then the id', () => {
    const waiting = [w('x', 10, 0), w('m', 8, 5), w('n', 12, 5), w('o', 8, 1), w('far', 30, 0)];
    expect(arenaTables(waiting, 3, 100, 0)).toEqual([['far', 'n', 'x']]);
    expect(arenaTables(waiting.filter((v) => v.id !== 'far'), 3, 100, 0)).toEqual([['x', 'o', 'm']]);
  });

  it('seats last game\'s table-mates together again only when nobody else is waiting', () => {
    const again = (id: string, since: number, mates: string[]): ArenaWaiter => ({ id, score: 2, waitingSince: since, lastTableMates: mates });
    const trio = [again('a', 0, ['b', 'c']), again('b', 1, ['a', 'c']), again('c', 2, ['a', 'b'])];
    expect(arenaTables(trio, 3, 100, 0)).toEqual([['a', 'b', 'c']]);
    const withOthers = [...trio, w('x', 9, 3), w('y', 9, 4)];
    expect(arenaTables(withOthers, 3, 100, 0)).toEqual([['a', 'x', 'y']]);
  });

  it('keeps apart two table-mates of a last game even when neither opens the table', () => {
    // Three tables just ended, everyone waiting since the same moment: [a, q, r], [b, s, t], [c, u, v];
    // a, b, c lost (0), the rest have 1.5. The opener q (a, b, c sit together first) takes s, the
    // nearest who did not sit with q, and then not t (s's table-mate) but u: one from each table.
    const tables = [['a', 'q', 'r'], ['b', 's', 't'], ['c', 'u', 'v']];
    const waiting = tables.flatMap((table) => table.map((id, i): ArenaWaiter => ({ id, score: i === 0 ? 0 : 1.5, waitingSince: 0, lastTableMates: table.filter((x) => x !== id) })));
    const seated = arenaTables(waiting, 3, 0, 10_000);
    expect(seated).toEqual([['a', 'b', 'c'], ['q', 's', 'u'], ['r', 't', 'v']]);
    // Without the last tables, the nearest in score and then the id: s and t together again.
    expect(arenaTables(waiting.map(({ lastTableMates: _m, ...rest }) => rest), 3, 0, 10_000)).toEqual([['a', 'b', 'c'], ['q', 'r', 's'], ['t', 'u', 'v']]);
  });

  it('never seats a player twice, nor someone not waiting, and with maxWaitMs 0 leaves fewer than a table', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 3 }), score: fc.integer({ min: 0, max: 5 }), waitingSince: fc.integer({ min: 0, max: 1000 }) }), { selector: (v) => v.id, maxLength: 30 }),
        fc.constantFrom<3 | 4>(3, 4),
        fc.integer({ min: 0, max: 2000 }),
        (waiting, k, maxWait) => {
          const tables = arenaTables(waiting, k, 1000, maxWait);
          const seated = tables.flat();
          expect(new Set(seated).size).toBe(seated.length);
          for (const t of tables) expect(t).toHaveLength(k);
          for (const id of seated) expect(waiting.some((v) => v.id === id)).toBe(true);
          if (maxWait === 0) expect(waiting.length - seated.length).toBeLessThan(k);
        },
      ),
    );
  });

  it('refuses bad input', () => {
    expect(() => arenaTables([w('a', 0, 0)], 3, NaN, 0)).toThrow(RangeError);
    expect(() => arenaTables([w('a', 0, 0)], 3, 0, -1)).toThrow(RangeError);
    expect(() => arenaTables([w('a', 0, 0), w('a', 1, 0)], 3, 0, 0)).toThrow(/twice/);
  });
});
