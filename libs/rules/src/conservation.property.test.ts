// Cards are conserved: after every deal and every move, the hands (each seat's own view), the
// cards played (cardPlayed events), the discards (exchanged/discarded events) and the talon
// (talonSize) account for the deck exactly once, and each hand holds exactly the cards docs/rules.md's
// dealing order, exchanges and talon draws put there.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply, deal, newGame, view } from './index.js';
import { arbDeck, arbGameSetup, arbRules, arbSeat, BIDDING_PRESETS, CheckError, CONTRACT_PRESETS, deckFor, leftOf, names, pbt, PBT_TIMEOUT, playChecked, sameSet, splitDeck } from '../test-kit/index.js';

describe('cards are conserved', () => {
  it('contract family, every preset and mizerkaQuotas option, first two deals', () => {
    fc.assert(fc.property(arbGameSetup({ presets: CONTRACT_PRESETS }), (setup) => {
      playChecked(setup, { conservation: true, events: true }, { maxDeals: 2 });
    }), pbt(60));
  }, PBT_TIMEOUT);

  it('bidding family, every preset, target and doubleMisere option, first four deals', () => {
    fc.assert(fc.property(arbGameSetup({ presets: BIDDING_PRESETS }), (setup) => {
      playChecked(setup, { conservation: true, events: true }, { maxDeals: 4 });
    }), pbt(60));
  }, PBT_TIMEOUT);

  it('any deck is dealt as docs/rules.md\'s dealing order says (deckFor inverts it)', () => {
    fc.assert(fc.property(arbRules().chain((rules) => fc.tuple(fc.constant(rules), arbSeat(rules), arbDeck(rules))), ([rules, dealer, deck]) => {
      const { hands, talon } = splitDeck(rules, dealer, deck);
      expect(deckFor(rules, dealer, hands, talon)).toStrictEqual(deck);
      const dealt = deal(newGame(rules, dealer), deck);
      if (!dealt.ok) throw new CheckError(`deal refused a permutation: ${JSON.stringify(dealt.error)}`);
      let state = dealt.value;
      if (rules.family === 'contract') {
        const r = apply(state, { kind: 'contract', seat: leftOf(rules.players, dealer), contract: rules.contracts[0] });
        if (!r.ok) throw new CheckError(JSON.stringify(r.error));
        state = r.value.state;
      }
      for (let s = 0; s < rules.players; s++) {
        const hand = view(state, s).hand ?? [];
        if (!sameSet(hand, names(hands[s]))) throw new CheckError(`seat ${s}: ${hand} instead of ${names(hands[s])}`);
      }
      expect(view(state, null).talonSize).toBe(talon.length);
    }), pbt(300));
  }, PBT_TIMEOUT);
});
