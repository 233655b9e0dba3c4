import { createHash } from 'node:crypto';
import { dealIndex, eventView, view, type EventView, type GameEvent, type GameState, type Move } from '@mizerka/rules';
import type { BotInput } from '@mizerka/bots';
import { DomainError } from '../common/errors.js';
import type { GameStore } from '../games/index.js';
import type { SeatlessMove } from './move-input.js';

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

/**
 * What a bot moving for `seat` at the game's `version` is given: its input, from the deal's
 * events up to that version, and the turn's seed. The server bots and the clocks' autoMove alike.
 */
export async function botTurnOf(
  store: Pick<GameStore, 'dealEvents'>,
  gameId: string,
  state: GameState,
  version: number,
  seat: number,
): Promise<{ input: BotInput; seed: number }> {
  const events = await store.dealEvents(gameId, dealIndex(state), version);
  return { input: botInputOf(state, seat, events), seed: botSeed(gameId, version) };
}

/**
 * Moves for a seat with the first of `candidates` the rules accept, through `submit`: a candidate
 * the rules refuse (ILLEGAL_MOVE) is told to `refused` and the next one is tried, so that the
 * server never stalls a game on a bad move of its own. True when one was played; false when
 * every one was refused. Any other error (a lost race: CONFLICT) is thrown.
 */
export async function moveForSeat(
  candidates: readonly (Move | null)[],
  submit: (move: SeatlessMove) => Promise<unknown>,
  refused: (error: DomainError) => void,
): Promise<boolean> {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const { seat: _seat, ...seatless } = candidate;
    try {
      await submit(seatless as SeatlessMove);
      return true;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'ILLEGAL_MOVE') throw error;
      refused(error);
    }
  }
  return false;
}
