import type { Card, Seat } from '@mizerka/rules';
import type { Knowledge } from './knowledge.js';

/**
 * The card play of one deal as bit masks, for the bots' heuristics and playouts: hands, the trick
 * on the table, tricks taken. It follows docs/rules.md's trick rules (follow suit, highest trump,
 * else highest of the led suit); table.test.ts checks it against @mizerka/rules.
 */

/** What a seat wants from the tricks. */
export const WIN = 1; // take tricks (alone, or with its team)
export const AVOID = 2; // take none: mizerka, misère
export const FEED = 3; // a misère defender: make the declarer (target) take one

export class Table {
  readonly hands = new Uint16Array(16); // [seat * 4 + suit] = rank mask
  readonly out = new Uint16Array(4); // cards known to be out of play
  readonly trickCards = new Int8Array(4);
  readonly trickSeats = new Int8Array(4);
  readonly tricks = new Int8Array(4);
  readonly next = new Int8Array(4); // the next active seat clockwise
  readonly goal = new Int8Array(4);
  readonly team = new Int8Array(4);
  trickLen = 0;
  toMove = 0;
  cardsLeft = 0;

  constructor(
    readonly perTrick: number,
    readonly trump: number,
    readonly deckMask: number,
    readonly target: number,
  ) {}

  copyFrom(t: Table): void {
    this.hands.set(t.hands);
    this.out.set(t.out);
    this.trickCards.set(t.trickCards);
    this.trickSeats.set(t.trickSeats);
    this.tricks.set(t.tricks);
    this.next.set(t.next);
    this.goal.set(t.goal);
    this.team.set(t.team);
    this.trickLen = t.trickLen;
    this.toMove = t.toMove;
    this.cardsLeft = t.cardsLeft;
  }

  clone(): Table {
    const t = new Table(this.perTrick, this.trump, this.deckMask, this.target);
    t.copyFrom(this);
    return t;
  }

  /** The card of the player to move; the caller guarantees it is legal. */
  play(card: Card): void {
    const seat = this.toMove;
    const suit = (card / 13) | 0;
    const bit = 1 << card % 13;
    this.hands[seat * 4 + suit] &= ~bit;
    this.out[suit] |= bit;
    this.trickCards[this.trickLen] = card;
    this.trickSeats[this.trickLen] = seat;
    this.cardsLeft--;
    if (++this.trickLen < this.perTrick) {
      this.toMove = this.next[seat];
      return;
    }
    const winner = this.trickSeats[winningIndex(this.trickCards, this.trickLen, this.trump)];
    this.tricks[winner]++;
    this.trickLen = 0;
    this.toMove = winner;
  }

  /** Plays the rest of the deal, every seat by the basic policy. */
  playOut(): void {
    while (this.cardsLeft > 0) this.play(chooseCard(this, this.toMove));
  }

  /** The legal cards of the player to move, per suit, into out. */
  legalMasks(out: Int32Array): void {
    const base = this.toMove * 4;
    const h = this.hands;
    if (this.trickLen > 0) {
      const led = (this.trickCards[0] / 13) | 0;
      if (h[base + led] !== 0) {
        out[0] = out[1] = out[2] = out[3] = 0;
        out[led] = h[base + led];
        return;
      }
    }
    out[0] = h[base];
    out[1] = h[base + 1];
    out[2] = h[base + 2];
    out[3] = h[base + 3];
  }
}

export function winningIndex(cards: ArrayLike<number>, len: number, trump: number): number {
  let best = 0;
  for (let i = 1; i < len; i++) if (beats(cards[i], cards[best], trump)) best = i;
  return best;
}

/** Does card a, played later, beat card b, the trick's winner so far? */
export function beats(a: Card, b: Card, trump: number): boolean {
  const sa = (a / 13) | 0;
  const sb = (b / 13) | 0;
  if (sa === sb) return a > b;
  return sa === trump;
}

/**
 * A table for a seat's decision from its knowledge: its own hand only (others' hands are filled by
 * determinize), and each seat's goal for the deal's contract or bid.
 */
export function tableOf(k: Knowledge, goals: { goal: number[]; team: number[]; target: number }): Table {
  const t = new Table(k.active.length, k.trump, k.deckMask, goals.target);
  for (let suit = 0; suit < 4; suit++) {
    t.hands[k.seat * 4 + suit] = k.hand[suit];
    t.out[suit] = k.out[suit];
  }
  for (let i = 0; i < k.active.length; i++) t.next[k.active[i]] = k.active[(i + 1) % k.active.length];
  for (let seat = 0; seat < k.n; seat++) {
    t.tricks[seat] = k.tricks[seat];
    t.goal[seat] = goals.goal[seat];
    t.team[seat] = goals.team[seat];
  }
  for (let i = 0; i < k.trickCards.length; i++) {
    t.trickCards[i] = k.trickCards[i];
    t.trickSeats[i] = k.trickSeats[i];
  }
  t.trickLen = k.trickCards.length;
  t.toMove = k.seat;
  t.cardsLeft = k.handSizes.reduce((a, b) => a + b, 0);
  return t;
}

const legal = new Int32Array(4);

const low = (mask: number): number => 31 - Math.clz32(mask & -mask);
const high = (mask: number): number => 31 - Math.clz32(mask);
const count = (mask: number): number => {
  let c = 0;
  for (let m = mask; m !== 0; m &= m - 1) c++;
  return c;
};

/** Is this card of the seat's the highest of its suit still in play (by what the table shows)? */
function isTop(t: Table, seat: Seat, suit: number, rank: number): boolean {
  const above = t.deckMask & ~((2 << rank) - 1);
  return (above & ~t.out[suit] & ~t.hands[seat * 4 + suit]) === 0;
}

/**
 * The basic policy's card: win cheaply, follow low when the trick is lost, keep trumps for ruffing,
 * shed high cards when avoiding tricks, let the team mate win. Reads only the seat's own hand,
 * the cards out of play and the trick, so it is fair in the basic bot as in the playouts.
 */
export function chooseCard(t: Table, seat: Seat): Card {
  t.legalMasks(legal);
  let only = -1;
  let n = 0;
  for (let suit = 0; suit < 4; suit++) {
    if (legal[suit] !== 0) {
      n += count(legal[suit]);
      only = suit * 13 + low(legal[suit]);
    }
  }
  if (n === 1) return only;
  const goal = t.goal[seat];
  if (t.trickLen === 0) return lead(t, seat, goal);
  const led = (t.trickCards[0] / 13) | 0;
  const w = winningIndex(t.trickCards, t.trickLen, t.trump);
  const winCard = t.trickCards[w];
  const winSeat = t.trickSeats[w];
  const last = t.trickLen === t.perTrick - 1;
  const following = legal[led] !== 0 && legal[led] === t.hands[seat * 4 + led];
  if (following) {
    const mine = legal[led];
    const wonByTrump = ((winCard / 13) | 0) !== led;
    const rankW = winCard % 13;
    const below = wonByTrump ? mine : mine & ((1 << rankW) - 1);
    const above = wonByTrump ? 0 : mine & ~((1 << rankW) - 1);
    if (goal === WIN) {
      const mateWins = winSeat !== seat && t.team[winSeat] === t.team[seat];
      if (above === 0 || (mateWins && (last || wonByTrump || isTop(t, winSeat, led, rankW)))) return led * 13 + low(mine);
      if (last) return led * 13 + low(above);
      // Second hand low, unless a card of ours is sure to hold the trick.
      for (let m = above; m !== 0; m &= m - 1) {
        const r = low(m);
        if (isTop(t, seat, led, r)) return led * 13 + r;
      }
      return led * 13 + low(mine);
    }
    if (goal === AVOID) {
      if (below !== 0) return led * 13 + high(below);
      return led * 13 + (last ? high(mine) : low(mine));
    }
    // FEED: keep the declarer on top once it has played; else go low under whatever it plays.
    let declarerPlayed = false;
    for (let i = 0; i < t.trickLen; i++) if (t.trickSeats[i] === t.target) declarerPlayed = true;
    if (declarerPlayed && winSeat === t.target) return led * 13 + (below !== 0 ? high(below) : high(mine));
    if (declarerPlayed) return led * 13 + high(mine);
    return led * 13 + low(mine);
  }
  // Void in the led suit: any card.
  if (goal === WIN) {
    const mateWins = winSeat !== seat && t.team[winSeat] === t.team[seat];
    const trumps = t.trump >= 0 ? legal[t.trump] : 0;
    if (trumps !== 0 && !mateWins) {
      const winSuit = (winCard / 13) | 0;
      const over = winSuit === t.trump ? trumps & ~((2 << winCard % 13) - 1) : trumps;
      if (over !== 0) return t.trump * 13 + low(over);
    }
    return discardLow(t, legal);
  }
  return discardHigh(legal);
}

function lead(t: Table, seat: Seat, goal: number): Card {
  if (goal === WIN) {
    let trumpTop = -1;
    for (let suit = 0; suit < 4; suit++) {
      const m = legal[suit];
      if (m === 0) continue;
      const r = high(m);
      if (!isTop(t, seat, suit, r)) continue;
      if (suit !== t.trump) return suit * 13 + r;
      trumpTop = suit * 13 + r;
    }
    if (trumpTop >= 0) return trumpTop;
    let best = -1;
    let bestLen = -1;
    for (let suit = 0; suit < 4; suit++) {
      if (legal[suit] === 0 || suit === t.trump) continue;
      const len = count(legal[suit]);
      if (len > bestLen) {
        bestLen = len;
        best = suit * 13 + low(legal[suit]);
      }
    }
    return best >= 0 ? best : t.trump * 13 + low(legal[t.trump]);
  }
  if (goal === AVOID) {
    // The low card least likely to win: fewest outstanding cards below it, most above it.
    let best = -1;
    let bestScore = Infinity;
    for (let suit = 0; suit < 4; suit++) {
      const m = legal[suit];
      if (m === 0) continue;
      const r = low(m);
      const outstanding = t.deckMask & ~t.out[suit] & ~t.hands[seat * 4 + suit];
      const under = count(outstanding & ((1 << r) - 1));
      const over = count(outstanding & ~((2 << r) - 1));
      const score = over === 0 ? 100 + r : under * 16 - over;
      if (score < bestScore) {
        bestScore = score;
        best = suit * 13 + r;
      }
    }
    return best;
  }
  // FEED: the lowest card, so that the declarer has to find a lower one.
  let best = -1;
  for (let suit = 0; suit < 4; suit++) {
    if (legal[suit] === 0) continue;
    const card = suit * 13 + low(legal[suit]);
    if (best < 0 || card % 13 < best % 13) best = card;
  }
  return best;
}

/** The lowest card outside the trump suit (trumps only when nothing else is left). */
function discardLow(t: Table, masks: Int32Array): Card {
  let best = -1;
  for (let suit = 0; suit < 4; suit++) {
    if (masks[suit] === 0 || suit === t.trump) continue;
    const card = suit * 13 + low(masks[suit]);
    if (best < 0 || card % 13 < best % 13) best = card;
  }
  return best >= 0 ? best : t.trump * 13 + low(masks[t.trump]);
}

/** The highest card, from the shorter suit on a tie. */
function discardHigh(masks: Int32Array): Card {
  let best = -1;
  let bestLen = 99;
  for (let suit = 0; suit < 4; suit++) {
    if (masks[suit] === 0) continue;
    const r = high(masks[suit]);
    const len = count(masks[suit]);
    if (best < 0 || r > best % 13 || (r === best % 13 && len < bestLen)) {
      best = suit * 13 + r;
      bestLen = len;
    }
  }
  return best;
}

export { count as countBits };
