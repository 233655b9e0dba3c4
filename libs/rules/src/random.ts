import type { Card } from './cards.js';
import type { Rules } from './rules.js';

/**
 * The one source of chance: xoshiro128** (Blackman & Vigna), 32-bit state words.
 * Nothing else in the library is random.
 */
export class Xoshiro128 {
  // Kept as signed int32 so V8 stores them as small integers, not boxed doubles.
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
  }

  /** From 32 hex digits: the four 32-bit words, most significant digit first. */
  static fromSeed(seed: string): Xoshiro128 {
    if (typeof seed !== 'string' || !/^[0-9a-fA-F]{32}$/.test(seed)) {
      throw new RangeError('seed must be 32 hex digits (128 bits)');
    }
    const w = [0, 8, 16, 24].map((i) => parseInt(seed.slice(i, i + 8), 16));
    return new Xoshiro128(w[0], w[1], w[2], w[3]);
  }

  /** The next 32-bit output, 0 .. 2^32-1. */
  next(): number {
    const a = this.a;
    const b = this.b;
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    const c = this.c ^ a;
    const d = this.d ^ b;
    this.b = b ^ c;
    this.a = a ^ d;
    this.c = c ^ t;
    this.d = rotl(d, 11);
    return result;
  }

  /**
   * Unbiased integer in 0 .. bound-1 (1 <= bound <= 2^32) by rejection: outputs at or above the
   * largest multiple of bound below 2^32 are drawn again, then the remainder is taken.
   */
  below(bound: number): number {
    // The same rule in uint32 arithmetic, which V8 compiles to integer division: with
    // r = 2^32 mod n = (2^32 - n) mod n, accept x <= 2^32 - 1 - r.
    const n = bound >>> 0;
    const r = ((0 - n) >>> 0) % n;
    const last = (~r) >>> 0;
    let x = this.next();
    while (x > last) x = this.next();
    return x % n;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * The deck for a seed: rules.deck ascending, shuffled by Fisher–Yates from the last index down
 * (for i = len-1 … 1: j = below(i + 1), swap i and j) with Xoshiro128.fromSeed(seed).
 * Throws a RangeError when the seed is not 32 hex digits.
 */
export function shuffledDeck(rules: Rules, seed: string): Card[] {
  const rng = Xoshiro128.fromSeed(seed);
  const deck = [...rules.deck];
  shuffleInPlace(deck, rng);
  return deck;
}

/** Fisher–Yates as shuffledDeck does it, in place on any array of cards. */
export function shuffleInPlace(deck: Card[] | Uint8Array, rng: Xoshiro128): void {
  for (let i = deck.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
}
