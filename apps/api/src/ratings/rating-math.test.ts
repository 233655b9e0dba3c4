import { describe, expect, it } from 'vitest';
import { newSkill, rateTable, skillOrdinal } from './rating-math.js';

describe('rateTable', () => {
  it('moves the winner up and the last down, ties alike, and sums nearly to what it was', () => {
    const [first, second, third] = rateTable([newSkill(), newSkill(), newSkill()], [1, 2, 3]);
    expect(first.mu).toBeGreaterThan(25);
    expect(third.mu).toBeLessThan(25);
    expect(second.mu).toBeGreaterThan(third.mu);
    const tied = rateTable([newSkill(), newSkill(), newSkill()], [1, 2, 2]);
    expect(tied[1]).toEqual(tied[2]);
    expect(skillOrdinal(first)).toBeGreaterThan(skillOrdinal(newSkill()));
  });

  it('refuses a table without a place per seat', () => {
    expect(() => rateTable([newSkill(), newSkill()], [1])).toThrow(RangeError);
  });
});
