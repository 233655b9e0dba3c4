import { SUITS, type Bid, type Card, type Contract, type Move, type Suit } from '@mizerka/rules';
import type { BotInput, BotOptions } from './bot.js';
import { goalsOf } from './deal-sampling.js';
import { cardOf, know, masksOf } from './knowledge.js';
import { seatToMove } from './seat.js';
import { chooseCard, countBits, tableOf } from './table.js';

/**
 * The heuristics a decent player uses: a contract or bid from the hand's strength and shape, an
 * exchange or discard that suits it, and the basic card play of table.ts. No search, no chance:
 * the seed is not used.
 */
export function basicMove(input: BotInput, _options: BotOptions): Move {
  const { legal, seat } = seatToMove(input);
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat, contract: chooseContract(masksOf(input.view.hand ?? []), legal.contracts) };
    case 'exchange': {
      const contract = input.view.contract ?? 'notrumps';
      return { kind: 'exchange', seat, discards: exchangeDiscards(masksOf(legal.cards), contract, legal.maxDiscards) };
    }
    case 'bid':
      return { kind: 'bid', seat, bid: chooseBid(masksOf(input.view.hand ?? []), legal.bids) };
    case 'discard': {
      const hand = masksOf(legal.cards);
      return { kind: 'discard', seat, cards: input.view.bid === 'play' ? playDiscards(hand) : misereDiscards(hand) };
    }
    case 'trump':
      return { kind: 'trump', seat, suit: bestTrump(masksOf(input.view.hand ?? [])).suit };
    case 'play': {
      if (legal.cards.length === 1) return { kind: 'play', seat, card: cardOf(legal.cards[0]) };
      const k = know(input, seat);
      return { kind: 'play', seat, card: chooseCard(tableOf(k, goalsOf(k)), seat) };
    }
  }
}

// --- hand strength -----------------------------------------------------------------------------

const ACE = 12;
const KING = 11;
const QUEEN = 10;
const JACK = 9;
const TEN = 8;

const has = (mask: number, rank: number) => ((mask >> rank) & 1) === 1;
/** A4 K3 Q2 J1. */
function points(mask: number): number {
  return 4 * +has(mask, ACE) + 3 * +has(mask, KING) + 2 * +has(mask, QUEEN) + +has(mask, JACK);
}

/** Tricks a side suit should take: the ace, a guarded king, a twice-guarded queen. */
function sideTricks(mask: number): number {
  const len = countBits(mask);
  return +has(mask, ACE) + (has(mask, KING) ? (len >= 2 ? 0.7 : 0.3) : 0) + (has(mask, QUEEN) && len >= 3 ? 0.3 : 0);
}

/** Tricks a hand should take with `trump` as trumps (-1: none). */
export function trickEstimate(hand: ArrayLike<number>, trump: number): number {
  let tricks = 0;
  for (let suit = 0; suit < 4; suit++) {
    const m = hand[suit];
    if (suit !== trump) {
      tricks += sideTricks(m);
      continue;
    }
    const len = countBits(m);
    tricks += +has(m, ACE) + 0.8 * +has(m, KING) + 0.5 * +has(m, QUEEN) + 0.3 * +has(m, JACK) + Math.max(0, len - 2) * 0.8;
  }
  return tricks;
}

/**
 * Misère danger in the 32-card deck: a card that cannot be ducked, i.e. the i-th lowest card of
 * its suit in the hand ranks more than 2i + 1 steps above the seven.
 */
function misereDanger(hand: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let suit = 0; suit < 4; suit++) {
    let i = 0;
    for (let m = hand[suit]; m !== 0; m &= m - 1, i++) {
      const rank = 31 - Math.clz32(m & -m);
      const step = rank - 5;
      if (step > 2 * i + 1) out.push(suit * 13 + rank);
    }
  }
  return out;
}

// --- the contract family -----------------------------------------------------------------------

/**
 * What a contract is worth to the chooser's six cards, in tricks, less what it is worth to an
 * average six cards: every seat chooses every contract once, so a hand goes where it is best
 * compared with the others.
 */
function contractValue(hand: Uint16Array, contract: Contract): number {
  let total = 0;
  let highCards = 0;
  for (let suit = 0; suit < 4; suit++) {
    total += points(hand[suit]);
    highCards += countBits(hand[suit] & ~((1 << TEN) - 1));
  }
  if (contract === 'notrumps') return 0.5 * total - 2.31;
  if (contract === 'mizerka') return -0.5 * total - 0.5 * highCards + 3.46;
  const suit = SUITS.indexOf(contract as Suit);
  const own = points(hand[suit]);
  return countBits(hand[suit]) + 0.5 * own + 0.25 * (total - own) - 2.94;
}

export function chooseContract(hand: Uint16Array, contracts: readonly Contract[]): Contract {
  let best = contracts[0];
  let bestValue = -Infinity;
  for (const c of contracts) {
    const v = contractValue(hand, c);
    if (v > bestValue) {
      bestValue = v;
      best = c;
    }
  }
  return best;
}

/**
 * Cards to give for the talon's: in mizerka the tens and above, highest first; with trumps the
 * side cards below a guarded king; without trumps the cards below a jack in suits too short to run.
 * A random card from the talon is worth more than any of these.
 */
export function exchangeDiscards(hand: Uint16Array, contract: Contract, max: number): Card[] {
  return exchangeOrder(hand, contract)
    .filter((c) => c.give)
    .slice(0, max)
    .map((c) => c.card);
}

/** Every card of the hand, the one least worth keeping for the contract first; `give` marks those basic gives. */
export function exchangeOrder(hand: ArrayLike<number>, contract: Contract): { card: Card; give: boolean }[] {
  const scored: { card: Card; keep: number; give: boolean }[] = [];
  const trump = SUITS.indexOf(contract as Suit);
  for (let suit = 0; suit < 4; suit++) {
    const m = hand[suit];
    const len = countBits(m);
    for (let rest = m; rest !== 0; rest &= rest - 1) {
      const rank = 31 - Math.clz32(rest & -rest);
      const card = suit * 13 + rank;
      if (contract === 'mizerka') {
        scored.push({ card, keep: rank >= TEN ? -rank : 100 - rank, give: rank >= TEN });
      } else if (trump >= 0) {
        const kept = suit === trump || rank === ACE || (rank === KING && len >= 2);
        scored.push({ card, keep: rank + len * 0.5 + (kept ? (suit === trump ? 100 : 50) : 0), give: !kept });
      } else {
        const give = len < 5 && rank < JACK;
        scored.push({ card, keep: rank + len * 0.5 + (give ? 0 : 50), give });
      }
    }
  }
  scored.sort((a, b) => a.keep - b.keep || a.card - b.card);
  return scored;
}

// --- the bidding family ------------------------------------------------------------------------

/** The suit that makes the most tricks as trumps, and how many (with the talon's help for a bid). */
export function bestTrump(hand: ArrayLike<number>): { suit: Suit; tricks: number } {
  let best = 0;
  let bestTricks = -1;
  for (let suit = 0; suit < 4; suit++) {
    const t = trickEstimate(hand, suit);
    if (t > bestTricks) {
      bestTricks = t;
      best = suit;
    }
  }
  return { suit: SUITS[best], tricks: bestTricks };
}

export function chooseBid(hand: Uint16Array, bids: readonly Bid[]): Bid {
  const danger = misereDanger(hand).length;
  if (bids.includes('double-misere') && danger === 0) return 'double-misere';
  // The talon's two cards and two discards can mend one bad card.
  if (bids.includes('misere') && danger <= 1) return 'misere';
  // (t - 5) * 10: six tricks pay; the talon adds about half a trick.
  if (bids.includes('play') && bestTrump(hand).tricks + 0.5 >= 6) return 'play';
  return 'pass';
}

/** With trumps: the lowest side cards, from the shortest suits first (a void ruffs), never an ace. */
export function playDiscards(hand: Uint16Array): Card[] {
  const trump = SUITS.indexOf(bestTrump(hand).suit);
  const scored: { card: Card; keep: number }[] = [];
  for (let suit = 0; suit < 4; suit++) {
    const len = countBits(hand[suit]);
    for (let m = hand[suit]; m !== 0; m &= m - 1) {
      const rank = 31 - Math.clz32(m & -m);
      const keep = suit === trump ? 100 + rank : rank === ACE ? 50 : rank === KING && len >= 2 ? 40 : rank + 2 * len;
      scored.push({ card: suit * 13 + rank, keep });
    }
  }
  scored.sort((a, b) => a.keep - b.keep || a.card - b.card);
  return [scored[0].card, scored[1].card];
}

/** For misère: the cards that cannot be ducked, then the highest. */
export function misereDiscards(hand: Uint16Array): Card[] {
  const danger = new Set(misereDanger(hand));
  const cards: Card[] = [];
  for (let suit = 0; suit < 4; suit++) for (let m = hand[suit]; m !== 0; m &= m - 1) cards.push(suit * 13 + 31 - Math.clz32(m & -m));
  cards.sort((a, b) => +danger.has(b) - +danger.has(a) || (b % 13) - (a % 13) || a - b);
  return [cards[0], cards[1]];
}
