/**
 * Cards as small integers: suit * 13 + rank, rank 0 = '2' … 12 = 'A',
 * suits 0 C, 1 D, 2 H, 3 S. A hand is four 13-bit masks, one per suit (bit = rank).
 */
export type Card = number;
export type Suit = 'clubs' | 'diamonds' | 'hearts' | 'spades';

export const SUITS: readonly Suit[] = ['clubs', 'diamonds', 'hearts', 'spades'];
const RANK_CHARS = '23456789TJQKA';
const SUIT_CHARS = 'CDHS';

/** Lookup tables: a division on the hot path costs more than a load. */
export const SUIT_OF: Uint8Array = new Uint8Array(52).map((_, c) => (c / 13) | 0);
export const RANK_OF: Uint8Array = new Uint8Array(52).map((_, c) => c % 13);

const NAMES: readonly string[] = Array.from({ length: 52 }, (_, c) => RANK_CHARS[c % 13] + SUIT_CHARS[(c / 13) | 0]);
const BY_NAME = new Map<string, Card>(NAMES.map((name, card) => [name, card]));

export function isCard(x: unknown): x is Card {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < 52;
}

/** 'AS', 'TD', '7C' → Card; anything else (lower case, '10H', …) → null. */
export function parseCard(text: string): Card | null {
  if (typeof text !== 'string') return null;
  const card = BY_NAME.get(text);
  return card === undefined ? null : card;
}

/** 51 → 'AS'. */
export function cardName(card: Card): string {
  if (!isCard(card)) throw new RangeError(`not a card: ${String(card)}`);
  return NAMES[card];
}

export function suitIndex(suit: string): number {
  return SUITS.indexOf(suit as Suit);
}

/** The cards of a 13-bit rank mask of one suit, ascending, appended to out. */
export function pushMaskCards(out: Card[], suit: number, mask: number): void {
  while (mask !== 0) {
    const low = mask & -mask;
    out.push(suit * 13 + 31 - Math.clz32(low));
    mask ^= low;
  }
}

export function popcount(mask: number): number {
  mask -= (mask >>> 1) & 0x55555555;
  mask = (mask & 0x33333333) + ((mask >>> 2) & 0x33333333);
  return (((mask + (mask >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
