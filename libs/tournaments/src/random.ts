/**
 * Deterministic chance for the schedulers: the same inputs always give the same plan, so a server
 * can recompute a round after a restart and a test can name its expected output. Nothing here
 * reads a clock or Math.random.
 */

/** FNV-1a, 32 bits: a stable hash of a string (seeded tie-breaks, PRNG seeds). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small PRNG, enough to drive a local search (not for dealing cards). */
export function makeRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
