import { cardName, SUITS, type Suit } from './cards.js';
import type { GameEvent } from './events.js';
import { internal, legalMoves } from './game.js';
import type { LegalMoves } from './moves.js';
import type { Seat } from './result.js';
import { BIDS, CONTRACTS, type Bid, type Contract, type Preset } from './rules.js';
import { gameEnd } from './end.js';
import {
  activeSeats,
  maskCards,
  PH_DEALING,
  PH_OVER,
  PH_PLAY,
  PHASES,
  type DealOutcome,
  type EndReason,
  type GameEnd,
  type GameState,
  type Phase,
} from './state.js';

/**
 * The one redaction point (boardgame.io's playerView): everything a seat or a spectator receives
 * about the game is made here, with card names as strings. A seat sees its own hand, counts of
 * everything else, and public moves; never another hand, the talon, others' discards or the
 * undealt deck.
 */

export type LegalMovesView =
  | { kind: 'contract'; seat: Seat; contracts: Contract[] }
  | { kind: 'exchange'; seat: Seat; cards: string[]; maxDiscards: number }
  | { kind: 'bid'; seat: Seat; bids: Bid[] }
  | { kind: 'discard'; seat: Seat; cards: string[]; count: 2 }
  | { kind: 'trump'; seat: Seat; suits: Suit[] }
  | { kind: 'play'; seat: Seat; cards: string[] };

export interface TrickView {
  leader: Seat;
  cards: { seat: Seat; card: string }[];
}

export interface DealScoreView {
  deal: number;
  dealer: Seat;
  tricks: (number | null)[];
  scores: number[];
  contract?: Contract | null;
  declarer?: Seat | null;
  bid?: Bid | null;
  trump?: Suit | null;
}

export interface SeatView {
  family: 'contract' | 'bidding';
  preset: Preset;
  players: number;
  phase: Phase;
  deal: number;
  dealer: Seat;
  toMove: Seat | null;
  viewer: Seat | null;
  /** The viewer's hand, ascending (first 6 only before the contract is chosen); null for a spectator. */
  hand: string[] | null;
  /** The viewer's own discards this deal (exchange or declarer's discard); null for a spectator. */
  discards: string[] | null;
  handSizes: number[];
  legalMoves: LegalMovesView | null;
  talonSize: number;
  contract: Contract | null;
  chooser: Seat | null;
  /** Contract family: per seat, the contracts it has not chosen yet; [] for bidding. */
  contractsLeft: Contract[][];
  /** Contract family: cards exchanged per seat, null = not yet; [] for bidding. */
  exchanged: (number | null)[];
  /** Bidding family: per seat, null = not yet; [] for the contract family. */
  bids: (Bid | null)[];
  declarer: Seat | null;
  bid: Bid | null;
  trump: Suit | null;
  activeSeats: Seat[];
  currentTrick: TrickView | null;
  lastTrick: (TrickView & { winner: Seat }) | null;
  tricks: (number | null)[];
  dealScores: DealScoreView[];
  totals: number[];
  over: boolean;
  winners: Seat[];
  /** How the game ended early (resigned or forfeited), else null. */
  end: GameEnd | null;
}

export function legalMovesView(moves: LegalMoves): LegalMovesView {
  switch (moves.kind) {
    case 'exchange':
      return { kind: 'exchange', seat: moves.seat, cards: moves.cards.map(cardName), maxDiscards: moves.maxDiscards };
    case 'discard':
      return { kind: 'discard', seat: moves.seat, cards: moves.cards.map(cardName), count: 2 };
    case 'play':
      return { kind: 'play', seat: moves.seat, cards: moves.cards.map(cardName) };
    case 'contract':
      return { kind: 'contract', seat: moves.seat, contracts: [...moves.contracts] };
    case 'bid':
      return { kind: 'bid', seat: moves.seat, bids: [...moves.bids] };
    case 'trump':
      return { kind: 'trump', seat: moves.seat, suits: [...moves.suits] };
  }
}

function trickView(leader: number, len: number, seats: Int8Array, cards: Int8Array): TrickView {
  const out: TrickView = { leader, cards: [] };
  for (let i = 0; i < len; i++) out.cards.push({ seat: seats[i], card: cardName(cards[i]) });
  return out;
}

function dealScoreView(deal: number, d: DealOutcome): DealScoreView {
  return { deal, ...d, scores: d.scores ?? [] };
}

/** What one seat (or a spectator, null) may know, as JSON with card names. */
export function view(state: GameState, viewer: Seat | null): SeatView {
  const s = internal(state);
  if (viewer !== null && (!Number.isInteger(viewer) || viewer < 0 || viewer >= s.n)) {
    throw new RangeError(`viewer must be a seat 0..${s.n - 1} or null`);
  }
  const contractFamily = s.rules.family === 'contract';
  // No cards on the table between deals, nor once a game has ended early: the abandoned deal's
  // hands (during the contract pause, cards not yet dealt to their seat) and talon are not shown.
  const noCards = s.phase === PH_DEALING || s.endSeat >= 0;
  const seats = Array.from({ length: s.n }, (_, i) => i);
  const handSizes = seats.map((seat) => (noCards ? 0 : s.fam.visibleHand(s, seat).length));
  const moves = viewer !== null && viewer === s.toMove ? legalMoves(s) : null;
  const playing = s.phase === PH_PLAY;
  return {
    family: s.rules.family,
    preset: s.rules.preset,
    players: s.n,
    phase: PHASES[s.phase],
    deal: s.dealNo,
    dealer: s.dealer,
    toMove: s.toMove >= 0 ? s.toMove : null,
    viewer,
    hand: viewer === null ? null : noCards ? [] : s.fam.visibleHand(s, viewer).map(cardName),
    discards: viewer === null ? null : noCards ? [] : maskCards(s.discards, viewer).map(cardName),
    handSizes,
    legalMoves: moves ? legalMovesView(moves) : null,
    talonSize: noCards ? 0 : s.fam.talonSize(s),
    contract: s.contract >= 0 ? CONTRACTS[s.contract] : null,
    chooser: s.chooser >= 0 ? s.chooser : null,
    contractsLeft: contractFamily
      ? seats.map((seat) => s.rules.contracts.filter((c) => !((s.used[seat] >> CONTRACTS.indexOf(c)) & 1)))
      : [],
    exchanged: contractFamily ? seats.map((seat) => (s.exchanged[seat] >= 0 ? s.exchanged[seat] : null)) : [],
    bids: contractFamily ? [] : seats.map((seat) => (s.bids[seat] >= 0 ? BIDS[s.bids[seat]] : null)),
    declarer: s.declarer >= 0 ? s.declarer : null,
    bid: s.bid >= 0 ? BIDS[s.bid] : null,
    trump: s.trump >= 0 ? SUITS[s.trump] : null,
    activeSeats: activeSeats(s),
    currentTrick: playing ? trickView(s.leader, s.trickLen, s.trickSeats, s.trickCards) : null,
    lastTrick:
      s.lastLeader >= 0 ? { ...trickView(s.lastLeader, s.lastLen, s.lastSeats, s.lastCards), winner: s.lastWinner } : null,
    tricks: seats.map((seat) => (seat === s.sitOut ? null : s.tricks[seat])),
    dealScores: s.finished.map((d, i) => dealScoreView(i, d)),
    totals: Array.from(s.totals),
    over: s.phase === PH_OVER,
    winners: [...s.winners],
    end: gameEnd(s),
  };
}

export type EventView =
  | { type: 'dealt'; deal: number; dealer: Seat; hand: string[] | null; handSizes: number[]; talonSize: number }
  | { type: 'contractChosen'; seat: Seat; contract: Contract }
  | { type: 'handCompleted'; hand: string[] | null; handSizes: number[] }
  | { type: 'exchanged'; seat: Seat; count: number; discards?: string[]; drawn?: string[] }
  | { type: 'bid'; seat: Seat; bid: Bid }
  | { type: 'declarer'; seat: Seat; bid: Bid }
  | { type: 'talonTaken'; seat: Seat; count: number; cards?: string[] }
  | { type: 'discarded'; seat: Seat; count: number; cards?: string[] }
  | { type: 'trumpNamed'; seat: Seat; suit: Suit }
  | { type: 'cardPlayed'; seat: Seat; card: string }
  | { type: 'trickTaken'; trick: number; leader: Seat; cards: string[]; winner: Seat }
  | { type: 'dealScored'; deal: number; tricks: (number | null)[]; scores: number[]; totals: number[] }
  | { type: 'gameEnded'; seat: Seat; reason: EndReason }
  | { type: 'gameOver'; totals: number[]; winners: Seat[] };

/**
 * The event as `viewer` may see it (null = spectator). Private cards of others become counts:
 * hands → the viewer's own hand plus sizes; exchanged/talonTaken/discarded → { seat, count } for
 * anyone but the mover. Returns null when the viewer may see nothing of it (no event is wholly
 * private at present; callers should still allow for null).
 */
export function eventView(event: GameEvent, viewer: Seat | null): EventView | null {
  const own = (seat: Seat) => viewer !== null && viewer === seat;
  switch (event.type) {
    case 'dealt':
      return {
        type: 'dealt',
        deal: event.deal,
        dealer: event.dealer,
        hand: viewer === null ? null : (event.hands[viewer] ?? []).map(cardName),
        handSizes: event.hands.map((h) => h.length),
        talonSize: event.talonSize,
      };
    case 'handCompleted':
      return {
        type: 'handCompleted',
        hand: viewer === null ? null : (event.hands[viewer] ?? []).map(cardName),
        handSizes: event.hands.map((h) => h.length),
      };
    case 'exchanged':
      return own(event.seat)
        ? {
            type: 'exchanged',
            seat: event.seat,
            count: event.discards.length,
            discards: event.discards.map(cardName),
            drawn: event.drawn.map(cardName),
          }
        : { type: 'exchanged', seat: event.seat, count: event.discards.length };
    case 'talonTaken':
      return own(event.seat)
        ? { type: 'talonTaken', seat: event.seat, count: event.cards.length, cards: event.cards.map(cardName) }
        : { type: 'talonTaken', seat: event.seat, count: event.cards.length };
    case 'discarded':
      return own(event.seat)
        ? { type: 'discarded', seat: event.seat, count: event.cards.length, cards: event.cards.map(cardName) }
        : { type: 'discarded', seat: event.seat, count: event.cards.length };
    case 'cardPlayed':
      return { type: 'cardPlayed', seat: event.seat, card: cardName(event.card) };
    case 'trickTaken':
      return { ...event, cards: event.cards.map(cardName) };
    case 'dealScored':
      return { ...event, tricks: [...event.tricks], scores: [...event.scores], totals: [...event.totals] };
    case 'gameOver':
      return { ...event, totals: [...event.totals], winners: [...event.winners] };
    case 'gameEnded': // public: everyone learns who resigned or forfeited
    case 'contractChosen':
    case 'bid':
    case 'declarer':
    case 'trumpNamed':
      return { ...event };
  }
}
