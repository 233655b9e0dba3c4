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
  /** strong: time to think, in milliseconds (default 800). */
  budgetMs?: number;
  /** strong: determinized samples at most (default: as many as the budget allows). */
  samples?: number;
}

/** A level's choice: a legal move for input.view.viewer, who must be the seat to move. */
export type Bot = (input: BotInput, options: BotOptions) => Move;
