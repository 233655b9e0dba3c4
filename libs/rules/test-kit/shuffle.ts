// An independent reference for shuffledDeck as the README specifies it: xoshiro128** seeded with
// the four 32-bit words of the 32-hex-digit seed (first eight digits = first word), Fisher–Yates
// from the last index down, unbiased bounded integers by rejection (draws at or above the largest
// multiple of the bound below 2^32 are redrawn, then taken modulo the bound), starting from
// rules.deck ascending. Any client can deal the same decks from this description.
import type { Card, Rules } from '../src/index.js';

export function xoshiro128ss(seed: string): () => number {
  if (!/^[0-9a-fA-F]{32}$/.test(seed)) throw new Error(`test-kit: seed must be 32 hex digits: ${seed}`);
  const s = new Uint32Array([0, 1, 2, 3].map((i) => parseInt(seed.slice(8 * i, 8 * i + 8), 16)));
  const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;
  return () => {
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  };
}

export function referenceShuffledDeck(rules: Rules, seed: string): Card[] {
  const next = xoshiro128ss(seed);
  const bounded = (n: number): number => {
    const limit = 0x1_0000_0000 - (0x1_0000_0000 % n);
    for (;;) {
      const x = next();
      if (x < limit) return x % n;
    }
  };
  const deck = [...rules.deck].sort((a, b) => a - b);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = bounded(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}
