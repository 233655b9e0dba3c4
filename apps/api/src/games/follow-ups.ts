import { currentPlayer, gameEnd, placesOf, type GameEvent, type GameState } from '@mizerka/rules';
import type { OutboxEntry } from '../outbox/outbox-entries.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import type { GameClock } from './time-control.js';

/**
 * What must happen because of a write that produced `events` and left the game in `state`: the
 * outbox entries it queues in the same statement. `seats` are player ids by seat.
 *
 * A turn is queued (`turnBegan`) when it is work for the server: a seat the server plays (`serverBots`
 * by seat; a server bot's level never changes) or a deadline to watch. A person's untimed turn
 * needs nothing from it beyond the feed's `yourTurn`, which the write makes itself, so it queues
 * nothing: no relay, no job. Without `serverBots` every turn is queued (a game's first turn,
 * whose seats the caller has not looked up).
 */
export function followUpsOf(
  seats: readonly string[],
  events: readonly GameEvent[],
  state: GameState,
  deadline: Date | null,
  serverBots?: readonly boolean[],
): OutboxEntry[] {
  const out: OutboxEntry[] = [];
  for (const event of events) {
    if (event.type === 'dealScored') out.push({ type: 'dealFinished', deal: event.deal });
    if (event.type === 'gameOver') {
      const end = gameEnd(state);
      out.push({ type: 'gameFinished', totals: event.totals, places: placesOf(event.totals, end?.seat ?? null), winners: event.winners, end });
    }
  }
  const toMove = currentPlayer(state);
  if (toMove !== null && (deadline !== null || serverBots === undefined || serverBots[toMove])) {
    out.push({ type: 'turnBegan', seat: toMove, playerId: seats[toMove], deadline: deadline?.toISOString() ?? null });
  }
  return out;
}

/** A game began: each seated player hears it, with their seat. */
export function gameStartedFeed(gameId: string, lobbyId: string | null, seats: readonly string[], preset: string): NewFeedEvent[] {
  return seats.map((playerId, seat) => ({
    playerId,
    type: 'gameStarted',
    gameId,
    lobbyId,
    seq: 1,
    payload: { gameId, lobbyId, seat, preset, players: seats.length },
  }));
}

/** The seat to move at version `seq` hears that its deadline is near (the clock's warning job). */
export function deadlineNearFeed(gameId: string, seq: number, seat: number, playerId: string, deadline: Date): NewFeedEvent {
  return { playerId, type: 'deadlineNear', gameId, lobbyId: null, seq, payload: { gameId, seq, seat, deadline: deadline.toISOString() } };
}

/** Why the write was made for a seat by the server rather than by its player. */
export type TimeOutCause = { seat: number; action: 'autoMove' | 'forfeit' } | null;

/**
 * Every feed payload is built in this file (the game commit's projection and the clock's warning
 * use these): what a write at log entry `seq` means for the players' feeds, written in the same statement:
 * the next seat's turn (with its deadline), the game's end for everyone (with standings), a
 * time-out for everyone. Payloads carry ids and numbers, never a card.
 */
export function feedOf(
  gameId: string,
  seq: number,
  seats: readonly string[],
  events: readonly GameEvent[],
  state: GameState,
  clock: GameClock | null,
  timedOut: TimeOutCause,
): NewFeedEvent[] {
  const out: NewFeedEvent[] = [];
  const game = { gameId, lobbyId: null, seq };
  if (timedOut) {
    const consecutive = clock?.timeouts[timedOut.seat] ?? 1;
    for (const playerId of seats) {
      out.push({
        ...game,
        playerId,
        type: 'timedOut',
        payload: { gameId, seq, seat: timedOut.seat, playerId: seats[timedOut.seat], action: timedOut.action, consecutive },
      });
    }
  }
  const over = events.find((e): e is Extract<GameEvent, { type: 'gameOver' }> => e.type === 'gameOver');
  if (over) {
    const end = gameEnd(state);
    const places = placesOf(over.totals, end?.seat ?? null);
    seats.forEach((playerId, seat) =>
      out.push({
        ...game,
        playerId,
        type: 'gameFinished',
        payload: { gameId, seq, seat, place: places[seat], totals: over.totals, winners: over.winners, end },
      }),
    );
  }
  const toMove = currentPlayer(state);
  if (toMove !== null) {
    out.push({
      ...game,
      playerId: seats[toMove],
      type: 'yourTurn',
      payload: { gameId, seq, seat: toMove, deadline: clock?.deadline?.toISOString() ?? null, preset: state.rules.preset },
    });
  }
  return out;
}
