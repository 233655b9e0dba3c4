import { createHash, randomBytes } from 'node:crypto';
import {
  dealerOf,
  dealIndex,
  dealWithEvents,
  shuffledDeck,
  type GameEvent,
  type GameState,
} from '@mizerka/rules';

/** A deal just dealt: the new state, its 'dealt' events, and the Deal row's facts. */
export interface NewDeal {
  state: GameState;
  index: number;
  dealer: number;
  /** Secret until the game is over. */
  seed: string;
  /** Public from the start: lets players check afterwards that the deck was not changed. */
  seedHash: string;
  events: GameEvent[];
}

export function seedHashOf(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

/**
 * The chance node: a fresh 128-bit seed, the deck it shuffles to, dealt into `state` (phase 'dealing').
 * `seed` is for the seeding script, which must deal reproducibly; the server always lets it be drawn.
 */
export function dealFresh(state: GameState, seed: string = randomBytes(16).toString('hex')): NewDeal {
  const dealt = dealWithEvents(state, shuffledDeck(state.rules, seed));
  // The deck comes from rules.deck and the state is in phase 'dealing': a refusal is a bug here.
  if (!dealt.ok) throw new Error(`dealing failed: ${dealt.error.rule}`);
  const index = dealIndex(dealt.value.state);
  return {
    state: dealt.value.state,
    index,
    dealer: dealerOf(state.rules, state.firstDealer, index),
    seed,
    seedHash: seedHashOf(seed),
    events: dealt.value.events,
  };
}
