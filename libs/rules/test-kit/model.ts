// A reference model of one game, written from docs/rules.md alone. It follows the moves the engine
// accepted and says what the engine should report: who is to move, which moves are legal, where
// every card is, who wins each trick, the scores. Tests compare the engine against it through the
// public API only.
import type { Bid, Card, Contract, Move, Rules, Seat, Suit } from '../src/index.js';
import {
  PAUSE_ROUNDS, SUITS, activeSeats, clockwiseFrom, handSize, leftOf, rankOf, splitDeck, suitOf,
} from './deck.js';

export const BID_RANK: Record<Bid, number> = { pass: 0, play: 1, misere: 2, 'double-misere': 3 };
const BIDS: readonly Bid[] = ['pass', 'play', 'misere', 'double-misere'];

export type ModelPhase = 'dealing' | 'contract' | 'exchange' | 'bidding' | 'discard' | 'trump' | 'play' | 'over';

/** The legal moves as docs/rules.md has them (bids: see `forcedLastBid`). */
export type ExpectedLegal =
  | { kind: 'contract'; seat: Seat; contracts: Contract[] }
  | { kind: 'exchange'; seat: Seat; cards: Card[]; maxDiscards: number }
  | { kind: 'bid'; seat: Seat; bids: Bid[]; forcedLastBid: boolean }
  | { kind: 'discard'; seat: Seat; cards: Card[]; count: 2 }
  | { kind: 'trump'; seat: Seat; suits: Suit[] }
  | { kind: 'play'; seat: Seat; cards: Card[] };

/** Quotas per seat for a contract-family deal (docs/rules.md "Quotas by position"). */
export function contractQuotas(rules: Rules, dealer: Seat, contract: Contract): number[] {
  const byPosition = rules.players === 3 ? [7, 5, 1] : [4, 3, 2, 1]; // clockwise from the chooser
  const reversed = contract === 'mizerka' && rules.mizerkaQuotas === 'reversed';
  const q = reversed ? [...byPosition].reverse() : byPosition;
  const out = new Array<number>(rules.players).fill(0);
  clockwiseFrom(rules.players, leftOf(rules.players, dealer)).forEach((seat, i) => (out[seat] = q[i]));
  return out;
}

export function contractScores(rules: Rules, dealer: Seat, contract: Contract, tricks: readonly number[]): number[] {
  const quotas = contractQuotas(rules, dealer, contract);
  return tricks.map((t, s) => (contract === 'mizerka' ? quotas[s] - t : t - quotas[s]));
}

export function declarerScore(bid: Bid, t: number): number {
  switch (bid) {
    case 'play':
      return (t - 5) * 10;
    case 'misere':
      return t === 0 ? 50 : -20 * t;
    case 'double-misere':
      return t === 0 ? 100 : -40 * t;
    case 'pass':
      throw new Error('test-kit: a declarer never has bid pass');
  }
}

export function biddingScores(
  rules: Rules, dealer: Seat, declarer: Seat, bid: Bid, tricks: readonly (number | null)[],
): number[] {
  const active = new Set(activeSeats(rules, dealer));
  const d = declarerScore(bid, tricks[declarer] ?? 0);
  return tricks.map((_, s) => (s === declarer ? d : active.has(s) && d < 0 ? -d / 2 : 0));
}

export function trickWinner(plays: readonly { seat: Seat; card: Card }[], trump: Suit | null): Seat {
  const led = suitOf(plays[0].card);
  const t = trump === null ? -1 : SUITS.indexOf(trump);
  const strength = (c: Card): number => (suitOf(c) === t ? 200 : suitOf(c) === led ? 100 : 0) + rankOf(c);
  let best = plays[0];
  for (const p of plays) if (strength(p.card) > strength(best.card)) best = p;
  return best.seat;
}

export const contractTrump = (c: Contract): Suit | null =>
  c === 'notrumps' || c === 'mizerka' ? null : c;

export interface DealModel {
  index: number;
  dealer: Seat;
  deck: Card[];
  active: Seat[];
  /** Per seat, cards in the order received by dealing (bidding-4 dealer: []). */
  received: Card[][];
  hands: Card[][];
  talon: Card[];
  /** Every talon card, in dealing order (for reporting at the end). */
  talonDealt: Card[];
  discards: Card[][];
  drawn: Card[][];
  exchanged: (number | null)[];
  contract: Contract | null;
  chooser: Seat | null;
  bids: (Bid | null)[];
  declarer: Seat | null;
  bid: Bid | null;
  trump: Suit | null;
  talonTakenBy: Seat | null;
  trick: { seat: Seat; card: Card }[];
  /** The last trick taken in this deal. */
  lastTrick: { leader: Seat; cards: { seat: Seat; card: Card }[]; winner: Seat } | null;
  leader: Seat | null;
  tricksDone: number;
  tricks: (number | null)[];
  played: Card[];
  scores: number[] | null;
}

/** What a move made the model expect, for comparing with the engine's events. */
export interface ModelEffect {
  drawn?: Card[];
  talonTaken?: Card[];
  declarer?: { seat: Seat; bid: Bid };
  trick?: { trick: number; leader: Seat; cards: Card[]; winner: Seat };
  dealScored?: { deal: number; tricks: (number | null)[]; scores: number[]; totals: number[] };
  gameOver?: { totals: number[]; winners: Seat[] };
}

export class GameModel {
  phase: ModelPhase = 'dealing';
  dealIndex = 0;
  totals: number[];
  winners: Seat[] = [];
  /** Contracts each seat has chosen so far in the game. */
  chosen: Contract[][];
  deal: DealModel | null = null;
  /** Finished deals: dealer, contract or bid, tricks, scores. */
  history: { dealer: Seat; contract: Contract | null; declarer: Seat | null; bid: Bid | null; trump: Suit | null;
    tricks: (number | null)[]; scores: number[] }[] = [];
  /** The cards of the most recent trick, even of an earlier deal (a view may still show it). */
  lastTrickCards: Card[] = [];

  constructor(readonly rules: Rules, readonly firstDealer: Seat) {
    this.totals = new Array<number>(rules.players).fill(0);
    this.chosen = Array.from({ length: rules.players }, () => []);
  }

  dealerOf(index: number): Seat {
    return (this.firstDealer + index) % this.rules.players;
  }

  get toMove(): Seat | null {
    return this.phase === 'dealing' || this.phase === 'over' ? null : this.expectedLegal()!.seat;
  }

  /** True while the contract-family deal is paused for the contract (hands show 6 cards). */
  get paused(): boolean {
    return this.phase === 'contract';
  }

  startDeal(deck: readonly Card[]): void {
    if (this.phase !== 'dealing') throw new Error(`model: deal in phase ${this.phase}`);
    const dealer = this.dealerOf(this.dealIndex);
    const { hands, talon } = splitDeck(this.rules, dealer, deck);
    const n = this.rules.players;
    const active = activeSeats(this.rules, dealer);
    this.deal = {
      index: this.dealIndex, dealer, deck: [...deck], active,
      received: hands.map((h) => [...h]), hands: hands.map((h) => [...h]), talon: [...talon], talonDealt: [...talon],
      discards: Array.from({ length: n }, () => []), drawn: Array.from({ length: n }, () => []),
      exchanged: new Array(n).fill(null),
      contract: null, chooser: this.rules.family === 'contract' ? leftOf(n, dealer) : null,
      bids: new Array(n).fill(null), declarer: null, bid: null, trump: null, talonTakenBy: null,
      trick: [], lastTrick: null, leader: null, tricksDone: 0,
      tricks: Array.from({ length: n }, (_, s) => (active.includes(s) ? 0 : null)),
      played: [], scores: null,
    };
    this.phase = this.rules.family === 'contract' ? 'contract' : 'bidding';
  }

  /** The cards `seat` holds as the engine should show them (the first six during the pause). */
  visibleHand(seat: Seat): Card[] {
    const d = this.deal;
    if (d === null) return [];
    return this.paused ? d.received[seat].slice(0, PAUSE_ROUNDS) : d.hands[seat];
  }

  /** Every card `viewer` may know of in this deal (null: a spectator). */
  known(viewer: Seat | null): Set<Card> {
    const d = this.deal;
    const k = new Set<Card>(this.lastTrickCards);
    if (d === null) return k;
    for (const c of d.played) k.add(c);
    for (const c of d.trick) k.add(c.card);
    if (this.phase === 'over') for (const c of d.talon) k.add(c); // the unused talon may be shown at the end
    if (viewer === null) return k;
    for (const c of this.visibleHand(viewer)) k.add(c);
    if (!this.paused) for (const c of d.received[viewer]) k.add(c);
    for (const c of d.discards[viewer]) k.add(c);
    for (const c of d.drawn[viewer]) k.add(c);
    return k;
  }

  private exchangeOrder(d: DealModel): Seat[] {
    return clockwiseFrom(this.rules.players, d.chooser!);
  }

  private bidOrder(d: DealModel): Seat[] {
    return d.active;
  }

  /** Seats playing the deal, clockwise from `from` (which must be active). */
  private playOrder(d: DealModel, from: Seat): Seat[] {
    return clockwiseFrom(this.rules.players, from).filter((s) => d.active.includes(s));
  }

  private nextToPlay(d: DealModel): Seat {
    const order = this.playOrder(d, d.leader!);
    return order[d.trick.length];
  }

  expectedLegal(): ExpectedLegal | null {
    const d = this.deal;
    if (d === null) return null;
    switch (this.phase) {
      case 'dealing':
      case 'over':
        return null;
      case 'contract': {
        const seat = d.chooser!;
        return { kind: 'contract', seat, contracts: this.rules.contracts.filter((c) => !this.chosen[seat].includes(c)) };
      }
      case 'exchange': {
        const seat = this.exchangeOrder(d).find((s) => d.exchanged[s] === null)!;
        return { kind: 'exchange', seat, cards: [...d.hands[seat]], maxDiscards: Math.min(d.hands[seat].length, d.talon.length) };
      }
      case 'bidding': {
        const order = this.bidOrder(d);
        const i = order.findIndex((s) => d.bids[s] === null);
        const seat = order[i];
        const best = Math.max(0, ...order.map((s) => (d.bids[s] === null ? 0 : BID_RANK[d.bids[s]!])));
        const bids = BIDS.filter((b) => b === 'pass' || (BID_RANK[b] > best && (b !== 'double-misere' || this.rules.doubleMisere)));
        return { kind: 'bid', seat, bids, forcedLastBid: i === order.length - 1 && best === 0 };
      }
      case 'discard':
        return { kind: 'discard', seat: d.declarer!, cards: [...d.hands[d.declarer!]], count: 2 };
      case 'trump':
        return { kind: 'trump', seat: d.declarer!, suits: [...SUITS] };
      case 'play': {
        const seat = this.nextToPlay(d);
        const hand = d.hands[seat];
        if (d.trick.length === 0) return { kind: 'play', seat, cards: [...hand] };
        const led = suitOf(d.trick[0].card);
        const follow = hand.filter((c) => suitOf(c) === led);
        return { kind: 'play', seat, cards: follow.length > 0 ? follow : [...hand] };
      }
    }
  }

  /** Whether docs/rules.md allows `move` now (bids: the forced last bid may be pass or not, see tests). */
  allows(move: Move): boolean {
    const legal = this.expectedLegal();
    if (legal === null || legal.seat !== move.seat || legal.kind !== move.kind) return false;
    switch (move.kind) {
      case 'contract':
        return (legal as { contracts: Contract[] }).contracts.includes(move.contract);
      case 'exchange': {
        const l = legal as { cards: Card[]; maxDiscards: number };
        return move.discards.length <= l.maxDiscards && new Set(move.discards).size === move.discards.length &&
          move.discards.every((c) => l.cards.includes(c));
      }
      case 'bid':
        return (legal as { bids: Bid[] }).bids.includes(move.bid);
      case 'discard': {
        const l = legal as { cards: Card[] };
        return move.cards.length === 2 && move.cards[0] !== move.cards[1] && move.cards.every((c) => l.cards.includes(c));
      }
      case 'trump':
        return SUITS.includes(move.suit);
      case 'play':
        return (legal as { cards: Card[] }).cards.includes(move.card);
    }
  }

  /** Follows a move the engine accepted. Throws when docs/rules.md does not allow it. */
  apply(move: Move): ModelEffect {
    if (!this.allows(move)) throw new Error(`model: docs/rules.md does not allow ${JSON.stringify(move)} in phase ${this.phase}`);
    const d = this.deal!;
    const effect: ModelEffect = {};
    const remove = (seat: Seat, cs: readonly Card[]): void => {
      d.hands[seat] = d.hands[seat].filter((c) => !cs.includes(c));
    };
    switch (move.kind) {
      case 'contract':
        d.contract = move.contract;
        this.chosen[move.seat].push(move.contract);
        d.trump = contractTrump(move.contract);
        this.phase = 'exchange';
        break;
      case 'exchange': {
        remove(move.seat, move.discards);
        const drawn = d.talon.splice(0, move.discards.length);
        d.hands[move.seat].push(...drawn);
        d.discards[move.seat].push(...move.discards);
        d.drawn[move.seat].push(...drawn);
        d.exchanged[move.seat] = move.discards.length;
        effect.drawn = drawn;
        if (d.exchanged.every((x) => x !== null)) {
          this.phase = 'play';
          d.leader = d.chooser;
        }
        break;
      }
      case 'bid': {
        d.bids[move.seat] = move.bid;
        const order = this.bidOrder(d);
        if (order.every((s) => d.bids[s] !== null)) {
          // Non-pass bids strictly rise, so the highest bid is unique; if all pass, the last bidder plays.
          const best = order.reduce((b, s) => (BID_RANK[d.bids[s]!] > BID_RANK[d.bids[b]!] ? s : b), order[0]);
          const allPassed = d.bids[best] === 'pass';
          const declarer = allPassed ? order[order.length - 1] : best;
          const bid: Bid = allPassed ? 'play' : d.bids[best]!;
          d.declarer = declarer;
          d.bid = bid;
          effect.declarer = { seat: declarer, bid };
          if (bid === 'double-misere') {
            this.phase = 'play';
            d.leader = this.playOrder(d, declarer)[1];
          } else {
            d.hands[declarer].push(...d.talon);
            d.drawn[declarer].push(...d.talon);
            effect.talonTaken = [...d.talon];
            d.talonTakenBy = declarer;
            d.talon = [];
            this.phase = 'discard';
          }
        }
        break;
      }
      case 'discard':
        remove(move.seat, move.cards);
        d.discards[move.seat].push(...move.cards);
        if (d.bid === 'play') {
          this.phase = 'trump';
        } else {
          this.phase = 'play';
          d.leader = this.playOrder(d, d.declarer!)[1];
        }
        break;
      case 'trump':
        d.trump = move.suit;
        this.phase = 'play';
        d.leader = this.playOrder(d, d.declarer!)[1];
        break;
      case 'play': {
        remove(move.seat, [move.card]);
        d.trick.push({ seat: move.seat, card: move.card });
        if (d.trick.length === d.active.length) {
          const winner = trickWinner(d.trick, d.trump);
          effect.trick = { trick: d.tricksDone, leader: d.leader!, cards: d.trick.map((p) => p.card), winner };
          d.lastTrick = { leader: d.leader!, cards: [...d.trick], winner };
          d.tricks[winner]! += 1;
          d.tricksDone += 1;
          d.played.push(...d.trick.map((p) => p.card));
          this.lastTrickCards = d.trick.map((p) => p.card);
          d.trick = [];
          d.leader = winner;
          if (d.tricksDone === handSize(this.rules)) this.finishDeal(d, effect);
        }
        break;
      }
    }
    return effect;
  }

  private finishDeal(d: DealModel, effect: ModelEffect): void {
    const scores = this.rules.family === 'contract'
      ? contractScores(this.rules, d.dealer, d.contract!, d.tricks as number[])
      : biddingScores(this.rules, d.dealer, d.declarer!, d.bid!, d.tricks);
    d.scores = scores;
    this.totals = this.totals.map((t, s) => t + scores[s]);
    this.history.push({ dealer: d.dealer, contract: d.contract, declarer: d.declarer, bid: d.bid, trump: d.trump,
      tricks: [...d.tricks], scores });
    effect.dealScored = { deal: d.index, tricks: [...d.tricks], scores, totals: [...this.totals] };
    this.dealIndex += 1;
    const over = this.rules.family === 'contract'
      ? this.dealIndex === this.rules.players * this.rules.contracts.length
      : this.totals.some((t) => t >= this.rules.target);
    if (over) {
      this.phase = 'over';
      const max = Math.max(...this.totals);
      this.winners = this.totals.flatMap((t, s) => (t === max ? [s] : []));
      effect.gameOver = { totals: [...this.totals], winners: this.winners };
    } else {
      this.phase = 'dealing';
    }
  }
}
