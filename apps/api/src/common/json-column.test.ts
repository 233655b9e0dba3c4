import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromJsonColumn, jsonColumn, toJsonColumn } from './json-column.js';

describe('json columns', () => {
  it('reads a value answered parsed or as its text alike', () => {
    expect(fromJsonColumn({ a: [1, 2] })).toEqual({ a: [1, 2] });
    expect(fromJsonColumn('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(fromJsonColumn(null)).toBeNull();
  });

  it('checks a column against its shape after reading it', () => {
    const totals = jsonColumn(z.array(z.number()));
    expect(totals.parse('[1,-2]')).toEqual([1, -2]);
    expect(totals.parse([3])).toEqual([3]);
    expect(totals.safeParse('["x"]').success).toBe(false);
  });

  it('writes a parameter as the text that reads back as the same value', () => {
    const value = { type: 'move', seats: [0, 1], at: null };
    expect(fromJsonColumn(toJsonColumn(value))).toEqual(value);
  });
});
