// Cards are conserved: after every deal and every move, the hands (each seat's own view), the
// cards played (cardPlayed events), the discards (exchanged/discarded events) and the talon
// (talonSize) account for the deck exactly once, and each hand holds exactly the cards RULES.md's
// dealing order, exchanges and talon draws put there.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { arbGameSetup, BIDDING_PRESETS, CONTRACT_PRESETS, pbt, PBT_TIMEOUT, playChecked } from './test-kit/index.js';

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
});
