// The time-out move: always legal, always the documented plain choice, and made from the seat's
// own view only (docs/rules.md, "Time-out moves").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply, buildDeck, deal, legalMoves, moveToJson, newGame, view, type GameState, type Move } from './index.js';
import { timeOutMove } from './time-out.js';
import { arbGameSetup, makeRng, mustRules, pbt, PBT_TIMEOUT, playRandomGame, randomMove } from '../test-kit/index.js';

function seatToMove(state: GameState): number {
  return legalMoves(state)!.seat;
}

describe('timeOutMove', () => {
  it('is a legal move at every step of random games of every preset, and the same for the same view', () => {
    fc.assert(
      fc.property(arbGameSetup(), (setup) => {
        let chosen = 0;
        playRandomGame(setup.rules, makeRng(setup.rngSeed), {
          firstDealer: setup.firstDealer,
          maxDeals: setup.rules.family === 'contract' ? 2 : 6,
          keepSteps: false,
          // Half the moves are time-out moves: the driver applies them, and fails on a refusal.
          chooseMove: (legal, state, rng) => {
            const seen = view(state, legal.seat);
            const move = timeOutMove(seen);
            if (move === null) throw new Error(`no time-out move for the seat to move in ${seen.phase}`);
            // Only the view goes in: its JSON copy gives the same move.
            expect(timeOutMove(JSON.parse(JSON.stringify(seen)))).toEqual(move);
            chosen++;
            return rng.int(2) === 0 ? move : randomMove(legal, rng);
          },
        });
        expect(chosen).toBeGreaterThan(0);
      }),
      pbt(40),
    );
  }, PBT_TIMEOUT);

  it('is null for a spectator and for a seat whose turn it is not', () => {
    const rules = mustRules('classic');
    const dealt = deal(newGame(rules, 0), buildDeck(rules, 0, {}));
    if (!dealt.ok) throw new Error('deal refused');
    const chooser = seatToMove(dealt.value);
    expect(timeOutMove(view(dealt.value, null))).toBeNull();
    expect(timeOutMove(view(dealt.value, (chooser + 1) % 3))).toBeNull();
    expect(timeOutMove(view(dealt.value, chooser))).toEqual({ kind: 'contract', seat: chooser, contract: 'clubs' });
  });

  it('does not depend on cards the seat cannot see: two deals that differ only in others\' hands give the same move', () => {
    const rules = mustRules('bidding');
    // Dealer 0: seat 1 bids first. Its hand is fixed; the other seats' hands and the talon differ.
    const mine = ['7C', '9C', 'JD', 'QD', 'KH', 'AH', '8S', 'TS', 'JS', 'AS'];
    const a = deal(newGame(rules, 0), buildDeck(rules, 0, { hands: { 1: mine }, talon: ['7D', '8D'] }));
    const b = deal(newGame(rules, 0), buildDeck(rules, 0, { hands: { 1: mine }, talon: ['AD', 'AC'] }));
    if (!a.ok || !b.ok) throw new Error('deal refused');
    expect(view(a.value, 1)).toEqual(view(b.value, 1));
    expect(timeOutMove(view(a.value, 1))).toEqual(timeOutMove(view(b.value, 1)));
    expect(timeOutMove(view(a.value, 1))).toEqual({ kind: 'bid', seat: 1, bid: 'pass' });
  });

  it('makes the documented choice in each phase', () => {
    // Bidding: seat 1 passes, seat 2 passes, the dealer must play: it takes the talon and discards its two lowest.
    const rules = mustRules('bidding');
    const dealer = ['7S', '8H', 'AS', 'KS', 'QS', 'JS', 'TS', '9S', 'AH', 'KH'];
    let state: GameState = (() => {
      const d = deal(newGame(rules, 0), buildDeck(rules, 0, { hands: { 0: dealer }, talon: ['7H', 'AC'] }));
      if (!d.ok) throw new Error('deal refused');
      return d.value;
    })();
    const step = (move: Move | null) => {
      if (move === null) throw new Error('no time-out move');
      const r = apply(state, move);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      state = r.value.state;
      return moveToJson(move);
    };
    expect(step(timeOutMove(view(state, 1)))).toEqual({ seat: 1, bid: 'pass' });
    expect(step(timeOutMove(view(state, 2)))).toEqual({ seat: 2, bid: 'pass' });
    expect(step(timeOutMove(view(state, 0)))).toEqual({ seat: 0, bid: 'pass' }); // the last must play: it declares with pass
    expect(step(timeOutMove(view(state, 0)))).toEqual({ seat: 0, discard: ['7H', '7S'] });
    // Left: 8H AH KH AC and six spades: spades is the longest suit.
    expect(step(timeOutMove(view(state, 0)))).toEqual({ seat: 0, trump: 'spades' });
    // Seat 1 leads its lowest card.
    const lead = timeOutMove(view(state, 1));
    const hand = view(state, 1).hand!;
    const lowest = [...hand].sort((x, y) => '23456789TJQKA'.indexOf(x[0]) - '23456789TJQKA'.indexOf(y[0]) || 'CDHS'.indexOf(x[1]) - 'CDHS'.indexOf(y[1]))[0];
    expect(step(lead)).toEqual({ seat: 1, play: lowest });

    // Contract family: an exchange discards nothing.
    const classic = mustRules('classic');
    const d = deal(newGame(classic, 0), buildDeck(classic, 0, {}));
    if (!d.ok) throw new Error('deal refused');
    state = d.value;
    expect(step(timeOutMove(view(state, 1)))).toEqual({ seat: 1, contract: 'clubs' });
    expect(step(timeOutMove(view(state, 1)))).toEqual({ seat: 1, exchange: [] });
  });
});
