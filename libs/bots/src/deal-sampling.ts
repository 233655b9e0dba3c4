import type { Seat, Xoshiro128 } from '@mizerka/rules';
import type { Knowledge } from './knowledge.js';
import { AVOID, FEED, Table, WIN } from './table.js';

/** The time after which a search stops sampling: budgetMs from now, or never. */
export function deadlineOf(budgetMs: number | undefined): number {
  return budgetMs === undefined ? Infinity : performance.now() + budgetMs;
}

/** Stop before sample `s`? Never before the first, so that a tiny budget still answers from a search. */
export function pastDeadline(s: number, deadline: number): boolean {
  return s > 0 && deadline !== Infinity && performance.now() > deadline;
}

/** Each seat's goal in the card play, from the contract or the bid. */
export function goalsOf(k: Knowledge): { goal: number[]; team: number[]; target: number } {
  const seats = Array.from({ length: k.n }, (_, seat) => seat);
  if (k.family === 'contract') {
    // Scores are tricks minus quota (or quota minus tricks): each seat for itself.
    return { goal: seats.map(() => (k.contract === 'mizerka' ? AVOID : WIN)), team: seats, target: -1 };
  }
  const declarer = k.declarer ?? -1;
  const team = seats.map((seat) => (seat === declarer ? 0 : 1));
  if (k.bid === 'play') return { goal: seats.map(() => WIN), team, target: declarer };
  return { goal: seats.map((seat) => (seat === declarer ? AVOID : FEED)), team, target: declarer };
}

/** The deal's score for `seat` once the table's tricks are all played, up to a constant per deal. */
export function dealValue(k: Knowledge, t: Table, seat: Seat): number {
  if (k.family === 'contract') {
    // t - quota, or quota - t for mizerka: the quota is the same in every sample.
    return k.contract === 'mizerka' ? -t.tricks[seat] : t.tricks[seat];
  }
  const declarer = k.declarer ?? -1;
  const score = declarerScore(k.bid ?? 'play', t.tricks[declarer]);
  if (seat === declarer) return score;
  return score < 0 ? -score / 2 : 0;
}

export function declarerScore(bid: string, tricks: number): number {
  if (bid === 'play') return (tricks - 5) * 10;
  if (bid === 'misere') return tricks === 0 ? 50 : -20 * tricks;
  return tricks === 0 ? 100 : -40 * tricks;
}

/**
 * Deals the cards this seat has not seen to the other seats' hands (their sizes known), the rest
 * out of play (talon, others' discards), consistently with the voids they have shown. Writes the
 * hands into t (whose own seat's hand is already set). Cards go most constrained first, each to a
 * pile chosen in proportion to the room left in it; a dead end starts over, and after a few the
 * voids are dropped rather than fail. The cards out of play go to `rest` when given.
 */
export function determinize(k: Knowledge, rng: Xoshiro128, t: Table, rest: Uint16Array | null = null): void {
  const others = k.active.filter((seat) => seat !== k.seat);
  const unseen: number[] = [];
  for (let suit = 0; suit < 4; suit++) {
    let m = k.deckMask & ~k.hand[suit] & ~k.out[suit];
    while (m !== 0) {
      const low = m & -m;
      unseen.push(suit * 13 + 31 - Math.clz32(low));
      m ^= low;
    }
  }
  let need = 0;
  for (const seat of others) need += k.handSizes[seat];
  const dead = unseen.length - need;
  if (dead < 0) throw new Error('the view shows more cards in hand than are unseen');
  for (let attempt = 0; ; attempt++) {
    const useVoids = attempt < 8;
    if (deal(k, rng, t, others, unseen, dead, useVoids, rest)) return;
    if (!useVoids) throw new Error('cannot deal the unseen cards');
  }
}

function deal(
  k: Knowledge,
  rng: Xoshiro128,
  t: Table,
  others: Seat[],
  unseen: number[],
  dead: number,
  useVoids: boolean,
  rest: Uint16Array | null,
): boolean {
  for (const seat of others) for (let suit = 0; suit < 4; suit++) t.hands[seat * 4 + suit] = 0;
  rest?.fill(0);
  const room = others.map((seat) => k.handSizes[seat]);
  let deadRoom = dead;
  const allowed = (seat: Seat, suit: number) => !useVoids || ((k.voids[seat] >> suit) & 1) === 0;
  // Shuffle, then stable-sort by how many hands may hold the card's suit.
  const cards = unseen.slice();
  for (let i = cards.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const x = cards[i];
    cards[i] = cards[j];
    cards[j] = x;
  }
  const fits = [0, 1, 2, 3].map((suit) => others.filter((seat) => allowed(seat, suit)).length);
  cards.sort((a, b) => fits[(a / 13) | 0] - fits[(b / 13) | 0]);
  for (const card of cards) {
    const suit = (card / 13) | 0;
    let total = deadRoom;
    for (let i = 0; i < others.length; i++) if (allowed(others[i], suit)) total += room[i];
    if (total === 0) return false;
    let r = rng.below(total);
    if (r < deadRoom) {
      deadRoom--;
      if (rest) rest[suit] |= 1 << card % 13;
      continue;
    }
    r -= deadRoom;
    for (let i = 0; i < others.length; i++) {
      if (!allowed(others[i], suit)) continue;
      if (r < room[i]) {
        room[i]--;
        t.hands[others[i] * 4 + suit] |= 1 << card % 13;
        break;
      }
      r -= room[i];
    }
  }
  return true;
}
