import { eventView, type GameEvent } from '@mizerka/rules';
import type { GameEventView } from './models/event-view.model.js';

/**
 * Stored rules events (with everyone's cards) → what `seat` may see, through the rules' eventView,
 * the one redaction point. Nothing else reads the stored events for output.
 */
export function eventViews(seq: number, events: unknown, seat: number | null): GameEventView[] {
  const out: GameEventView[] = [];
  for (const event of events as GameEvent[]) {
    const seen = eventView(event, seat);
    if (seen) out.push({ seq, ...seen });
  }
  return out;
}
