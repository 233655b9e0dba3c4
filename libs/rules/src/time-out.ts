import { parseCard, RANK_OF, SUIT_OF, SUITS, type Card } from './cards.js';
import type { Move } from './moves.js';
import type { SeatView } from './view.js';

/**
 * The move the server makes for a seat whose time ran out (the `autoMove` time-out policy): a
 * plain, predictable choice made from the seat's own view only, so it can never use a card the
 * seat may not know. docs/rules.md, "Time-out moves", states the same rule for players:
 *
 * - contract: the first contract the seat may still choose, in the rule set's order;
 * - exchange: discard nothing;
 * - bid: pass when it may, else its lowest bid;
 * - discard (declarer): its lowest cards, as many as asked;
 * - trump: the suit it holds most cards of (the first such suit in club–diamond–heart–spade order);
 * - play: its lowest legal card.
 *
 * "Lowest" is by rank, 2 low and ace high, then by suit in club–diamond–heart–spade order.
 * Null when the view's seat is not the one to move (a spectator's view, or another seat's turn).
 */
export function timeOutMove(seatView: SeatView): Move | null {
  const legal = seatView.legalMoves;
  if (legal === null || seatView.viewer === null || legal.seat !== seatView.viewer) return null;
  const seat = legal.seat;
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat, contract: legal.contracts[0] };
    case 'exchange':
      return { kind: 'exchange', seat, discards: [] };
    case 'bid':
      return { kind: 'bid', seat, bid: legal.bids.includes('pass') ? 'pass' : legal.bids[0] };
    case 'discard':
      return { kind: 'discard', seat, cards: lowestFirst(legal.cards).slice(0, legal.count) };
    case 'trump': {
      const held = SUITS.map((_, suit) => (seatView.hand ?? []).filter((name) => SUIT_OF[card(name)] === suit).length);
      const most = Math.max(...held);
      const suit = SUITS.find((s, i) => held[i] === most && legal.suits.includes(s)) ?? legal.suits[0];
      return { kind: 'trump', seat, suit };
    }
    case 'play':
      return { kind: 'play', seat, card: lowestFirst(legal.cards)[0] };
  }
}

function card(name: string): Card {
  const parsed = parseCard(name);
  if (parsed === null) throw new Error(`a view named no card: ${name}`);
  return parsed;
}

function lowestFirst(names: readonly string[]): Card[] {
  return names.map(card).sort((a, b) => RANK_OF[a] - RANK_OF[b] || SUIT_OF[a] - SUIT_OF[b]);
}
