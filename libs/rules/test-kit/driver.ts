// Plays whole games through the public API, choosing uniformly among the legal moves, and writes
// the game down as a mizerka-record/1 record.
import { apply, cardName, currentPlayer, deal, dealIndex, dealerOf, isOver, legalMoves, newGame, phase, shuffledDeck } from '../src/index.js';
import type { Card, GameEvent, GameRecord, GameState, LegalMoves, Move, RecordMove, Rules, Seat } from '../src/index.js';
import type { Rng } from './rng.js';

/** A move as the record writes it (docs/rules.md, "The game record"), written without the engine. */
export function moveJson(move: Move): RecordMove {
  switch (move.kind) {
    case 'contract':
      return { seat: move.seat, contract: move.contract };
    case 'exchange':
      return { seat: move.seat, exchange: move.discards.map(cardName) };
    case 'bid':
      return { seat: move.seat, bid: move.bid };
    case 'discard':
      return { seat: move.seat, discard: move.cards.map(cardName) };
    case 'trump':
      return { seat: move.seat, trump: move.suit };
    case 'play':
      return { seat: move.seat, play: cardName(move.card) };
  }
}

/** One move chosen uniformly: exchange picks a size 0..max, then that many distinct cards. */
export function randomMove(legal: LegalMoves, rng: Rng): Move {
  const seat = legal.seat;
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat, contract: rng.pick(legal.contracts) };
    case 'exchange':
      return { kind: 'exchange', seat, discards: rng.sample(legal.cards, rng.int(legal.maxDiscards + 1)) };
    case 'bid':
      return { kind: 'bid', seat, bid: rng.pick(legal.bids) };
    case 'discard':
      return { kind: 'discard', seat, cards: rng.sample(legal.cards, 2) };
    case 'trump':
      return { kind: 'trump', seat, suit: rng.pick(legal.suits) };
    case 'play':
      return { kind: 'play', seat, card: rng.pick(legal.cards) };
  }
}

export interface Step {
  dealIndex: number;
  /** Index of the move within its deal (as in the record). */
  moveIndex: number;
  before: GameState;
  legal: LegalMoves;
  move: Move;
  after: GameState;
  events: GameEvent[];
}

export interface DealStart {
  dealIndex: number;
  dealer: Seat;
  deck: Card[];
  before: GameState;
  after: GameState;
}

export interface PlayOptions {
  firstDealer?: Seat;
  /** Stop once this many deals are finished (the state is then 'dealing' or 'over'). */
  maxDeals?: number;
  /** Stop after this many moves in all (may leave a deal half played). */
  maxMoves?: number;
  /** The deck for a deal; default shuffledDeck(rules, rng.hexSeed()). */
  deckFor?: (dealIndex: number, dealer: Seat, rng: Rng) => Card[];
  /** Chooses the move; default uniform (randomMove). */
  chooseMove?: (legal: LegalMoves, state: GameState, rng: Rng) => Move;
  onDeal?: (d: DealStart) => void;
  onStep?: (s: Step) => void;
  /** Keep every step in the result (default true; turn off for long runs). */
  keepSteps?: boolean;
  players?: string[];
}

export interface PlayedGame {
  rules: Rules;
  firstDealer: Seat;
  record: GameRecord;
  steps: Step[];
  decks: Card[][];
  state: GameState;
  dealsFinished: number;
  moves: number;
  over: boolean;
}

export class DriverError extends Error {}

/** Plays a game with uniformly random legal moves; throws DriverError if the engine refuses a legal one. */
export function playRandomGame(rules: Rules, rng: Rng, opts: PlayOptions = {}): PlayedGame {
  const firstDealer = opts.firstDealer ?? 0;
  const maxDeals = opts.maxDeals ?? Infinity;
  const maxMoves = opts.maxMoves ?? Infinity;
  const keep = opts.keepSteps ?? true;
  const record: GameRecord = {
    format: 'mizerka-record/1',
    rules: { preset: rules.preset, options: rules.options },
    firstDealer,
    ...(opts.players ? { players: opts.players } : {}),
    deals: [],
  };
  const steps: Step[] = [];
  const decks: Card[][] = [];
  let state = newGame(rules, firstDealer);
  let finished = 0;
  let moves = 0;
  let moveIndex = 0;
  for (let guard = 0; guard < 1_000_000; guard++) {
    if (isOver(state) || moves >= maxMoves) break;
    if (phase(state) === 'dealing') {
      if (finished >= maxDeals) break;
      const index = dealIndex(state);
      const dealer = dealerOf(rules, firstDealer, index);
      const deck = opts.deckFor ? opts.deckFor(index, dealer, rng) : shuffledDeck(rules, rng.hexSeed());
      const r = deal(state, deck);
      if (!r.ok) throw new DriverError(`deal ${index} refused: ${JSON.stringify(r.error)}`);
      opts.onDeal?.({ dealIndex: index, dealer, deck, before: state, after: r.value });
      state = r.value;
      decks.push([...deck]);
      record.deals.push({ deck: deck.map(cardName), moves: [] });
      moveIndex = 0;
      continue;
    }
    const legal = legalMoves(state);
    if (legal === null) throw new DriverError(`no legal moves in phase ${phase(state)}, currentPlayer ${currentPlayer(state)}`);
    const move = opts.chooseMove ? opts.chooseMove(legal, state, rng) : randomMove(legal, rng);
    const r = apply(state, move);
    if (!r.ok) {
      throw new DriverError(`legal move refused (deal ${record.deals.length - 1}, move ${moveIndex}): ` +
        `${JSON.stringify(move)} from ${JSON.stringify(legal)}: ${JSON.stringify(r.error)}`);
    }
    const step: Step = { dealIndex: record.deals.length - 1, moveIndex, before: state, legal, move, after: r.value.state, events: r.value.events };
    record.deals[record.deals.length - 1].moves.push(moveJson(move));
    if (keep) steps.push(step);
    opts.onStep?.(step);
    state = r.value.state;
    moves += 1;
    moveIndex += 1;
    if (phase(state) === 'dealing' || isOver(state)) finished += 1;
  }
  return { rules, firstDealer, record, steps, decks, state, dealsFinished: finished, moves, over: isOver(state) };
}
