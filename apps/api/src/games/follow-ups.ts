import { currentPlayer, gameEnd, placesOf, type GameEvent, type GameState } from '@mizerka/rules';
import type { OutboxEntry } from '../outbox/outbox-entries.js';

/**
 * What must happen because of a write that produced `events` and left the game in `state`: the
 * outbox entries it queues in the same statement. `seats` are player ids by seat.
 */
export function followUpsOf(seats: readonly string[], events: readonly GameEvent[], state: GameState, deadline: Date | null): OutboxEntry[] {
  const out: OutboxEntry[] = [];
  for (const event of events) {
    if (event.type === 'dealScored') out.push({ type: 'dealFinished', deal: event.deal });
    if (event.type === 'gameOver') {
      const end = gameEnd(state);
      out.push({ type: 'gameFinished', totals: event.totals, places: placesOf(event.totals, end?.seat ?? null), winners: event.winners, end });
    }
  }
  const toMove = currentPlayer(state);
  if (toMove !== null) {
    out.push({ type: 'turnBegan', seat: toMove, playerId: seats[toMove], deadline: deadline?.toISOString() ?? null });
  }
  return out;
}
