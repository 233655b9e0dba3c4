import { describe, expect, it } from 'vitest';
import { biddingFamily, declarerScore } from './bidding.js';
import {
  buildDeck,
  cardName,
  currentPlayer,
  isOver,
  legalMoves,
  newGame,
  outcome,
  phase,
  view,
  type Bid,
  type GameState,
  type Rules,
} from './index.js';
import { dealInPlace } from './fast.js';
import { internal } from './game.js';
import { BIDS } from './rules.js';
import { cards, dealt, errorOf, playOut, rulesOf, step, stepEvents, suitCards } from './test-support.js';

const bidding = rulesOf('bidding');
const bidding4 = rulesOf('bidding-4');

/** Bids in order from the player to move. */
function bids(state: GameState, ...list: Bid[]): GameState {
  for (const bid of list) state = step(state, { kind: 'bid', seat: currentPlayer(state)!, bid });
  return state;
}

describe('bidding family: dealing', () => {
  it('32 cards, 7 to A; 10 rounds over the active players from the dealer\'s left, the last 2 to the talon', () => {
    expect(bidding.deck.map(cardName).slice(0, 9)).toEqual(['7C', '8C', '9C', 'TC', 'JC', 'QC', 'KC', 'AC', '7D']);
    const state = dealt(newGame(bidding, 0), bidding.deck);
    const nth = (seat: number, first: number) => Array.from({ length: 10 }, (_, i) => cardName(bidding.deck[first + 3 * i]));
    expect(view(state, 1).hand).toEqual(nth(1, 0));
    expect(view(state, 2).hand).toEqual(nth(2, 1));
    expect(view(state, 0).hand).toEqual(nth(0, 2));
    expect(view(state, null)).toMatchObject({ talonSize: 2, handSizes: [10, 10, 10], activeSeats: [0, 1, 2], phase: 'bidding', toMove: 1 });
  });

  it('with 4 players the dealer sits out and gets no cards', () => {
    const state = dealt(newGame(bidding4, 2), bidding4.deck);
    expect(view(state, 3).hand).toEqual(Array.from({ length: 10 }, (_, i) => cardName(bidding4.deck[3 * i])));
    expect(view(state, 0).hand).toEqual(Array.from({ length: 10 }, (_, i) => cardName(bidding4.deck[1 + 3 * i])));
    expect(view(state, 1).hand).toEqual(Array.from({ length: 10 }, (_, i) => cardName(bidding4.deck[2 + 3 * i])));
    expect(view(state, 2).hand).toEqual([]);
    expect(view(state, null)).toMatchObject({ handSizes: [10, 10, 0, 10], activeSeats: [0, 1, 3], toMove: 3, tricks: [0, 0, null, 0] });
  });

  it('refuses 52-card decks and 2–6', () => {
    const state = newGame(bidding, 0);
    expect(dealInPlace(state, Array.from({ length: 52 }, (_, i) => i))?.rule).toBe('deck-length');
    const deck = [...bidding.deck];
    deck[0] = 0; // 2C
    expect(dealInPlace(state, deck)?.rule).toBe('deck-unknown-card');
  });
});

describe('bidding family: bidding', () => {
  it('goes once around from the dealer\'s left; a non-pass bid must rank above every earlier bid', () => {
    let state = dealt(newGame(bidding, 0), bidding.deck);
    expect(legalMoves(state)).toEqual({ kind: 'bid', seat: 1, bids: ['pass', 'play', 'misere'] });
    expect(errorOf(state, { kind: 'bid', seat: 2, bid: 'pass' })).toMatchObject({ code: 'NOT_YOUR_TURN' });
    state = bids(state, 'misere');
    expect(legalMoves(state)).toEqual({ kind: 'bid', seat: 2, bids: ['pass'] });
    expect(errorOf(state, { kind: 'bid', seat: 2, bid: 'play' })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'bid-too-low' });
    expect(errorOf(state, { kind: 'bid', seat: 2, bid: 'misere' })).toMatchObject({ rule: 'bid-too-low' });
    state = bids(state, 'pass', 'pass');
    expect(view(state, null)).toMatchObject({ declarer: 1, bid: 'misere', bids: ['pass', 'misere', 'pass'], phase: 'discard', toMove: 1 });
  });

  it('the highest bidder declares', () => {
    const state = bids(dealt(newGame(bidding, 0), bidding.deck), 'play', 'misere', 'pass');
    expect(view(state, null)).toMatchObject({ declarer: 2, bid: 'misere' });
  });

  it('double misère only with the option', () => {
    const off = dealt(newGame(bidding, 0), bidding.deck);
    expect(errorOf(off, { kind: 'bid', seat: 1, bid: 'double-misere' })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'double-misere-disabled' });
    const rules = rulesOf('bidding', { doubleMisere: true });
    let on = dealt(newGame(rules, 0), rules.deck);
    expect(legalMoves(on)).toMatchObject({ bids: ['pass', 'play', 'misere', 'double-misere'] });
    on = bids(on, 'play', 'double-misere');
    expect(legalMoves(on)).toMatchObject({ bids: ['pass'] });
    expect(errorOf(on, { kind: 'bid', seat: 0, bid: 'double-misere' })).toMatchObject({ rule: 'bid-too-low' });
    on = bids(on, 'pass');
    // No talon: straight to play; the talon stays hidden; the declarer's left (seat 0) leads.
    expect(view(on, 2)).toMatchObject({ declarer: 2, bid: 'double-misere', phase: 'play', toMove: 0, talonSize: 2, trump: null });
    expect(view(on, 2).hand).toHaveLength(10);
  });

  it('all pass with 3 players: the dealer must play', () => {
    const state = bids(dealt(newGame(bidding, 1), bidding.deck), 'pass', 'pass', 'pass');
    expect(view(state, null)).toMatchObject({ declarer: 1, bid: 'play', phase: 'discard', toMove: 1 });
  });

  it('all pass with 4 players: the last active bidder, on the dealer\'s right, must play', () => {
    const state = bids(dealt(newGame(bidding4, 1), bidding4.deck), 'pass', 'pass', 'pass');
    expect(view(state, null)).toMatchObject({ declarer: 0, bid: 'play', phase: 'discard', toMove: 0, bids: ['pass', null, 'pass', 'pass'] });
  });
});

describe('bidding family: talon, discard, trump, lead', () => {
  // Dealer 0: seat 1 bids first. Seat 1 gets positions 0, 3, …; talon = last two deck cards.
  const deck = buildDeck(bidding, 0, { talon: cards('AS', 'AH') });

  it('a play declarer takes the talon, discards exactly 2 of 12, names trump; the left of the declarer leads', () => {
    let state = dealt(newGame(bidding, 0), deck);
    const before = view(state, 2).hand!;
    state = bids(state, 'pass', 'play');
    const r = stepEvents(state, { kind: 'bid', seat: 0, bid: 'pass' });
    expect(r.events).toEqual([
      { type: 'bid', seat: 0, bid: 'pass' },
      { type: 'declarer', seat: 2, bid: 'play' },
      { type: 'talonTaken', seat: 2, cards: cards('AS', 'AH') },
    ]);
    state = r.state;
    expect(view(state, 2).hand).toEqual([...before, 'AH', 'AS'].sort((a, b) => cards(a)[0] - cards(b)[0]));
    expect(view(state, 2).handSizes).toEqual([10, 10, 12]);
    expect(view(state, 0).hand).not.toContain('AS');
    expect(view(state, null).talonSize).toBe(0);
    expect(legalMoves(state)).toMatchObject({ kind: 'discard', seat: 2, count: 2 });
    const hand = cards(...view(state, 2).hand!);
    expect(errorOf(state, { kind: 'discard', seat: 2, cards: [hand[0]] })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'discard-two' });
    expect(errorOf(state, { kind: 'discard', seat: 2, cards: hand.slice(0, 3) })).toMatchObject({ rule: 'discard-two' });
    expect(errorOf(state, { kind: 'discard', seat: 2, cards: [hand[0], hand[0]] })).toMatchObject({ rule: 'duplicate-card' });
    const other = cards(view(state, 0).hand![0])[0];
    expect(errorOf(state, { kind: 'discard', seat: 2, cards: [hand[0], other] })).toMatchObject({ rule: 'card-not-in-hand' });
    expect(errorOf(state, { kind: 'trump', seat: 2, suit: 'hearts' })).toMatchObject({ code: 'WRONG_PHASE' });
    // Discarding the two talon cards is allowed: any 2 of the 12.
    state = step(state, { kind: 'discard', seat: 2, cards: cards('AS', 'AH') });
    expect(view(state, 2).discards).toEqual(['AH', 'AS']);
    expect(view(state, 1).discards).toEqual([]);
    expect(view(state, 2).hand).toEqual(before);
    expect(legalMoves(state)).toEqual({ kind: 'trump', seat: 2, suits: ['clubs', 'diamonds', 'hearts', 'spades'] });
    state = step(state, { kind: 'trump', seat: 2, suit: 'diamonds' });
    expect(view(state, null)).toMatchObject({ trump: 'diamonds', phase: 'play', toMove: 0 });
    state = playOut(state);
    const o = outcome(state).deals[0];
    expect(o).toMatchObject({ dealer: 0, declarer: 2, bid: 'play', trump: 'diamonds' });
    expect((o.tricks as number[]).reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('misère: talon and discard, no trump; play starts at once', () => {
    let state = bids(dealt(newGame(bidding, 0), deck), 'misere', 'pass', 'pass');
    state = step(state, { kind: 'discard', seat: 1, cards: cards('AS', 'AH') });
    expect(view(state, null)).toMatchObject({ phase: 'play', trump: null, toMove: 2 });
  });

  it('with 4 players the lead skips the dealer who sits out', () => {
    // Dealer 2; the declarer is seat 1, whose left is seat 2, the dealer: seat 3 leads.
    let state = bids(dealt(newGame(bidding4, 2), bidding4.deck), 'pass', 'pass', 'misere');
    expect(view(state, null)).toMatchObject({ declarer: 1, bid: 'misere' });
    const hand = cards(...view(state, 1).hand!);
    state = step(state, { kind: 'discard', seat: 1, cards: hand.slice(0, 2) });
    expect(view(state, null)).toMatchObject({ phase: 'play', toMove: 3 });
    state = playOut(state);
    const o = outcome(state).deals[0];
    expect(o.tricks[2]).toBeNull();
    expect(o.scores![2]).toBe(0);
  });
});

describe('bidding family: scores', () => {
  it.each([
    ['play', 8, 30, 0],
    ['play', 3, -20, 10],
    ['play', 5, 0, 0],
    ['play', 10, 50, 0],
    ['play', 0, -50, 25],
    ['misere', 0, 50, 0],
    ['misere', 2, -40, 20],
    ['misere', 1, -20, 10],
    ['double-misere', 1, -40, 20],
    ['double-misere', 0, 100, 0],
    ['double-misere', 3, -120, 60],
  ] as const)('%s, declarer takes %i: declarer %i, each defender %i', (bid, t, declarerPoints, defenderPoints) => {
    expect(declarerScore(BIDS.indexOf(bid), t)).toBe(declarerPoints);
    for (const rules of [bidding, bidding4]) {
      const state = dealt(newGame(rules, 0), rules.deck);
      const s = internal(state);
      s.declarer = 2;
      s.bid = BIDS.indexOf(bid);
      s.tricks.fill(0);
      s.tricks[2] = t;
      s.tricks[1] = 10 - t;
      const expected = rules.players === 3 ? [defenderPoints, defenderPoints, declarerPoints] : [0, defenderPoints, declarerPoints, defenderPoints];
      expect(biddingFamily.scores(s)).toEqual(expected);
    }
  });

  it('a play declarer with all the top cards takes 10 tricks: +50', () => {
    // Dealer 0; seat 1 holds every spade and the heart aces... 8 spades + AH AD: leads trumps and wins all.
    const deck = buildDeck(bidding, 0, { hands: { 1: [...suitCards('S', '789TJQKA'), 'AH', 'AD'] } });
    let state = bids(dealt(newGame(bidding, 0), deck), 'play', 'pass', 'pass');
    state = step(state, { kind: 'discard', seat: 1, cards: cards(...view(state, 1).hand!.filter((c) => c !== 'AH' && c !== 'AD' && !c.endsWith('S')).slice(0, 2)) });
    state = step(state, { kind: 'trump', seat: 1, suit: 'spades' });
    // Seat 2 leads; seat 1 trumps or follows high.
    state = playOut(state, (legal, seat) => (seat === 1 ? legal[legal.length - 1] : legal[0]));
    expect(outcome(state).deals[0]).toEqual({ dealer: 0, declarer: 1, bid: 'play', trump: 'spades', tricks: [0, 10, 0], scores: [0, 50, 0] });
  });
});

describe('bidding family: end of the game', () => {
  /** A misère that fails: the declarer holds every ace and king and must take tricks. */
  function failedMisere(rules: Rules, state: GameState): GameState {
    const dealer = internal(state).dealer;
    const first = rules.players === 4 ? (dealer + 1) % 4 : (dealer + 1) % 3;
    const deck = buildDeck(rules, dealer, { hands: { [first]: ['AC', 'AD', 'AH', 'AS', 'KC', 'KD', 'KH', 'KS', 'QC', 'QD'] } });
    state = bids(dealt(state, deck), 'misere', 'pass', 'pass');
    state = step(state, { kind: 'discard', seat: first, cards: cards(...view(state, first).hand!.slice(0, 2)) });
    return playOut(state, (legal, seat) => (seat === first ? legal[legal.length - 1] : legal[0]));
  }

  it('ends after a deal in which a total reaches the target; equal totals share', () => {
    const rules = rulesOf('bidding', { target: 20 });
    const state = failedMisere(rules, newGame(rules, 0));
    // Declarer seat 1 failed: the two defenders gain the same and tie at >= 20.
    const o = outcome(state);
    expect(o.finished).toBe(true);
    expect(isOver(state)).toBe(true);
    expect(o.totals[1]).toBeLessThan(0);
    expect(o.totals[0]).toBe(o.totals[2]);
    expect(o.totals[0]).toBeGreaterThanOrEqual(20);
    expect(o.winners).toEqual([0, 2]);
    expect(phase(state)).toBe('over');
  });

  it('goes on while every total is below the target', () => {
    const rules = rulesOf('bidding-4', { target: 1000 });
    let state = failedMisere(rules, newGame(rules, 0));
    expect(phase(state)).toBe('dealing');
    expect(outcome(state)).toMatchObject({ finished: false, winners: [] });
    expect(view(state, null)).toMatchObject({ dealer: 1, activeSeats: [0, 2, 3] });
    state = failedMisere(rules, state);
    expect(outcome(state).deals.map((d) => d.dealer)).toEqual([0, 1]);
    expect(outcome(state).deals[1].tricks[1]).toBeNull();
  });

  it('a total exactly at the target ends the game (>=)', () => {
    const probe = failedMisere(rulesOf('bidding', { target: 10000 }), newGame(rulesOf('bidding', { target: 10000 }), 0));
    const gain = outcome(probe).totals[0];
    const exact = rulesOf('bidding', { target: gain });
    expect(isOver(failedMisere(exact, newGame(exact, 0)))).toBe(true);
    const above = rulesOf('bidding', { target: gain + 1 });
    expect(isOver(failedMisere(above, newGame(above, 0)))).toBe(false);
  });
});
