import type { EventView, Move, SeatView } from '@mizerka/rules';

export type BotLevel = 'random' | 'basic' | 'strong';
export const BOT_LEVELS: readonly BotLevel[] = ['random', 'basic', 'strong'];

/**
 * All a bot knows: its seat's view and what the seat has seen of the current deal, both redacted
 * by the rules library for that seat (view(state, seat) and eventView(event, seat)). A bot never
 * receives a GameState, so it cannot read a hidden card.
 */
export interface BotInput {
  view: SeatView;
  /** The current deal's events as this seat saw them, oldest first, from its 'dealt' event on. */
  dealEvents: readonly EventView[];
}

export interface BotOptions {
  /** The same seed and input give the same move. */
  seed: number;
  /** strong: a cap on the time to think, in milliseconds (default none: the samples decide, so the move is reproducible). */
  budgetMs?: number;
  /** strong: determinized deals per card decision (default STRONG_SAMPLES); fewer when budgetMs runs out first. */
  samples?: number;
}

/** A level's choice: a legal move for input.view.viewer, who must be the seat to move. */
export type Bot = (input: BotInput, options: BotOptions) => Move;
