import type { GameEnd } from '@mizerka/rules';

/**
 * What a player's feed holds: everything that concerns them, in the order it became visible. The
 * same types are what `myEvents`, `GET /api/v1/me/events` and webhooks carry. Payloads say what
 * happened and where (ids, seq, deadline, standings), never a card: a client fetches its own view.
 */
export interface FeedPayloads {
  /** It is the player's move. `deadline` is null in an untimed game. */
  yourTurn: { gameId: string; seq: number; seat: number; deadline: string | null; preset: string };
  /** The player's deadline is near (the share of the time that is left is configurable). */
  deadlineNear: { gameId: string; seq: number; seat: number; deadline: string };
  /**
   * A reminder the player chose before a time-out: `before` whole seconds before `deadline` of
   * their turn at `seq`, for the notice channels that chose this moment. (Its row has no seq: a
   * turn has several reminders.)
   */
  turnReminder: { gameId: string; seq: number; seat: number; deadline: string; before: number; channels: ('push' | 'email')[] };
  /** A game with the player in it began. */
  gameStarted: { gameId: string; lobbyId: string | null; seat: number; preset: string; players: number };
  /** A game of the player's ended: their place, everyone's totals, and how it ended when early. */
  gameFinished: { gameId: string; seq: number; seat: number; place: number; totals: number[]; winners: number[]; end: GameEnd | null };
  /** A seat ran out of time: the server moved for it, or the game was forfeited. */
  timedOut: { gameId: string; seq: number; seat: number; playerId: string; action: 'autoMove' | 'forfeit'; consecutive: number };
  /** Someone sat down at a lobby the player is in. */
  lobbyJoined: { lobbyId: string; playerId: string; name: string; seat: number };
  /** Someone left a lobby the player is in (or the host removed them). */
  lobbyLeft: { lobbyId: string; playerId: string; name: string; seat: number; removed: boolean };
  /**
   * A tournament the player is in changed: someone joined or withdrew, it started, a round began
   * or ended (the standings moved), or it finished. Read the tournament for the details.
   */
  tournamentUpdated: { tournamentId: string; status: string; round: number; change: 'joined' | 'withdrawn' | 'started' | 'roundStarted' | 'roundFinished' | 'finished' | 'cancelled' };
}

export type FeedEventType = keyof FeedPayloads;

export const FEED_EVENT_TYPES: readonly FeedEventType[] = [
  'yourTurn',
  'deadlineNear',
  'gameStarted',
  'gameFinished',
  'timedOut',
  'lobbyJoined',
  'lobbyLeft',
  'turnReminder',
  'tournamentUpdated',
];

/** A row to add to a player's feed. */
export type NewFeedEvent = {
  [T in FeedEventType]: { playerId: string; type: T; gameId: string | null; lobbyId: string | null; seq: number | null; payload: FeedPayloads[T] };
}[FeedEventType];
