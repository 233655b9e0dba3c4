import { parseCard, type Card, type Move, type Xoshiro128 } from '@mizerka/rules';
import type { BotInput, BotOptions } from './bot.js';
import { rngFor, seatToMove } from './seat.js';

/** A uniformly random legal move (an exchange: a random count of random cards). */
export function randomMove(input: BotInput, options: BotOptions): Move {
  const { legal, seat } = seatToMove(input);
  const rng = rngFor(options.seed);
  const pick = <T>(items: readonly T[]): T => items[rng.below(items.length)];
  const cards = (names: readonly string[]) => names.map((n) => parseCard(n) as Card);
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat, contract: pick(legal.contracts) };
    case 'bid':
      return { kind: 'bid', seat, bid: pick(legal.bids) };
    case 'trump':
      return { kind: 'trump', seat, suit: pick(legal.suits) };
    case 'play':
      return { kind: 'play', seat, card: pick(cards(legal.cards)) };
    case 'exchange':
      return { kind: 'exchange', seat, discards: sample(cards(legal.cards), rng.below(legal.maxDiscards + 1), rng) };
    case 'discard':
      return { kind: 'discard', seat, cards: sample(cards(legal.cards), legal.count, rng) };
  }
}

function sample(cards: Card[], k: number, rng: Xoshiro128): Card[] {
  const pool = [...cards];
  for (let i = 0; i < k; i++) {
    const j = i + rng.below(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, k);
}
