// A seeded random player: it only ever chooses among what the API's view offers (`legalMoves`),
// with the rules library's generator, so a game replays from its seed.
import { createHash } from 'node:crypto';
import { Xoshiro128 } from '@mizerka/rules';

/** The `legalMoves` of a SeatView as the API sends it (GraphQL names; null where a kind has no such field). */
export interface LegalMovesView {
  kind: string;
  seat: number;
  contracts: string[] | null;
  cards: string[] | null;
  maxDiscards: number | null;
  count: number | null;
  bids: string[] | null;
  suits: string[] | null;
}

/** A move as MakeMoveInput fields, without the game: `{ kind: 'play', card: 'AS' }`, … */
export type MoveInput = { kind: string; [field: string]: unknown };

/** A uniform integer in 0 .. bound-1 (bound an integer, 1 ≤ bound < 2^32). */
export type Chance = (bound: number) => number;

/**
 * Chance from a seed: the rules library's Xoshiro128, seeded with the first 128 bits of
 * SHA-256(String(seed)), so that nearby seeds (1, 2, 3…) give unrelated sequences.
 */
export function seededChance(seed: number | string): Chance {
  const rng = Xoshiro128.fromSeed(createHash('sha256').update(String(seed)).digest('hex').slice(0, 32));
  return (bound) => {
    if (!Number.isInteger(bound) || bound < 1 || bound > 0xffffffff) throw new RangeError(`chance needs an integer bound in 1..2^32-1, got ${bound}`);
    return rng.below(bound);
  };
}

/** One of `xs`, uniformly. */
export function pickOne<T>(xs: readonly T[], chance: Chance): T {
  if (xs.length === 0) throw new Error('nothing to choose from');
  return xs[chance(xs.length)];
}

/** `k` distinct elements of `xs` in random order (a partial Fisher–Yates shuffle of a copy). */
export function sampleOf<T>(xs: readonly T[], k: number, chance: Chance): T[] {
  if (k > xs.length) throw new Error(`cannot choose ${k} of ${xs.length}`);
  const copy = [...xs];
  for (let i = 0; i < k; i++) {
    const j = i + chance(copy.length - i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, k);
}

/** A legal move chosen at random among those `legal` offers: exchange discards 0..maxDiscards cards, each count alike. */
export function chooseMove(legal: LegalMovesView, chance: Chance): MoveInput {
  const offered = <T>(xs: T[] | null, field: string): T[] => {
    if (!xs || xs.length === 0) throw new Error(`no ${field} offered: ${JSON.stringify(legal)}`);
    return xs;
  };
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', contract: pickOne(offered(legal.contracts, 'contracts'), chance) };
    case 'exchange': {
      const cards = legal.cards ?? [];
      const k = chance(Math.min(legal.maxDiscards ?? 0, cards.length) + 1);
      return { kind: 'exchange', discards: sampleOf(cards, k, chance) };
    }
    case 'bid':
      return { kind: 'bid', bid: pickOne(offered(legal.bids, 'bids'), chance) };
    case 'discard': {
      if (legal.count === null) throw new Error(`no count offered: ${JSON.stringify(legal)}`);
      return { kind: 'discard', cards: sampleOf(offered(legal.cards, 'cards'), legal.count, chance) };
    }
    case 'trump':
      return { kind: 'trump', suit: pickOne(offered(legal.suits, 'suits'), chance) };
    case 'play':
      return { kind: 'play', card: pickOne(offered(legal.cards, 'cards'), chance) };
    default:
      throw new Error(`unknown legal move kind ${legal.kind}`);
  }
}
