import { popcount, SUITS, type Card } from './cards.js';
import type { GameEvent } from './events.js';
import { applyInPlace, internal } from './game.js';
import type { Xoshiro128 } from './random.js';
import type { RuleError, Seat } from './result.js';
import { BIDS, CONTRACTS, DOUBLE_MISERE, MISERE, PASS } from './rules.js';
import { maskCards, PH_BIDDING, PH_CONTRACT, PH_DISCARD, PH_EXCHANGE, PH_PLAY, PH_TRUMP, type GameState } from './state.js';
import { legalPlayMasks, playCard } from './tricks.js';

/**
 * The in-place fast path, for the bench and for bots that search: no copies, no events unless
 * asked, no strings. Use it on a state of your own (copyState), never on one shared with others.
 */

/** A seat's hand as four 13-bit rank masks (clubs, diamonds, hearts, spades) written into out. */
export function handMasks(state: GameState, seat: Seat, out: Uint16Array | Int32Array | number[]): void {
  const s = internal(state);
  for (let suit = 0; suit < 4; suit++) out[suit] = s.hands[seat * 4 + suit];
}

/** The cards the player to move may play (phase 'play'), as four rank masks written into out. */
export function legalPlayMask(state: GameState, out: Uint16Array | Int32Array | number[]): void {
  legalPlayMasks(internal(state), out);
}

/** Play `card` for the player to move, in place (phase 'play'); events pushed onto ev when given. */
export function playCardInPlace(state: GameState, card: Card, ev: GameEvent[] | null = null): RuleError | null {
  const s = internal(state);
  if (s.phase !== PH_PLAY) return applyInPlace(state, { kind: 'play', seat: s.toMove, card }, ev);
  return playCard(s, card, ev);
}

const masks = new Int32Array(4);

/** The n-th (0-based) set bit of mask, as a bit index. */
function nthBit(mask: number, n: number): number {
  for (let i = 0; i < n; i++) mask &= mask - 1;
  return 31 - Math.clz32(mask & -mask);
}

function randomPlay(state: GameState, rng: Xoshiro128): Card {
  const s = internal(state);
  legalPlayMasks(s, masks);
  let total = 0;
  for (let suit = 0; suit < 4; suit++) total += popcount(masks[suit]);
  let r = rng.below(total);
  for (let suit = 0; ; suit++) {
    const count = popcount(masks[suit]);
    if (r < count) return suit * 13 + nthBit(masks[suit], r);
    r -= count;
  }
}

/** k distinct random cards of the player to move's hand. */
function randomCards(state: GameState, k: number, rng: Xoshiro128): Card[] {
  const s = internal(state);
  const hand = maskCards(s.hands, s.toMove);
  for (let i = 0; i < k; i++) {
    const j = i + rng.below(hand.length - i);
    const t = hand[i];
    hand[i] = hand[j];
    hand[j] = t;
  }
  hand.length = k;
  return hand;
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
    let error: RuleError | null = null;
    switch (s.phase) {
      case PH_PLAY:
        error = playCard(s, randomPlay(state, rng), null);
        break;
      case PH_CONTRACT: {
        const left = s.rules.contracts.filter((c) => !((s.used[seat] >> CONTRACTS.indexOf(c)) & 1));
        error = applyInPlace(state, { kind: 'contract', seat, contract: left[rng.below(left.length)] });
        break;
      }
      case PH_EXCHANGE: {
        const k = rng.below(Math.min(s.handSize, s.talonLen - s.talonPos) + 1);
        error = applyInPlace(state, { kind: 'exchange', seat, discards: randomCards(state, k, rng) });
        break;
      }
      case PH_BIDDING: {
        let highest = PASS;
        for (let p = 0; p < s.n; p++) if (s.bids[p] > highest) highest = s.bids[p];
        const top = s.rules.doubleMisere ? DOUBLE_MISERE : MISERE;
        const r = rng.below(top - highest + 1); // 0 = pass, else highest + r
        error = applyInPlace(state, { kind: 'bid', seat, bid: BIDS[r === 0 ? PASS : highest + r] });
        break;
      }
      case PH_DISCARD:
        error = applyInPlace(state, { kind: 'discard', seat, cards: randomCards(state, 2, rng) });
        break;
      case PH_TRUMP:
        error = applyInPlace(state, { kind: 'trump', seat, suit: SUITS[rng.below(4)] });
        break;
      default:
        return moves;
    }
    if (error) throw new Error(`randomPlayout made an illegal move: ${error.rule}: ${error.message}`);
    moves++;
  }
}
