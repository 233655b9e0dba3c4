import { cardName, isCard, popcount, pushMaskCards, RANK_OF, SUIT_OF, type Card, type Suit } from './cards.js';
import type { GameEvent } from './events.js';
import type { LegalMoves, Move } from './moves.js';
import { ruleError, type RuleError, type Seat } from './result.js';
import type { Bid, Contract, Rules } from './rules.js';

/** One deal as the outcome reports it (docs/rules.md, key order included). */
export interface ContractDealOutcome {
  dealer: Seat;
  contract: Contract | null;
  tricks: number[];
  scores: number[] | null;
}
export interface BiddingDealOutcome {
  dealer: Seat;
  declarer: Seat | null;
  bid: Bid | null;
  trump: Suit | null;
  tricks: (number | null)[];
  scores: number[] | null;
}
export type DealOutcome = ContractDealOutcome | BiddingDealOutcome;

/** Why a game ended early (docs/rules.md, "Games that end early"). */
export type EndReason = 'resigned' | 'forfeit';
export const END_REASONS: readonly EndReason[] = ['resigned', 'forfeit'];
/** An early end: the seat that resigned or forfeited, and which of the two. */
export interface GameEnd {
  seat: Seat;
  reason: EndReason;
}

/** Opaque to callers; treat as immutable (apply copies). */
export interface GameState {
  readonly rules: Rules;
  readonly firstDealer: Seat;
}

export type Phase = 'dealing' | 'contract' | 'exchange' | 'bidding' | 'discard' | 'trump' | 'play' | 'over';
export const PHASES: readonly Phase[] = ['dealing', 'contract', 'exchange', 'bidding', 'discard', 'trump', 'play', 'over'];
export const PH_DEALING = 0;
export const PH_CONTRACT = 1;
export const PH_EXCHANGE = 2;
export const PH_BIDDING = 3;
export const PH_DISCARD = 4;
export const PH_TRUMP = 5;
export const PH_PLAY = 6;
export const PH_OVER = 7;

/**
 * A family is data plus the functions that differ; dealing into hands, tricks, scoring totals
 * and the end of the game around them are shared (game.ts, tricks.ts).
 */
export interface Family {
  readonly name: 'contract' | 'bidding';
  /** Deal a validated deck; the deal-level fields are already reset. */
  startDeal(s: State, deck: ArrayLike<Card>, ev: GameEvent[] | null): void;
  /** A move of the family's own phases (not 'play'); the mover is already known to be s.toMove. */
  step(s: State, move: Move, ev: GameEvent[] | null): RuleError | null;
  /** Legal moves in the family's own phases. */
  legal(s: State): LegalMoves;
  /** Scores of a finished deal, one per seat. */
  scores(s: State): number[];
  /** After the totals of the deal just finished are added. */
  gameEnds(s: State): boolean;
  dealOutcome(s: State, scores: number[] | null): DealOutcome;
  /** The cards a seat may see of its own hand now (the contract pause shows 6). */
  visibleHand(s: State, seat: Seat): Card[];
  /** Talon cards dealt and not yet drawn or taken. */
  talonSize(s: State): number;
}

/**
 * The whole state in a few numbers and small typed arrays, so that a copy is cheap and the
 * hot path (legal cards, follow suit, trick winner) is bit arithmetic.
 */
export interface State extends GameState {
  readonly fam: Family;
  readonly n: number; // players
  readonly handSize: number; // cards per hand after dealing = tricks per deal
  dealNo: number; // deal being played / to be dealt; the last one when over
  phase: number; // PH_*
  dealer: Seat;
  sitOut: number; // the dealer with bidding-4, else -1
  toMove: number; // -1 while dealing or over
  deck: Uint8Array; // this deal's deck, dealing order
  hands: Uint16Array; // [seat * 4 + suit] = rank mask
  discards: Uint16Array; // [seat * 4 + suit] = rank mask, this deal
  talon: Uint8Array; // in dealing order
  talonLen: number;
  talonPos: number; // next talon card to draw
  used: Uint8Array; // per seat, mask of CONTRACTS indexes chosen this game
  contract: number; // CONTRACTS index, -1
  chooser: number; // -1 for bidding
  exchanged: Int8Array; // per seat, -1 = not yet
  bids: Int8Array; // per seat, BIDS index, -1 = not yet
  bidsMade: number;
  declarer: number;
  bid: number;
  trump: number; // suit index, -1 = none
  leader: number;
  trickLen: number;
  trickNo: number; // tricks completed this deal
  trickCards: Int8Array; // 4
  trickSeats: Int8Array; // 4
  lastLeader: number; // -1 = none
  lastWinner: number;
  lastLen: number;
  lastCards: Int8Array;
  lastSeats: Int8Array;
  tricks: Int8Array; // per seat, this deal
  totals: Int32Array;
  finished: readonly DealOutcome[]; // copied on append, shared by copies of the state
  winners: readonly Seat[];
  endSeat: number; // the seat that resigned or forfeited, -1 = none (not ended early)
  endReason: number; // END_REASONS index, -1 = none
  abandoned: readonly DealOutcome[]; // the deal in progress when the game ended early (0 or 1; scores null)
}

export function createState(rules: Rules, fam: Family, firstDealer: Seat, handSize: number): State {
  const n = rules.players;
  return {
    rules,
    firstDealer,
    fam,
    n,
    handSize,
    dealNo: 0,
    phase: PH_DEALING,
    dealer: firstDealer,
    sitOut: sitOutOf(rules, firstDealer),
    toMove: -1,
    deck: new Uint8Array(rules.deck.length),
    hands: new Uint16Array(16),
    discards: new Uint16Array(16),
    talon: new Uint8Array(13),
    talonLen: 0,
    talonPos: 0,
    used: new Uint8Array(n),
    contract: -1,
    chooser: -1,
    exchanged: new Int8Array(n).fill(-1),
    bids: new Int8Array(n).fill(-1),
    bidsMade: 0,
    declarer: -1,
    bid: -1,
    trump: -1,
    leader: -1,
    trickLen: 0,
    trickNo: 0,
    trickCards: new Int8Array(4),
    trickSeats: new Int8Array(4),
    lastLeader: -1,
    lastWinner: -1,
    lastLen: 0,
    lastCards: new Int8Array(4),
    lastSeats: new Int8Array(4),
    tricks: new Int8Array(n),
    totals: new Int32Array(n),
    finished: [],
    winners: [],
    endSeat: -1,
    endReason: -1,
    abandoned: [],
  };
}

/** Every field written in createState's order, so that copies share one hidden class (monomorphic access). */
export function cloneState(s: State): State {
  return {
    rules: s.rules,
    firstDealer: s.firstDealer,
    fam: s.fam,
    n: s.n,
    handSize: s.handSize,
    dealNo: s.dealNo,
    phase: s.phase,
    dealer: s.dealer,
    sitOut: s.sitOut,
    toMove: s.toMove,
    deck: s.deck.slice(),
    hands: s.hands.slice(),
    discards: s.discards.slice(),
    talon: s.talon.slice(),
    talonLen: s.talonLen,
    talonPos: s.talonPos,
    used: s.used.slice(),
    contract: s.contract,
    chooser: s.chooser,
    exchanged: s.exchanged.slice(),
    bids: s.bids.slice(),
    bidsMade: s.bidsMade,
    declarer: s.declarer,
    bid: s.bid,
    trump: s.trump,
    leader: s.leader,
    trickLen: s.trickLen,
    trickNo: s.trickNo,
    trickCards: s.trickCards.slice(),
    trickSeats: s.trickSeats.slice(),
    lastLeader: s.lastLeader,
    lastWinner: s.lastWinner,
    lastLen: s.lastLen,
    lastCards: s.lastCards.slice(),
    lastSeats: s.lastSeats.slice(),
    tricks: s.tricks.slice(),
    totals: s.totals.slice(),
    finished: s.finished,
    winners: s.winners,
    endSeat: s.endSeat,
    endReason: s.endReason,
    abandoned: s.abandoned,
  };
}

/** Reset what belongs to one deal before dealing the next. */
export function resetDeal(s: State): void {
  // Loops, not fill(): these arrays are tiny and this runs once per deal on the hot path.
  for (let i = 0; i < 16; i++) s.hands[i] = s.discards[i] = 0;
  for (let i = 0; i < s.n; i++) {
    s.exchanged[i] = -1;
    s.bids[i] = -1;
    s.tricks[i] = 0;
  }
  s.talonLen = 0;
  s.talonPos = 0;
  s.contract = -1;
  s.chooser = -1;
  s.bidsMade = 0;
  s.declarer = -1;
  s.bid = -1;
  s.trump = -1;
  s.leader = -1;
  s.trickLen = 0;
  s.trickNo = 0;
}

/** With bidding-4 the dealer sits the deal out. */
export function sitOutOf(rules: Rules, dealer: Seat): number {
  return rules.family === 'bidding' && rules.players === 4 ? dealer : -1;
}

/** The next seat clockwise that takes part in the deal. */
export function nextSeat(s: State, seat: Seat): Seat {
  let next = seat + 1 === s.n ? 0 : seat + 1;
  if (next === s.sitOut) next = next + 1 === s.n ? 0 : next + 1;
  return next;
}

/** Deal a deck by a table of destinations (seat, or -1 for the talon, in order). */
export function dealByTable(s: State, deck: ArrayLike<Card>, table: Int8Array): void {
  const hands = s.hands;
  for (let i = 0; i < deck.length; i++) {
    const card = deck[i];
    const seat = table[i];
    if (seat >= 0) hands[seat * 4 + SUIT_OF[card]] |= 1 << RANK_OF[card];
    else s.talon[s.talonLen++] = card;
  }
}

export function addCard(masks: Uint16Array, seat: Seat, card: Card): void {
  masks[seat * 4 + SUIT_OF[card]] |= 1 << RANK_OF[card];
}

export function removeCard(masks: Uint16Array, seat: Seat, card: Card): void {
  masks[seat * 4 + SUIT_OF[card]] &= ~(1 << RANK_OF[card]);
}

export function hasCard(masks: Uint16Array, seat: Seat, card: Card): boolean {
  return ((masks[seat * 4 + SUIT_OF[card]] >> RANK_OF[card]) & 1) === 1;
}

/**
 * Checks a list of cards a seat gives up (exchange, discard): real cards, distinct, in the hand.
 * Seen-masks per suit keep it linear and allocation-free.
 */
export function ownCardsError(s: State, seat: Seat, cards: readonly Card[]): RuleError | null {
  let seen0 = 0;
  let seen1 = 0;
  let seen2 = 0;
  let seen3 = 0;
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i];
    if (!isCard(card)) return ruleError('BAD_MOVE', 'unknown-card', 'not a card');
    const suit = SUIT_OF[card];
    const bit = 1 << RANK_OF[card];
    const seen = suit === 0 ? seen0 : suit === 1 ? seen1 : suit === 2 ? seen2 : seen3;
    if (seen & bit) return ruleError('ILLEGAL_MOVE', 'duplicate-card', `${cardName(card)} is given twice`);
    if (suit === 0) seen0 |= bit;
    else if (suit === 1) seen1 |= bit;
    else if (suit === 2) seen2 |= bit;
    else seen3 |= bit;
    if ((s.hands[seat * 4 + suit] & bit) === 0) {
      return ruleError('ILLEGAL_MOVE', 'card-not-in-hand', `${cardName(card)} is not in your hand`);
    }
  }
  return null;
}

/** A seat's cards, ascending. */
export function maskCards(masks: Uint16Array, seat: Seat): Card[] {
  const out: Card[] = [];
  for (let suit = 0; suit < 4; suit++) pushMaskCards(out, suit, masks[seat * 4 + suit]);
  return out;
}

export function maskCount(masks: Uint16Array, seat: Seat): number {
  const b = seat * 4;
  return popcount(masks[b]) + popcount(masks[b + 1]) + popcount(masks[b + 2]) + popcount(masks[b + 3]);
}

/** Seats taking part in the deal, clockwise from seat 0. */
export function activeSeats(s: State): Seat[] {
  const seats: Seat[] = [];
  for (let seat = 0; seat < s.n; seat++) if (seat !== s.sitOut) seats.push(seat);
  return seats;
}
