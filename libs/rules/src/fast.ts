/**
 * `@mizerka/rules/fast`: the in-place fast path, for the bench and for bots that search: no
 * copies, no events unless asked, no strings. Use it on a state of your own (copyState), never on
 * one shared with others. The main entry (index.ts) is the immutable API.
 */
import { popcount, SUIT_OF, SUITS, type Card } from './cards.js';
import type { GameEvent } from './events.js';
import { applyInPlace, internal } from './game.js';
import type { Xoshiro128 } from './random.js';
import type { RuleError, Seat } from './result.js';
import { BIDS, CONTRACTS, DOUBLE_MISERE, MISERE, PASS } from './rules.js';
import { PH_BIDDING, PH_CONTRACT, PH_DISCARD, PH_EXCHANGE, PH_PLAY, PH_TRUMP, type GameState, type State } from './state.js';
import { legalPlayMasks, playCard } from './tricks.js';

export { applyInPlace, copyState, dealInPlace } from './game.js';
export { shuffleInPlace } from './random.js';


/** A seat's hand as four 13-bit rank masks (clubs, diamonds, hearts, spades) written into out. */
export function handMasks(state: GameState, seat: Seat, out: Uint16Array | Int32Array | number[]): void {
  const s = internal(state);
  for (let suit = 0; suit < 4; suit++) out[suit] = s.hands[seat * 4 + suit];
}

/** The cards the player to move may play (phase 'play'), as four rank masks written into out. */
export function legalPlayMask(state: GameState, out: Uint16Array | Int32Array | number[]): void {
  const own = new Int32Array(4); // keeps legalPlayMasks monomorphic (Int32Array only)
  legalPlayMasks(internal(state), own);
  for (let suit = 0; suit < 4; suit++) out[suit] = own[suit];
}

/** Play `card` for the player to move, in place (phase 'play'); events pushed onto ev when given. */
export function playCardInPlace(state: GameState, card: Card, ev: GameEvent[] | null = null): RuleError | null {
  const s = internal(state);
  if (s.phase !== PH_PLAY) return applyInPlace(state, { kind: 'play', seat: s.toMove, card }, ev);
  return playCard(s, card, ev);
}

/** The n-th (0-based) set bit of mask, as a bit index. */
function nthBit(mask: number, n: number): number {
  for (let i = 0; i < n; i++) mask &= mask - 1;
  return 31 - Math.clz32(mask & -mask);
}

/** Random legal cards until the deal ends: the hot loop, kept small so V8 optimises it whole. */
function playRandomCards(s: State, rng: Xoshiro128): number {
  const hands = s.hands;
  let moves = 0;
  while (s.phase === PH_PLAY) {
    const base = s.toMove * 4;
    let m0 = hands[base];
    let m1 = hands[base + 1];
    let m2 = hands[base + 2];
    let m3 = hands[base + 3];
    if (s.trickLen > 0) {
      const led = SUIT_OF[s.trickCards[0]];
      const held = hands[base + led];
      if (held !== 0) {
        m0 = led === 0 ? held : 0;
        m1 = led === 1 ? held : 0;
        m2 = led === 2 ? held : 0;
        m3 = led === 3 ? held : 0;
      }
    }
    const c0 = popcount(m0);
    const c1 = popcount(m1);
    const c2 = popcount(m2);
    let r = rng.below(c0 + c1 + c2 + popcount(m3));
    let card: Card;
    if (r < c0) card = nthBit(m0, r);
    else if ((r -= c0) < c1) card = 13 + nthBit(m1, r);
    else if ((r -= c1) < c2) card = 26 + nthBit(m2, r);
    else card = 39 + nthBit(m3, r - c2);
    const error = playCard(s, card, null);
    if (error) throw new Error(`randomPlayout made an illegal move: ${error.rule}: ${error.message}`);
    moves++;
  }
  return moves;
}

/** k distinct random cards of a seat's hand, drawn from the masks without building the hand. */
function randomHandCards(s: State, seat: Seat, k: number, rng: Xoshiro128): Card[] {
  const base = seat * 4;
  const m = [s.hands[base], s.hands[base + 1], s.hands[base + 2], s.hands[base + 3]];
  let total = popcount(m[0]) + popcount(m[1]) + popcount(m[2]) + popcount(m[3]);
  const out: Card[] = [];
  for (let i = 0; i < k; i++, total--) {
    let r = rng.below(total);
    let suit = 0;
    for (let count = popcount(m[0]); r >= count; count = popcount(m[++suit])) r -= count;
    const bit = nthBit(m[suit], r);
    m[suit] &= ~(1 << bit);
    out.push(suit * 13 + bit);
  }
  return out;
}

/**
 * Play the current deal to its end with uniformly random legal choices (contract, exchange size and
 * cards, bid, discards, trump, card), in place. Returns the number of moves made.
 */
export function randomPlayout(state: GameState, rng: Xoshiro128): number {
  const s = internal(state);
  let moves = 0;
  for (;;) {
    const seat = s.toMove;
    let error: RuleError | null;
    switch (s.phase) {
      case PH_PLAY:
        moves += playRandomCards(s, rng);
        continue;
      case PH_CONTRACT: {
        const used = s.used[seat];
        const contracts = s.rules.contracts;
        let left = 0;
        for (let i = 0; i < contracts.length; i++) if (!((used >> CONTRACTS.indexOf(contracts[i])) & 1)) left++;
        let r = rng.below(left);
        let contract = contracts[0];
        for (let i = 0; i < contracts.length; i++) {
          if ((used >> CONTRACTS.indexOf(contracts[i])) & 1) continue;
          if (r-- === 0) {
            contract = contracts[i];
            break;
          }
        }
        error = s.fam.step(s, { kind: 'contract', seat, contract }, null);
        break;
      }
      case PH_EXCHANGE: {
        const k = rng.below(Math.min(s.handSize, s.talonLen - s.talonPos) + 1);
        error = s.fam.step(s, { kind: 'exchange', seat, discards: randomHandCards(s, seat, k, rng) }, null);
        break;
      }
      case PH_BIDDING: {
        let highest = PASS;
        for (let p = 0; p < s.n; p++) if (s.bids[p] > highest) highest = s.bids[p];
        const top = s.rules.doubleMisere ? DOUBLE_MISERE : MISERE;
        const r = rng.below(top - highest + 1); // 0 = pass, else highest + r
        error = s.fam.step(s, { kind: 'bid', seat, bid: BIDS[r === 0 ? PASS : highest + r] }, null);
        break;
      }
      case PH_DISCARD:
        error = s.fam.step(s, { kind: 'discard', seat, cards: randomHandCards(s, seat, 2, rng) }, null);
        break;
      case PH_TRUMP:
        error = s.fam.step(s, { kind: 'trump', seat, suit: SUITS[rng.below(4)] }, null);
        break;
      default:
        return moves;
    }
    if (error) throw new Error(`randomPlayout made an illegal move: ${error.rule}: ${error.message}`);
    moves++;
  }
}
