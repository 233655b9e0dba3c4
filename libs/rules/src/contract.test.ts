import { describe, expect, it } from 'vitest';
import { contractFamily } from './contract.js';
import {
  buildDeck,
  cardName,
  currentPlayer,
  isOver,
  legalMoves,
  newGame,
  outcome,
  phase,
  shuffledDeck,
  view,
  Xoshiro128,
  type Contract,
  type GameState,
} from './index.js';
import { dealInPlace, randomPlayout } from './fast.js';
import { internal } from './game.js';
import { cards, dealt, errorOf, noExchanges, playOut, rulesOf, step, stepEvents, suitCards } from './test-support.js';

const ascending = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('contract family: dealing', () => {
  it('3 players: rounds to left of dealer, clockwise, dealer, talon; pause after 6 rounds', () => {
    const rules = rulesOf('classic');
    const state = dealt(newGame(rules, 0), ascending(52));
    // Dealer 0: piles 1, 2, 0, talon. Seat 1 gets deck positions 0, 4, 8, …
    expect(phase(state)).toBe('contract');
    expect(currentPlayer(state)).toBe(1);
    expect(view(state, 1).hand).toEqual(['2C', '6C', 'TC', 'AC', '5D', '9D']);
    expect(view(state, 2).hand).toEqual(['3C', '7C', 'JC', '2D', '6D', 'TD']);
    expect(view(state, 0).hand).toEqual(['4C', '8C', 'QC', '3D', '7D', 'JD']);
    expect(view(state, 0).handSizes).toEqual([6, 6, 6]);
    expect(view(state, null).talonSize).toBe(6);
    const after = step(state, { kind: 'contract', seat: 1, contract: 'notrumps' });
    expect(view(after, 1).hand).toEqual(ascending(13).map((i) => cardName(i * 4)));
    expect(view(after, 0).hand).toEqual(ascending(13).map((i) => cardName(i * 4 + 2)));
    expect(view(after, null).talonSize).toBe(13);
    expect(view(after, null).handSizes).toEqual([13, 13, 13]);
  });

  it('4 players: 10 rounds of 5 piles, then the last 2 cards to the talon, drawn in the order dealt', () => {
    const rules = rulesOf('classic-4');
    let state = dealt(newGame(rules, 3), ascending(52));
    // Dealer 3: piles 0, 1, 2, 3, talon. Talon = 4, 9, …, 49, then 50, 51.
    expect(view(state, 0).hand).toEqual([0, 5, 10, 15, 20, 25].map(cardName));
    expect(view(state, 3).hand).toEqual([3, 8, 13, 18, 23, 28].map(cardName));
    state = step(state, { kind: 'contract', seat: 0, contract: 'spades' });
    expect(view(state, 3).hand).toEqual(ascending(10).map((i) => cardName(i * 5 + 3)));
    expect(view(state, null).talonSize).toBe(12);
    // Seat 0 exchanges 11 cards? No: at most min(10, 12) = 10. It takes 10: talon cards 4 … 49.
    const { state: s2, events } = stepEvents(state, { kind: 'exchange', seat: 0, discards: ascending(10).map((i) => i * 5) });
    const ev = events.find((e) => e.type === 'exchanged');
    expect(ev).toMatchObject({ drawn: ascending(10).map((i) => i * 5 + 4) });
    expect(legalMoves(s2)).toMatchObject({ kind: 'exchange', seat: 1, maxDiscards: 2 });
    const { events: e3 } = stepEvents(s2, { kind: 'exchange', seat: 1, discards: [1, 6] });
    expect(e3.find((e) => e.type === 'exchanged')).toMatchObject({ drawn: [50, 51] });
  });

  it('refuses decks that are not permutations of the 52 cards', () => {
    const state = newGame(rulesOf('classic'), 0);
    expect(dealInPlace(state, ascending(51))?.rule).toBe('deck-length');
    expect(dealInPlace(state, [...ascending(51), 0])?.rule).toBe('deck-duplicate-card');
    expect(dealInPlace(state, [...ascending(51), 52])?.rule).toBe('deck-unknown-card');
    expect(dealInPlace(state, ascending(52))).toBeNull();
    expect(dealInPlace(state, ascending(52))).toMatchObject({ code: 'WRONG_PHASE', rule: 'deal-in-progress' });
  });
});

describe('contract family: choosing the contract', () => {
  it('the chooser is left of the dealer and chooses among the contracts they have not chosen', () => {
    const rules = rulesOf('classic');
    const state = dealt(newGame(rules, 2), ascending(52));
    expect(legalMoves(state)).toEqual({ kind: 'contract', seat: 0, contracts: ['clubs', 'diamonds', 'hearts', 'spades', 'notrumps', 'mizerka'] });
    expect(errorOf(state, { kind: 'contract', seat: 1, contract: 'hearts' })).toMatchObject({ code: 'NOT_YOUR_TURN', rule: 'not-your-turn' });
    expect(errorOf(state, { kind: 'play', seat: 0, card: 0 })).toMatchObject({ code: 'WRONG_PHASE' });
    expect(errorOf(state, { kind: 'exchange', seat: 0, discards: [] })).toMatchObject({ code: 'WRONG_PHASE' });
    expect(errorOf(state, { kind: 'bid', seat: 0, bid: 'pass' })).toMatchObject({ code: 'WRONG_PHASE' });
  });

  it('short has hearts, notrumps and mizerka only', () => {
    const state = dealt(newGame(rulesOf('short'), 0), ascending(52));
    expect(legalMoves(state)).toMatchObject({ contracts: ['hearts', 'notrumps', 'mizerka'] });
    expect(errorOf(state, { kind: 'contract', seat: 1, contract: 'clubs' })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'contract-not-in-rules' });
  });

  it('each player chooses each contract once; the last one is forced; then the game ends', () => {
    const rules = rulesOf('classic');
    const rng = new Xoshiro128(9, 8, 7, 6);
    let state: GameState = newGame(rules, 0);
    const order: Contract[] = ['mizerka', 'spades', 'notrumps', 'clubs', 'hearts', 'diamonds'];
    for (let d = 0; d < 18; d++) {
      expect(dealInPlace(state, shuffledDeck(rules, '0123456789abcdef0123456789abcde' + (d % 10)))).toBeNull();
      const chooser = (d + 1) % 3;
      const round = Math.floor(d / 3);
      const left = legalMoves(state);
      expect(left).toEqual({ kind: 'contract', seat: chooser, contracts: rules.contracts.filter((c) => !order.slice(0, round).includes(c)) });
      if (round > 0) {
        expect(errorOf(state, { kind: 'contract', seat: chooser, contract: order[0] })).toMatchObject({ rule: 'contract-already-chosen' });
      }
      if (round === 5) expect(left).toMatchObject({ contracts: ['diamonds'] });
      state = step(state, { kind: 'contract', seat: chooser, contract: order[round] });
      randomPlayout(state, rng);
      expect(isOver(state)).toBe(d === 17);
    }
    expect(outcome(state).deals.map((d) => ('contract' in d ? d.contract : null))).toEqual(order.flatMap((c) => [c, c, c]));
    expect(dealInPlace(state, ascending(52))).toMatchObject({ code: 'GAME_OVER' });
    expect(errorOf(state, { kind: 'play', seat: 0, card: 0 })).toMatchObject({ code: 'GAME_OVER', rule: 'game-over' });
  });

  it('a game has players × contracts deals', () => {
    expect(['classic', 'classic-4', 'short', 'short-4'].map((p) => rulesOf(p).deals)).toEqual([18, 24, 9, 12]);
  });
});

describe('contract family: exchange', () => {
  const rules = rulesOf('classic');
  // Dealer 0: chooser 1, then 2, dealer 0 last.
  const start = () => step(dealt(newGame(rules, 0), ascending(52)), { kind: 'contract', seat: 1, contract: 'notrumps' });

  it('goes from the chooser clockwise, the dealer last, each exactly once', () => {
    let state = start();
    expect(currentPlayer(state)).toBe(1);
    expect(errorOf(state, { kind: 'exchange', seat: 0, discards: [] })).toMatchObject({ code: 'NOT_YOUR_TURN' });
    state = step(state, { kind: 'exchange', seat: 1, discards: [] });
    expect(currentPlayer(state)).toBe(2);
    state = step(state, { kind: 'exchange', seat: 2, discards: [] });
    expect(currentPlayer(state)).toBe(0);
    state = step(state, { kind: 'exchange', seat: 0, discards: [] });
    expect(phase(state)).toBe('play');
    expect(currentPlayer(state)).toBe(1); // the chooser leads
    expect(errorOf(state, { kind: 'exchange', seat: 1, discards: [] })).toMatchObject({ code: 'WRONG_PHASE' });
  });

  it('draws the next k talon cards in order; discards leave play; only counts are public', () => {
    let state = start();
    // Seat 1 holds 0, 4, 8, …; the talon is 3, 7, 11, …
    state = step(state, { kind: 'exchange', seat: 1, discards: [0, 4] });
    expect(view(state, 1).hand).toContain('5C'); // card 3
    expect(view(state, 1).hand).toContain('9C'); // card 7
    expect(view(state, 1).hand).not.toContain('2C');
    expect(view(state, 1).discards).toEqual(['2C', '6C']);
    expect(view(state, 0).discards).toEqual([]);
    expect(view(state, 0).exchanged).toEqual([null, 2, null]);
    expect(view(state, null).talonSize).toBe(11);
    state = step(state, { kind: 'exchange', seat: 2, discards: [1] });
    expect(view(state, 2).hand).toContain('KC'); // card 11
    expect(view(state, 2).handSizes).toEqual([13, 13, 13]);
  });

  it('k is at most min(hand size, talon left)', () => {
    let state = start();
    expect(legalMoves(state)).toMatchObject({ kind: 'exchange', seat: 1, maxDiscards: 13 });
    const hand1 = ascending(13).map((i) => i * 4);
    state = step(state, { kind: 'exchange', seat: 1, discards: hand1.slice(0, 11) });
    expect(legalMoves(state)).toMatchObject({ kind: 'exchange', seat: 2, maxDiscards: 2 });
    expect(errorOf(state, { kind: 'exchange', seat: 2, discards: [1, 5, 9] })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'exchange-too-many' });
    state = step(state, { kind: 'exchange', seat: 2, discards: [1, 5] });
    expect(legalMoves(state)).toMatchObject({ kind: 'exchange', seat: 0, maxDiscards: 0 });
    expect(errorOf(state, { kind: 'exchange', seat: 0, discards: [2] })).toMatchObject({ rule: 'exchange-too-many' });
  });

  it('discards are distinct cards of the own hand', () => {
    const state = start();
    expect(errorOf(state, { kind: 'exchange', seat: 1, discards: [0, 0] })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'duplicate-card' });
    expect(errorOf(state, { kind: 'exchange', seat: 1, discards: [1] })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'card-not-in-hand' });
    expect(errorOf(state, { kind: 'exchange', seat: 1, discards: [99] })).toMatchObject({ code: 'BAD_MOVE' });
  });
});

describe('contract family: play', () => {
  it('follow suit when able, else any card; the highest trump wins, else the highest of the led suit', () => {
    const rules = rulesOf('classic');
    // Dealer 0, chooser 1, trump spades.
    const deck = buildDeck(rules, 0, {
      hands: {
        1: cards('2H', 'AC', '3S', '4D', '5D', '6D', '7D', '8D', '9D', 'TD', 'JD', 'QD', 'KD'),
        2: cards('3H', '2C', 'KC', '2S', 'AD', '3D', '2D', '4C', '5C', '6C', '7C', '8C', '9C'),
        0: cards('AH', 'KH', 'QH', 'JH', 'TH', '9H', '8H', '7H', '6H', '5H', '4H', 'TC', 'JC'),
      },
    });
    let state = noExchanges(step(dealt(newGame(rules, 0), deck), { kind: 'contract', seat: 1, contract: 'spades' }));
    expect(currentPlayer(state)).toBe(1);
    state = step(state, { kind: 'play', seat: 1, card: cards('2H')[0] });
    expect(legalMoves(state)).toEqual({ kind: 'play', seat: 2, cards: cards('3H') });
    expect(errorOf(state, { kind: 'play', seat: 2, card: cards('2S')[0] })).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'follow-suit' });
    expect(errorOf(state, { kind: 'play', seat: 2, card: cards('5H')[0] })).toMatchObject({ rule: 'card-not-in-hand' });
    state = step(state, { kind: 'play', seat: 2, card: cards('3H')[0] });
    const { state: s3, events } = stepEvents(state, { kind: 'play', seat: 0, card: cards('AH')[0] });
    expect(events.find((e) => e.type === 'trickTaken')).toEqual({ type: 'trickTaken', trick: 0, leader: 1, cards: cards('2H', '3H', 'AH'), winner: 0 });
    // Dealer leads clubs; seat 1 follows with AC; seat 2 has clubs too: KC, 2C... must follow.
    state = step(s3, { kind: 'play', seat: 0, card: cards('TC')[0] });
    state = step(state, { kind: 'play', seat: 1, card: cards('AC')[0] });
    state = step(state, { kind: 'play', seat: 2, card: cards('2C')[0] });
    expect(view(state, null).lastTrick).toMatchObject({ winner: 1 });
    // Seat 1 leads a diamond; seat 2 follows; dealer has none, may play anything; no trump played: AD wins.
    state = step(state, { kind: 'play', seat: 1, card: cards('4D')[0] });
    state = step(state, { kind: 'play', seat: 2, card: cards('AD')[0] });
    expect(legalMoves(state)).toMatchObject({ seat: 0, cards: cards('JC', '4H', '5H', '6H', '7H', '8H', '9H', 'TH', 'JH', 'QH', 'KH') });
    state = step(state, { kind: 'play', seat: 0, card: cards('KH')[0] });
    expect(view(state, null).lastTrick).toMatchObject({ winner: 2 });
    // Seat 2 leads clubs; seat 0 follows; seat 1 has no clubs and trumps with 3S: the trump wins.
    state = step(state, { kind: 'play', seat: 2, card: cards('KC')[0] });
    state = step(state, { kind: 'play', seat: 0, card: cards('JC')[0] });
    state = step(state, { kind: 'play', seat: 1, card: cards('3S')[0] });
    expect(view(state, null).lastTrick).toMatchObject({ leader: 2, winner: 1 });
    expect(view(state, null).tricks).toEqual([1, 2, 1]);
  });

  it('a chooser with all trumps takes every trick (spades row: C +6, R -5, D -1)', () => {
    const rules = rulesOf('classic');
    const deck = buildDeck(rules, 1, { hands: { 2: suitCards('S', '23456789TJQKA') } });
    let state = noExchanges(step(dealt(newGame(rules, 1), deck), { kind: 'contract', seat: 2, contract: 'spades' }));
    state = playOut(state);
    // Dealer 1: chooser 2, right of dealer 0.
    expect(outcome(state).deals[0]).toEqual({ dealer: 1, contract: 'spades', tricks: [0, 0, 13], scores: [-5, -1, 6] });
    expect(phase(state)).toBe('dealing');
    expect(view(state, null).dealer).toBe(2);
  });
});

describe('contract family: quotas and scores', () => {
  /** A state of a deal with the given dealer and contract, with trick counts set directly. */
  function scored(preset: string, options: object, dealer: number, contract: Contract, tricks: number[]): number[] {
    const rules = rulesOf(preset, options);
    const state = step(dealt(newGame(rules, dealer), ascending(52)), { kind: 'contract', seat: (dealer + 1) % rules.players, contract });
    internal(state).tricks.set(tricks);
    return contractFamily.scores(internal(state));
  }
  /** Seats by position: C, (X,) R, D → absolute seats for a dealer. */
  function bySeat(dealer: number, players: number, byPosition: number[]): number[] {
    const out = new Array<number>(players);
    byPosition.forEach((v, pos) => (out[(dealer + 1 + pos) % players] = v));
    return out;
  }

  it.each([
    // docs/rules.md worked examples, positions C, R, D / C, X, R, D.
    ['classic', {}, 'hearts', [9, 3, 1], [2, -2, 0]],
    ['classic', {}, 'spades', [13, 0, 0], [6, -5, -1]],
    ['classic', {}, 'mizerka', [0, 4, 9], [1, 1, -2]],
    ['classic', { mizerkaQuotas: 'same' }, 'mizerka', [0, 4, 9], [7, 1, -8]],
    ['classic-4', {}, 'notrumps', [5, 3, 1, 1], [1, 0, -1, 0]],
    ['classic-4', {}, 'mizerka', [0, 2, 3, 5], [1, 0, 0, -1]],
  ] as const)('%s %j %s: tricks %j → scores %j', (preset, options, contract, tricks, scores) => {
    const players = tricks.length;
    for (let dealer = 0; dealer < players; dealer++) {
      expect(scored(preset, options, dealer, contract, bySeat(dealer, players, [...tricks]))).toEqual(bySeat(dealer, players, [...scores]));
    }
  });

  it.each([
    ['classic', {}, 'clubs', [7, 5, 1]],
    ['classic', {}, 'notrumps', [7, 5, 1]],
    ['classic', {}, 'mizerka', [1, 5, 7]],
    ['classic', { mizerkaQuotas: 'same' }, 'mizerka', [7, 5, 1]],
    ['classic-4', {}, 'diamonds', [4, 3, 2, 1]],
    ['classic-4', {}, 'mizerka', [1, 2, 3, 4]],
    ['classic-4', { mizerkaQuotas: 'same' }, 'mizerka', [4, 3, 2, 1]],
  ] as const)('%s %j %s: a seat scores 0 at its quota, quotas %j by position', (preset, options, contract, quotas) => {
    const players = quotas.length;
    for (let dealer = 0; dealer < players; dealer++) {
      const tricks = bySeat(dealer, players, [...quotas]);
      expect(scored(preset, options, dealer, contract, tricks)).toEqual(new Array(players).fill(0));
      // One trick moved from the chooser to the dealer.
      const moved = [...quotas];
      moved[0] -= 1;
      moved[players - 1] += 1;
      const sign = contract === 'mizerka' ? -1 : 1;
      const expected = new Array(players).fill(0);
      expected[0] = -sign;
      expected[players - 1] = sign;
      expect(scored(preset, options, dealer, contract, bySeat(dealer, players, moved))).toEqual(bySeat(dealer, players, expected));
    }
  });
});

describe('contract family: end of the game', () => {
  /** A short game played with fixed decks and the lowest legal card; `before` runs before the last deal. */
  function shortGame(before: (state: GameState) => void): GameState {
    const rules = rulesOf('short');
    let state: GameState = newGame(rules, 0);
    for (let d = 0; d < 9; d++) {
      if (d === 8) before(state);
      state = dealt(state, shuffledDeck(rules, `c0ffee00c0ffee00c0ffee00c0ffee0${d}`));
      state = step(state, { kind: 'contract', seat: currentPlayer(state)!, contract: (legalMoves(state) as { contracts: Contract[] }).contracts[0] });
      state = playOut(noExchanges(state));
    }
    return state;
  }

  it('the highest total wins; equal totals share', () => {
    const plain = shortGame(() => {});
    const last = outcome(plain).deals[8].scores!;
    expect(isOver(plain)).toBe(true);
    // The same game, with totals before the last deal set so that seats 0 and 2 end level on top.
    const tied = shortGame((state) => internal(state).totals.set([10 - last[0], -20 - last[1], 10 - last[2]]));
    expect(outcome(tied)).toMatchObject({ totals: [10, -20, 10], finished: true, winners: [0, 2] });
    const single = shortGame((state) => internal(state).totals.set([10 - last[0], 11 - last[1], -21 - last[2]]));
    expect(outcome(single)).toMatchObject({ totals: [10, 11, -21], winners: [1] });
    const all = shortGame((state) => internal(state).totals.set([-last[0], -last[1], -last[2]]));
    expect(outcome(all).winners).toEqual([0, 1, 2]);
  });
});
