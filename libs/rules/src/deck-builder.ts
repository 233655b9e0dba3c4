import { parseCard, type Card } from './cards.js';
import { dealInPlace, internal, newGame } from './game.js';
import type { Seat } from './result.js';
import type { Rules } from './rules.js';
import { hasCard } from './state.js';

/**
 * Builds a deck in dealing order that puts chosen cards in chosen hands (and talon), for tests
 * and fixed deals. `hands[seat]` lists cards in the order that seat receives them (with the
 * contract family the first 6 are the ones seen during the pause); `talon` in the order the
 * talon receives them. Every other position gets the remaining cards, ascending.
 * Throws on a card given twice, a card not in the deck, or more cards than a pile holds.
 */
export function buildDeck(
  rules: Rules,
  dealer: Seat,
  spec: { hands?: Partial<Record<Seat, readonly (Card | string)[]>>; talon?: readonly (Card | string)[] },
): Card[] {
  const piles = dealDestinations(rules, dealer);
  const toCard = (c: Card | string): Card => {
    const card = typeof c === 'string' ? parseCard(c) : c;
    if (card === null || !rules.deck.includes(card)) throw new Error(`not a card of this deck: ${String(c)}`);
    return card;
  };
  const deck: (Card | null)[] = piles.map(() => null);
  const used = new Set<Card>();
  const place = (pile: number, cards: readonly (Card | string)[]) => {
    let at = 0;
    for (const c of cards) {
      const card = toCard(c);
      if (used.has(card)) throw new Error(`card given twice: ${String(c)}`);
      used.add(card);
      while (at < piles.length && piles[at] !== pile) at++;
      if (at === piles.length) throw new Error(`too many cards for ${pile < 0 ? 'the talon' : `seat ${pile}`}`);
      deck[at++] = card;
    }
  };
  for (const [seat, cards] of Object.entries(spec.hands ?? {})) place(Number(seat), cards ?? []);
  place(-1, spec.talon ?? []);
  const rest = rules.deck.filter((c) => !used.has(c));
  return deck.map((c) => (c === null ? (rest.shift() as Card) : c));
}

/** For each deck position, the seat that receives it, or -1 for the talon (found by dealing). */
export function dealDestinations(rules: Rules, dealer: Seat): number[] {
  const state = newGame(rules, dealer);
  const error = dealInPlace(state, rules.deck);
  if (error) throw new Error(error.message);
  const s = internal(state);
  return rules.deck.map((card) => {
    for (let seat = 0; seat < s.n; seat++) if (hasCard(s.hands, seat, card)) return seat;
    return -1;
  });
}
