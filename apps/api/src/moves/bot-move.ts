import { createHash } from 'node:crypto';
import { eventView, view, type EventView, type GameEvent, type GameState } from '@mizerka/rules';
import type { BotInput } from '@mizerka/bots';

/**
 * A bot's input for `seat`: its own view and the current deal's events as it saw them, both
 * redacted by the rules library (the one redaction point), so a bot cannot see a hidden card.
 */
export function botInputOf(state: GameState, seat: number, dealEvents: readonly GameEvent[]): BotInput {
  const seen: EventView[] = [];
  for (const event of dealEvents) {
    const shown = eventView(event, seat);
    if (shown) seen.push(shown);
  }
  return { view: view(state, seat), dealEvents: seen };
}

/** A bot's seed for the turn at `version` of a game: a job run again makes the same move. */
export function botSeed(gameId: string, version: number): number {
  return createHash('sha256').update(`${gameId}:${version}`).digest().readUInt32BE(0);
}
