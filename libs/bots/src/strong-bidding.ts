import { SUITS, type Bid, type Card, type Seat, type Suit, type Xoshiro128 } from '@mizerka/rules';
import { bestTrump, misereDiscards, playDiscards, trickEstimate } from './basic-bot.js';
import { declarerScore, determinize, pastDeadline } from './deal-sampling.js';
import type { Knowledge } from './knowledge.js';
import { AVOID, FEED, Table, WIN, countBits } from './table.js';

/**
 * The bidding family's declarer decisions by sampling: deal the unseen cards (and the talon) as
 * they may lie, play the deal out by the basic policy for each choice, and keep the choice with
 * the best average score. The same samples serve every choice.
 */

/** The declarer's score when `declarer` plays `bid` with `hand` (10 cards, after any discard). */
function playDeclared(k: Knowledge, sample: Table, declarer: Seat, bid: Bid, trump: number, hand: ArrayLike<number>, out: ArrayLike<number>): number {
  const t = new Table(3, trump, k.deckMask, declarer);
  for (let i = 0; i < 16; i++) t.hands[i] = sample.hands[i];
  for (let suit = 0; suit < 4; suit++) {
    t.hands[declarer * 4 + suit] = hand[suit];
    t.out[suit] = out[suit];
  }
  for (let i = 0; i < k.active.length; i++) t.next[k.active[i]] = k.active[(i + 1) % k.active.length];
  for (const seat of k.active) {
    t.team[seat] = seat === declarer ? 0 : 1;
    t.goal[seat] = bid === 'play' ? WIN : seat === declarer ? AVOID : FEED;
  }
  t.toMove = t.next[declarer];
  t.cardsLeft = 30;
  t.playOut();
  return declarerScore(bid, t.tricks[declarer]);
}

const without = (hand: ArrayLike<number>, cards: readonly Card[]): Uint16Array => {
  const out = Uint16Array.from(hand);
  for (const c of cards) out[(c / 13) | 0] &= ~(1 << c % 13);
  return out;
};
const withCards = (hand: ArrayLike<number>, cards: ArrayLike<number>): Uint16Array => Uint16Array.from(hand, (m, suit) => m | cards[suit]);
const cardsOf = (masks: ArrayLike<number>): Card[] => {
  const out: Card[] = [];
  for (let suit = 0; suit < 4; suit++) for (let m = masks[suit]; m !== 0; m &= m - 1) out.push(suit * 13 + 31 - Math.clz32(m & -m));
  return out;
};

/** The bid with the best average, counting a pass as 0 (unless it would make this seat play anyway). */
export function sampledBid(k: Knowledge, base: Table, bids: readonly Bid[], forcedIfPass: boolean, rng: Xoshiro128, samples: number, deadline: number): Bid {
  const options = bids.filter((b) => b !== 'pass');
  if (options.length === 0) return 'pass';
  const totals = new Float64Array(options.length);
  const sample = base.clone();
  const talon = new Uint16Array(4);
  for (let s = 0; s < samples; s++) {
    if (pastDeadline(s, deadline)) break;
    sample.copyFrom(base);
    determinize(k, rng, sample, talon);
    for (let i = 0; i < options.length; i++) {
      const bid = options[i];
      if (bid === 'double-misere') {
        totals[i] += playDeclared(k, sample, k.seat, bid, -1, k.hand, k.out);
        continue;
      }
      const twelve = withCards(k.hand, talon);
      const discards = bid === 'play' ? playDiscards(twelve) : misereDiscards(twelve);
      const hand = without(twelve, discards);
      const trump = bid === 'play' ? SUITS.indexOf(bestTrump(hand).suit) : -1;
      totals[i] += playDeclared(k, sample, k.seat, bid, trump, hand, discardsMask(k.out, discards));
    }
  }
  let best: Bid = 'pass';
  let bestValue = forcedIfPass ? totals[options.indexOf('play')] / samples : 0;
  for (let i = 0; i < options.length; i++) {
    if (totals[i] / samples > bestValue) {
      bestValue = totals[i] / samples;
      best = options[i];
    }
  }
  return best;
}

function discardsMask(out: ArrayLike<number>, cards: readonly Card[]): Uint16Array {
  const m = Uint16Array.from(out);
  for (const c of cards) m[(c / 13) | 0] |= 1 << c % 13;
  return m;
}

/** The declarer's two discards from its twelve cards. */
export function sampledDiscards(k: Knowledge, base: Table, bid: Bid, rng: Xoshiro128, samples: number, deadline: number): Card[] {
  const candidates: { cards: Card[]; trump: number }[] = [];
  const all = cardsOf(k.hand);
  if (bid === 'play') {
    // For the two likeliest trumps, pairs of the six cards least worth keeping beside them.
    const trumps = [0, 1, 2, 3].sort((a, b) => trickEstimate(k.hand, b) - trickEstimate(k.hand, a)).slice(0, 2);
    for (const trump of trumps) {
      const cheap = all
        .filter((c) => ((c / 13) | 0) !== trump || countBits(k.hand[trump]) === all.length)
        .sort((a, b) => keepValue(k.hand, a) - keepValue(k.hand, b) || a - b)
        .slice(0, 6);
      for (let i = 0; i < cheap.length; i++) for (let j = i + 1; j < cheap.length; j++) candidates.push({ cards: [cheap[i], cheap[j]], trump });
    }
  } else {
    const high = [...all].sort((a, b) => (b % 13) - (a % 13) || a - b).slice(0, 8);
    for (let i = 0; i < high.length; i++) for (let j = i + 1; j < high.length; j++) candidates.push({ cards: [high[i], high[j]], trump: -1 });
  }
  const fallback = bid === 'play' ? playDiscards(k.hand) : misereDiscards(k.hand);
  candidates.push({ cards: fallback, trump: bid === 'play' ? SUITS.indexOf(bestTrump(without(k.hand, fallback)).suit) : -1 });
  const totals = new Float64Array(candidates.length);
  const sample = base.clone();
  for (let s = 0; s < samples; s++) {
    if (pastDeadline(s, deadline)) break;
    sample.copyFrom(base);
    determinize(k, rng, sample);
    for (let i = 0; i < candidates.length; i++) {
      const { cards, trump } = candidates[i];
      totals[i] += playDeclared(k, sample, k.seat, bid, trump, without(k.hand, cards), discardsMask(k.out, cards));
    }
  }
  let best = candidates.length - 1;
  for (let i = 0; i < candidates.length; i++) if (totals[i] > totals[best]) best = i;
  return candidates[best].cards;
}

/** A side card's worth: aces and guarded kings are kept, short suits go first (a void ruffs). */
function keepValue(hand: ArrayLike<number>, card: Card): number {
  const suit = (card / 13) | 0;
  const rank = card % 13;
  const len = countBits(hand[suit]);
  return rank === 12 ? 50 : rank === 11 && len >= 2 ? 40 : rank + 2 * len;
}

/** The trump suit with the best average. */
export function sampledTrump(k: Knowledge, base: Table, rng: Xoshiro128, samples: number, deadline: number): Suit {
  const totals = new Float64Array(4);
  const sample = base.clone();
  for (let s = 0; s < samples; s++) {
    if (pastDeadline(s, deadline)) break;
    sample.copyFrom(base);
    determinize(k, rng, sample);
    for (let trump = 0; trump < 4; trump++) totals[trump] += playDeclared(k, sample, k.seat, 'play', trump, k.hand, k.out);
  }
  let best = SUITS.indexOf(bestTrump(k.hand).suit);
  for (let trump = 0; trump < 4; trump++) if (totals[trump] > totals[best]) best = trump;
  return SUITS[best];
}
