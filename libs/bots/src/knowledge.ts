import { parseCard, SUITS, type Bid, type Card, type Contract, type Seat } from '@mizerka/rules';
import type { BotInput } from './bot.js';

/**
 * What a seat knows about the deal, read from its view and its deal events only, as rank masks
 * (card = suit * 13 + rank, as in @mizerka/rules): the bots' search works on these, never on a GameState.
 */
export interface Knowledge {
  family: 'contract' | 'bidding';
  n: number;
  seat: Seat;
  dealer: Seat;
  /** The seats that play this deal, clockwise from seat 0. */
  active: Seat[];
  /** Suit index of the trump, -1 for none (or not named yet). */
  trump: number;
  contract: Contract | null;
  declarer: Seat | null;
  bid: Bid | null;
  /** Ranks present in the family's deck (2..A, or 7..A). */
  deckMask: number;
  /** The seat's own hand, per suit. */
  hand: Uint16Array;
  /** Cards out of play that this seat knows of: played this deal, and its own discards. */
  out: Uint16Array;
  /** Cards played this deal, per suit (a subset of out). */
  played: Uint16Array;
  /** Per seat, a 4-bit mask of the suits it has shown void in by not following. */
  voids: Uint8Array;
  /** Per seat, tricks taken so far this deal (0 for a seat that sits out). */
  tricks: Int8Array;
  /** Per seat, cards in hand now. */
  handSizes: number[];
  /** The trick on the table: cards and seats in play order. */
  trickCards: Card[];
  trickSeats: Seat[];
}

export const FULL_RANKS = 0x1fff;
/** 7 8 9 T J Q K A: ranks 5..12. */
export const SHORT_RANKS = 0x1fe0;

export function cardOf(name: string): Card {
  const card = parseCard(name);
  if (card === null) throw new Error(`not a card: ${name}`);
  return card;
}

export function addTo(masks: Uint16Array, card: Card): void {
  masks[(card / 13) | 0] |= 1 << card % 13;
}

export function masksOf(names: readonly string[]): Uint16Array {
  const masks = new Uint16Array(4);
  for (const name of names) addTo(masks, cardOf(name));
  return masks;
}

export function know(input: BotInput, seat: Seat): Knowledge {
  const { view, dealEvents } = input;
  const n = view.players;
  const trumpSuit = view.family === 'contract' ? view.contract : view.trump;
  const trump = trumpSuit === null ? -1 : SUITS.indexOf(trumpSuit as (typeof SUITS)[number]);
  const hand = masksOf(view.hand ?? []);
  const played = new Uint16Array(4);
  const voids = new Uint8Array(n);
  // Follow the tricks through the events: whoever did not follow the led suit holds none of it.
  const perTrick = view.activeSeats.length;
  let led = -1;
  let inTrick = 0;
  for (const event of dealEvents) {
    if (event.type !== 'cardPlayed') continue;
    const card = cardOf(event.card);
    const suit = (card / 13) | 0;
    addTo(played, card);
    if (inTrick === 0) led = suit;
    else if (suit !== led) voids[event.seat] |= 1 << led;
    inTrick = inTrick + 1 === perTrick ? 0 : inTrick + 1;
  }
  const trick = view.currentTrick?.cards ?? [];
  // The view's own trick too, should the events given be short of it.
  for (const c of trick) addTo(played, cardOf(c.card));
  const out = masksOf(view.discards ?? []);
  for (let suit = 0; suit < 4; suit++) out[suit] |= played[suit];
  return {
    family: view.family,
    n,
    seat,
    dealer: view.dealer,
    active: [...view.activeSeats],
    trump,
    contract: view.contract,
    declarer: view.declarer,
    bid: view.bid,
    deckMask: view.family === 'contract' ? FULL_RANKS : SHORT_RANKS,
    hand,
    out,
    played,
    voids,
    tricks: Int8Array.from(view.tricks, (t) => t ?? 0),
    handSizes: [...view.handSizes],
    trickCards: trick.map((c) => cardOf(c.card)),
    trickSeats: trick.map((c) => c.seat),
  };
}
