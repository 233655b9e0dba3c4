// Legal moves: at every point of random games, legalMoves is exactly what docs/rules.md allows (the
// reference model), every move inside it is accepted, and moves outside it are refused with a
// RuleError value (never a throw), the right code and rule id, a message that names no card the
// mover may not know, and the given state untouched.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { apply, cardName, currentPlayer, deal, dealIndex, isOver, legalMoves, outcome, phase, shuffledDeck, view } from './index.js';
import type { Card, GameState, Move, Rules, Seat } from './index.js';
import {
  arbGameSetup, badMoves, BIDDING_PRESETS, canon, cardNamesIn, CheckError, CONTRACT_PRESETS, expectError, expectRefused, knownToMover,
  legalSamples, makeRng, pbt, PBT_TIMEOUT, playChecked, snapshot,
} from '../test-kit/index.js';
import type { GameChecker, Rng, Step } from '../test-kit/index.js';

function checkMoves(step: Step, checker: GameChecker, rng: Rng): void {
  const m = checker.model;
  const before = snapshot(step.before);
  for (const move of legalSamples(step.legal, rng)) {
    let r: ReturnType<typeof apply>;
    try {
      r = apply(step.before, move);
    } catch (e) {
      throw new CheckError(`apply threw on legal move ${JSON.stringify(move)}: ${String(e)}`);
    }
    if (!r.ok) throw new CheckError(`legal move refused: ${JSON.stringify(move)} → ${JSON.stringify(r.error)} (legal ${JSON.stringify(step.legal)})`);
  }
  for (const bad of badMoves(m, step.legal, step.move, rng)) {
    expectRefused(step.before, bad, knownToMover(m, bad.move));
  }
  if (snapshot(step.before) !== before) throw new CheckError('apply changed the state it was given');
}

/** Decks deal() must refuse. */
function badDecks(rules: Rules, rng: Rng): { why: string; deck: unknown }[] {
  const deck = shuffledDeck(rules, rng.hexSeed());
  const other = rules.family === 'contract'
    ? deck.filter((c) => c % 13 >= 5) // 32 cards: a bidding deck
    : Array.from({ length: 52 }, (_, i) => i);
  const dup = [...deck];
  dup[1] = dup[0];
  const outside = [...deck];
  if (rules.family === 'bidding') outside[0] = 0; // 2C is not in the 32-card deck
  else outside[0] = 52;
  return [
    { why: 'deck one card short', deck: deck.slice(1) },
    { why: 'deck one card long', deck: [...deck, deck[0]] },
    { why: 'deck with a duplicate', deck: dup },
    { why: 'deck with a card outside the family deck', deck: outside },
    { why: 'deck of the other family', deck: other },
    { why: 'empty deck', deck: [] },
    { why: 'deck with a non-integer', deck: [0.5, ...deck.slice(1)] },
  ];
}

function checkDealing(state: GameState, rules: Rules, rng: Rng, over: boolean): void {
  const before = snapshot(state);
  const code = over ? 'GAME_OVER' : 'WRONG_PHASE';
  // Moves between deals (or after the game) are refused.
  const someCard: Card = rules.deck[rng.int(rules.deck.length)];
  const moves: Move[] = [
    { kind: 'play', seat: 0, card: someCard },
    rules.family === 'contract' ? { kind: 'contract', seat: 1, contract: rules.contracts[0] } : { kind: 'bid', seat: 1, bid: 'pass' },
  ];
  for (const move of moves) expectRefused(state, { why: `${move.kind} while ${over ? 'over' : 'dealing'}`, move, codes: [code] }, null);
  if (legalMoves(state) !== null || currentPlayer(state) !== null) throw new CheckError('moves offered while dealing or over');
  if (over) {
    expectError(deal(state, shuffledDeck(rules, rng.hexSeed())), { why: 'deal after the game is over', move: 'deal', codes: ['GAME_OVER', 'WRONG_PHASE'] });
  } else {
    for (const bad of badDecks(rules, rng)) {
      let r: ReturnType<typeof deal>;
      try {
        r = deal(state, bad.deck as Card[]);
      } catch (e) {
        throw new CheckError(`deal threw on a ${bad.why}: ${String(e)}`);
      }
      expectError(r, { why: bad.why, move: (bad.deck as number[]).map((c) => (Number.isInteger(c) && c >= 0 && c < 52 ? cardName(c) : c)), codes: ['BAD_DECK'] });
    }
  }
  if (snapshot(state) !== before) throw new CheckError('a refused move or deck changed the state');
}

/** A new game: phase dealing, nobody to move, deal 0, and no card anywhere in any view. */
function checkNewGame(state: GameState, rules: Rules): void {
  if (phase(state) !== 'dealing' || currentPlayer(state) !== null || dealIndex(state) !== 0 || isOver(state)) {
    throw new CheckError(`new game: phase ${phase(state)}, currentPlayer ${currentPlayer(state)}, dealIndex ${dealIndex(state)}, over ${isOver(state)}`);
  }
  for (let v: Seat | null = null; v === null || v < rules.players; v = v === null ? 0 : v + 1) {
    const text = JSON.stringify(view(state, v));
    if (cardNamesIn(text).length > 0) throw new CheckError(`view of a new game names cards: ${text}`);
  }
  const o = outcome(state);
  if (canon(o) !== canon({ deals: [], totals: new Array(rules.players).fill(0), finished: false, winners: [] })) {
    throw new CheckError(`outcome of a new game: ${JSON.stringify(o)}`);
  }
}

function runGame(maxDeals: number) {
  return (setup: Parameters<typeof playChecked>[0]): void => {
    const rng = makeRng(setup.rngSeed + 1);
    let lastDealt: GameState | null = null;
    const { game } = playChecked(setup, { legal: true }, {
      maxDeals,
      onDeal: (d) => {
        if (d.dealIndex === 0) checkNewGame(d.before, setup.rules);
        checkDealing(d.before, setup.rules, rng, false);
        lastDealt = d.after;
      },
      extra: checkMoves,
    });
    // A deck is refused mid-deal too.
    if (lastDealt !== null && legalMoves(lastDealt) !== null) {
      expectError(deal(lastDealt, shuffledDeck(setup.rules, rng.hexSeed())), { why: 'deal during a deal', move: 'deal', codes: ['WRONG_PHASE'] });
    }
    if (game.over) checkDealing(game.state, setup.rules, rng, true);
  };
}

describe('legal moves are exactly docs/rules.md\'s; others are refused with a RuleError', () => {
  it('contract family: first two deals of random games', () => {
    fc.assert(fc.property(arbGameSetup({ presets: CONTRACT_PRESETS }), runGame(2)), pbt(40));
  }, PBT_TIMEOUT);

  it('bidding family: random games to the end (targets 30–120)', () => {
    fc.assert(fc.property(arbGameSetup({ presets: BIDDING_PRESETS }), runGame(40)), pbt(30));
  }, PBT_TIMEOUT);
});
