// The test kit's own checks: its generators and constructions are what they claim, so that a
// failing rules test points at the engine, not at the kit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecord, replay } from '../src/index.js';
import {
  activeSeats, arbDeck, arbPlayedGame, arbRules, arbSeat, arbSeed, completeDeal, contractQuotas, deckFor, handSize,
  makeRng, mustRules, pbt, PBT_TIMEOUT, planTricks, splitDeck, talonSize, trickWinner,
} from './index.js';

describe('test kit', () => {
  it('arbSeed gives 32 hex digits; arbDeck a permutation', () => {
    fc.assert(fc.property(arbSeed, arbRules().chain((r) => fc.tuple(fc.constant(r), arbDeck(r))), (seed, [rules, deck]) => {
      expect(seed).toMatch(/^[0-9a-f]{32}$/);
      expect([...deck].sort((a, b) => a - b)).toStrictEqual([...rules.deck]);
    }), pbt(100));
  });

  it('splitDeck and deckFor are inverse; sizes as docs/rules.md says', () => {
    fc.assert(fc.property(arbRules().chain((r) => fc.tuple(fc.constant(r), arbSeat(r), arbDeck(r))), ([rules, dealer, deck]) => {
      const { hands, talon } = splitDeck(rules, dealer, deck);
      const active = activeSeats(rules, dealer);
      hands.forEach((h, s) => expect(h.length).toBe(active.includes(s) ? handSize(rules) : 0));
      expect(talon.length).toBe(talonSize(rules));
      expect(talon.length).toBe(rules.family === 'bidding' ? 2 : rules.players === 3 ? 13 : 12);
      expect(deckFor(rules, dealer, hands, talon)).toStrictEqual(deck);
    }), pbt(200));
  });

  it('completeDeal fills hands and talon with every unused card', () => {
    const rules = mustRules('classic-4');
    const { hands, talon } = completeDeal(rules, 1, [[51], [], [0, 1]], [25]);
    expect(hands[0][0]).toBe(51);
    expect(hands[2].slice(0, 2)).toStrictEqual([0, 1]);
    expect(talon[0]).toBe(25);
    expect(deckFor(rules, 1, hands, talon)).toHaveLength(52);
  });

  it('quotas add up to the tricks of a deal', () => {
    for (const preset of ['classic', 'classic-4'] as const) {
      for (const q of ['reversed', 'same'] as const) {
        const rules = mustRules(preset, { mizerkaQuotas: q });
        for (const c of rules.contracts) expect(contractQuotas(rules, 0, c).reduce((a, b) => a + b, 0)).toBe(handSize(rules));
      }
    }
  });

  it('planTricks gives every seat its tricks with legal plays (checked by replaying through the engine elsewhere)', () => {
    const rules = mustRules('bidding');
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom(null, 'hearts' as const), (a, b, trump) => {
      fc.pre(a + b <= 10);
      const tricks = [a, b, 10 - a - b];
      const plan = planTricks({ rules, active: [0, 1, 2], leader: 1, trump, tricks });
      const won = [0, 0, 0];
      for (let i = 0; i < plan.plays.length; i += 3) won[trickWinner(plan.plays.slice(i, i + 3), trump)] += 1;
      expect(won).toStrictEqual(tricks);
      expect(plan.unused).toHaveLength(2);
    }), pbt(60));
  }, PBT_TIMEOUT);

  it('arbPlayedGame records replay', () => {
    fc.assert(fc.property(arbPlayedGame({ maxMoves: 200 }), (game) => {
      const p = parseRecord(JSON.stringify(game.record));
      expect(p.ok && replay(p.value).ok).toBe(true);
    }), pbt(30));
  }, PBT_TIMEOUT);

  it('makeRng is deterministic and in range', () => {
    const a = makeRng(5);
    const b = makeRng(5);
    for (let i = 0; i < 100; i++) {
      const x = a.int(7);
      expect(x).toBe(b.int(7));
      expect(x >= 0 && x < 7).toBe(true);
    }
    expect(a.hexSeed()).toMatch(/^[0-9a-f]{32}$/);
  });
});
