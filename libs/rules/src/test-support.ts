/** Small helpers for the unit tests (no test framework imports, so it compiles with the library). */
import { parseCard, type Card } from './cards.js';
import { apply, deal, legalMoves, phase } from './game.js';
import type { GameEvent } from './events.js';
import type { Move } from './moves.js';
import type { Result, RuleError } from './result.js';
import { makeRules, type Rules } from './rules.js';
import type { GameState } from './state.js';

export function must<T>(r: Result<T, RuleError>): T {
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.rule}: ${r.error.message}`);
  return r.value;
}

export function rulesOf(preset: string, options?: unknown): Rules {
  return must(makeRules(preset, options));
}

export function cards(...names: string[]): Card[] {
  return names.map((n) => {
    const c = parseCard(n);
    if (c === null) throw new Error(`bad card ${n}`);
    return c;
  });
}

/** One suit's cards from names of ranks: suitCards('H', '23456789TJQKA'). */
export function suitCards(suit: string, ranks: string): string[] {
  return [...ranks].map((r) => r + suit);
}

export function dealt(state: GameState, deck: readonly Card[]): GameState {
  return must(deal(state, deck));
}

export function step(state: GameState, move: Move): GameState {
  return must(apply(state, move)).state;
}

export function stepEvents(state: GameState, move: Move): { state: GameState; events: GameEvent[] } {
  return must(apply(state, move));
}

export function errorOf(state: GameState, move: Move): RuleError {
  const r = apply(state, move);
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

/** Plays cards chosen by `pick` among the legal ones until the deal ends. */
export function playOut(state: GameState, pick: (legal: Card[], seat: number) => Card = (legal) => legal[0]): GameState {
  while (phase(state) === 'play') {
    const legal = legalMoves(state);
    if (!legal || legal.kind !== 'play') throw new Error('not playing');
    state = step(state, { kind: 'play', seat: legal.seat, card: pick(legal.cards, legal.seat) });
  }
  return state;
}

/** Nobody exchanges: every seat, from the one to move, exchanges 0 cards. */
export function noExchanges(state: GameState): GameState {
  while (phase(state) === 'exchange') {
    const legal = legalMoves(state)!;
    state = step(state, { kind: 'exchange', seat: legal.seat, discards: [] });
  }
  return state;
}
