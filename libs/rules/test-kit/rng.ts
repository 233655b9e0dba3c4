// A small seeded generator for the test drivers. It is not the engine's dealing generator
// (that one is `shuffledDeck`); it only chooses among legal moves, so any decent PRNG will do.
// sfc32 seeded through splitmix32, so that neighbouring integer seeds give unrelated streams.

export interface Rng {
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A new array with the items in random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** `k` distinct items chosen uniformly, in random order. */
  sample<T>(items: readonly T[], k: number): T[];
  /** A seed for `shuffledDeck`: 32 lower-case hex digits. */
  hexSeed(): string;
  /** The state, to report or to restart a stream. */
  readonly seed: number;
}

function splitmix32(a: number): () => number {
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let z = a;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function makeRng(seed: number): Rng {
  const init = splitmix32(seed | 0);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next32();
  const int = (n: number): number => {
    if (!Number.isInteger(n) || n <= 0) throw new Error(`rng.int: bad bound ${n}`);
    // Rejection sampling keeps it unbiased; n is always small here.
    const limit = Math.floor(0x1_0000_0000 / n) * n;
    for (;;) {
      const x = next32();
      if (x < limit) return x % n;
    }
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return {
    seed,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('rng.pick: empty');
      return items[int(items.length)];
    },
    shuffle,
    sample: <T>(items: readonly T[], k: number): T[] => shuffle(items).slice(0, k),
    hexSeed: () => {
      let s = '';
      for (let i = 0; i < 4; i++) s += next32().toString(16).padStart(8, '0');
      return s;
    },
  };
}
