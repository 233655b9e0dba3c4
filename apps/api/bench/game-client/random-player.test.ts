import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Xoshiro128 } from '@mizerka/rules';
import { chooseMove, sampleOf, seededChance, type LegalMovesView } from './random-player.js';

const offer = (fields: Partial<LegalMovesView> & { kind: string }): LegalMovesView => ({
  seat: 0,
  contracts: null,
  cards: null,
  maxDiscards: null,
  count: null,
  bids: null,
  suits: null,
  ...fields,
});

describe('seededChance', () => {
  it('is the rules library’s Xoshiro128, seeded from SHA-256 of the seed', () => {
    const expected = Xoshiro128.fromSeed(createHash('sha256').update('42').digest('hex').slice(0, 32));
    const chance = seededChance(42);
    for (let i = 0; i < 20; i++) expect(chance(1000)).toBe(expected.below(1000));
  });

  it('replays from its seed; nearby seeds differ', () => {
    const run = (seed: number) => {
      const chance = seededChance(seed);
      return Array.from({ length: 16 }, () => chance(1 << 20));
    };
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
  });

  it('rejects a bound outside 1..2^32-1', () => {
    const chance = seededChance(1);
    expect(() => chance(0)).toThrow(RangeError);
    expect(() => chance(1.5)).toThrow(RangeError);
    expect(() => chance(2 ** 32)).toThrow(RangeError);
    expect(chance(1)).toBe(0);
  });
});

describe('chooseMove', () => {
  const hand = ['AS', 'KS', 'QH', '9D', '7C'];

  it('only chooses what the view offers', () => {
    for (let seed = 0; seed < 200; seed++) {
      const chance = seededChance(seed);
      expect(['hearts', 'mizerka']).toContain(chooseMove(offer({ kind: 'contract', contracts: ['hearts', 'mizerka'] }), chance).contract);
      expect(['pass', 'misere']).toContain(chooseMove(offer({ kind: 'bid', bids: ['pass', 'misere'] }), chance).bid);
      expect(['S', 'H']).toContain(chooseMove(offer({ kind: 'trump', suits: ['S', 'H'] }), chance).suit);
      expect(hand).toContain(chooseMove(offer({ kind: 'play', cards: hand }), chance).card);

      const exchange = chooseMove(offer({ kind: 'exchange', cards: hand, maxDiscards: 3 }), chance).discards as string[];
      expect(exchange.length).toBeLessThanOrEqual(3);
      expect(new Set(exchange).size).toBe(exchange.length);
      for (const card of exchange) expect(hand).toContain(card);

      const discard = chooseMove(offer({ kind: 'discard', cards: hand, count: 2 }), chance).cards as string[];
      expect(discard).toHaveLength(2);
      expect(new Set(discard).size).toBe(2);
      for (const card of discard) expect(hand).toContain(card);
    }
  });

  it('exchanges every number of cards from 0 to maxDiscards', () => {
    const chance = seededChance('exchange');
    const sizes = new Set<number>();
    for (let i = 0; i < 500; i++) sizes.add((chooseMove(offer({ kind: 'exchange', cards: hand, maxDiscards: 4 }), chance).discards as string[]).length);
    expect([...sizes].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('refuses an empty offer or an unknown kind', () => {
    const chance = seededChance(1);
    expect(() => chooseMove(offer({ kind: 'play', cards: [] }), chance)).toThrow(/no cards offered/);
    expect(() => chooseMove(offer({ kind: 'discard', cards: hand }), chance)).toThrow(/no count offered/);
    expect(() => chooseMove(offer({ kind: 'shuffle' }), chance)).toThrow(/unknown legal move kind/);
    expect(() => sampleOf(hand, 6, chance)).toThrow();
  });
});
