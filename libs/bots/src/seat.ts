import { Xoshiro128, type LegalMovesView, type Seat } from '@mizerka/rules';
import type { BotInput } from './bot.js';

/** The seat a bot moves for and what it may do; throws when the view is not that seat's turn. */
export function seatToMove(input: BotInput): { seat: Seat; legal: LegalMovesView } {
  const { view } = input;
  const legal = view.legalMoves;
  if (view.viewer === null || legal === null || legal.seat !== view.viewer) {
    throw new Error('a bot moves only for the seat whose view it is given, on its turn');
  }
  return { seat: view.viewer, legal };
}

/** A generator for a bot's seed (any integer): the rules library's xoshiro128**, its words spread by splitmix32. */
export function rngFor(seed: number): Xoshiro128 {
  let x = seed >>> 0;
  const word = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  return new Xoshiro128(word(), word(), word(), word());
}
