// Dealing order, as docs/rules.md states it, written independently of the engine so that tests can
// build a deck that gives chosen cards to chosen seats (and read a deck back into hands).
import { cardName, parseCard } from '../src/index.js';
import type { Card, Rules, Seat, Suit } from '../src/index.js';

export const SUITS: readonly Suit[] = ['clubs', 'diamonds', 'hearts', 'spades'];

export const suitOf = (card: Card): number => Math.floor(card / 13);
export const rankOf = (card: Card): number => card % 13;
export const suitName = (card: Card): Suit => SUITS[suitOf(card)];

/** 'AS' → 51; throws on a bad name (test inputs are meant to be right). */
export function card(name: string): Card {
  const c = parseCard(name);
  if (c === null) throw new Error(`test-kit: not a card: ${JSON.stringify(name)}`);
  return c;
}
export const cards = (names: readonly string[] | string): Card[] =>
  (typeof names === 'string' ? names.split(/\s+/).filter((s) => s !== '') : names).map(card);
export const names = (cs: readonly Card[]): string[] => cs.map(cardName);

/** Seats clockwise starting with `from`. */
export function clockwiseFrom(players: number, from: Seat): Seat[] {
  return Array.from({ length: players }, (_, i) => (((from + i) % players) + players) % players);
}
export const leftOf = (players: number, seat: Seat): Seat => (seat + 1) % players;
export const rightOf = (players: number, seat: Seat): Seat => (seat + players - 1) % players;

/** Seats that play the deal, clockwise from the dealer's left (bidding-4: the dealer sits out). */
export function activeSeats(rules: Rules, dealer: Seat): Seat[] {
  const all = clockwiseFrom(rules.players, leftOf(rules.players, dealer));
  return rules.family === 'bidding' && rules.players === 4 ? all.filter((s) => s !== dealer) : all;
}

export function handSize(rules: Rules): number {
  return rules.family === 'bidding' ? 10 : rules.players === 3 ? 13 : 10;
}
export function talonSize(rules: Rules): number {
  const active = rules.family === 'bidding' ? 3 : rules.players;
  return rules.deck.length - active * handSize(rules);
}
/** Cards each hand holds when the contract-family deal pauses for the contract. */
export const PAUSE_ROUNDS = 6;

export type Pile = Seat | 'talon';

/**
 * For each position of the deck, the pile its card goes to.
 * Contract family: rounds to [left of dealer … dealer, talon] until the hands are full, the rest
 * to the talon. Bidding family: rounds over the active seats from the dealer's left, 10 rounds,
 * the last two cards to the talon.
 */
export function dealingOrder(rules: Rules, dealer: Seat): Pile[] {
  const size = handSize(rules);
  const seats = activeSeats(rules, dealer);
  const piles: Pile[] = rules.family === 'contract' ? [...seats, 'talon'] : seats;
  const order: Pile[] = [];
  for (let round = 0; round < size; round++) order.push(...piles);
  while (order.length < rules.deck.length) order.push('talon');
  return order;
}

export interface DealtCards {
  /** Per seat, in the order received ([] for a seat that sits out). */
  hands: Card[][];
  /** In the order dealt, which is the order it is drawn. */
  talon: Card[];
}

export function splitDeck(rules: Rules, dealer: Seat, deck: readonly Card[]): DealtCards {
  const order = dealingOrder(rules, dealer);
  if (deck.length !== order.length) throw new Error(`test-kit: deck has ${deck.length} cards, not ${order.length}`);
  const hands: Card[][] = Array.from({ length: rules.players }, () => []);
  const talon: Card[] = [];
  order.forEach((pile, i) => (pile === 'talon' ? talon : hands[pile]).push(deck[i]));
  return { hands, talon };
}

/** The cards a seat holds at the contract pause: its first six. */
export function pauseHands(rules: Rules, dealer: Seat, deck: readonly Card[]): Card[][] {
  return splitDeck(rules, dealer, deck).hands.map((h) => h.slice(0, PAUSE_ROUNDS));
}

function assertPermutation(rules: Rules, deck: readonly Card[], what: string): void {
  const want = [...rules.deck].sort((a, b) => a - b);
  const got = [...deck].sort((a, b) => a - b);
  if (want.length !== got.length || want.some((c, i) => c !== got[i])) {
    throw new Error(`test-kit: ${what} is not a permutation of the ${rules.preset} deck`);
  }
}

/**
 * The deck, in dealing order, that gives `hands[seat]` to each seat (in that order: with the
 * contract family the first six are what the seat sees at the pause) and `talon` to the talon
 * (in drawing order). Every card of rules.deck must be used exactly once; a seat that sits out
 * gets [] (or undefined).
 */
export function deckFor(
  rules: Rules,
  dealer: Seat,
  hands: readonly (readonly Card[] | undefined)[],
  talon: readonly Card[],
): Card[] {
  const order = dealingOrder(rules, dealer);
  const queues = Array.from({ length: rules.players }, (_, s) => [...(hands[s] ?? [])]);
  const talonQueue = [...talon];
  const deck = order.map((pile, i) => {
    const q = pile === 'talon' ? talonQueue : queues[pile];
    const c = q.shift();
    if (c === undefined) throw new Error(`test-kit: deckFor ran out of cards for pile ${pile} at position ${i}`);
    return c;
  });
  if (talonQueue.length > 0 || queues.some((q) => q.length > 0)) {
    throw new Error('test-kit: deckFor was given more cards than the piles take');
  }
  assertPermutation(rules, deck, 'deckFor result');
  return deck;
}

/**
 * Fills partial hands and talon with the unused cards (ascending), so that a test need only name
 * the cards it cares about. Returns arguments for deckFor.
 */
export function completeDeal(
  rules: Rules,
  dealer: Seat,
  hands: readonly (readonly Card[] | undefined)[],
  talon: readonly Card[] = [],
): DealtCards {
  const size = handSize(rules);
  const active = new Set(activeSeats(rules, dealer));
  const used = new Set<Card>([...hands.flatMap((h) => h ?? []), ...talon]);
  const spare = rules.deck.filter((c) => !used.has(c));
  const out: Card[][] = Array.from({ length: rules.players }, (_, s) => {
    const h = [...(hands[s] ?? [])];
    while (active.has(s) && h.length < size) {
      const c = spare.shift();
      if (c === undefined) throw new Error('test-kit: completeDeal ran out of cards');
      h.push(c);
    }
    return h;
  });
  return { hands: out, talon: [...talon, ...spare] };
}

export { cardName };
