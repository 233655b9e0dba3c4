/**
 * What a player who is away is told, on a channel of their choosing (Web Push, email): made from
 * an event of their feed (player-events/feed-events.ts), after their preferences, quiet hours and
 * presence were weighed. Like the feed, a notice names the game and what happened, never a card.
 */
export type NoticeKind = 'yourTurn' | 'turnReminder' | 'deadlineNear' | 'timedOut' | 'gameFinished' | 'invited';

export interface Notice {
  /**
   * The feed event it was made from (player_feeds' id, as text). A channel keys what it sends by
   * (channel, device or address, feedEventId), so that a notice delivered twice is sent once.
   */
  feedEventId: string;
  playerId: string;
  kind: NoticeKind;
  gameId: string | null;
  lobbyId: string | null;
  /** One line, e.g. "Your move against Ala and Olek". */
  title: string;
  /** A sentence or two, e.g. "Classic, deal 3 of 18: your turn to play. 7 h left." */
  body: string;
  /** Where the web client opens it, relative to PUBLIC_URL, e.g. `/#/games/<gameId>`. */
  path: string;
  /** The deadline of the turn it concerns (ISO time), when there is one. */
  deadline: string | null;
  /** When the event happened (ISO time). */
  at: string;
}

/** A way to reach a player: the notifications module hands it the notices meant for it. */
export interface NoticeChannel {
  /** Its name in preferences, logs and metrics. */
  readonly name: 'push' | 'email';
  /**
   * Takes notices to send now (already filtered by the player's preferences, quiet hours and
   * presence). Returns once they are durably queued (a job per send, retried by the job queue),
   * not when they arrived; must be idempotent per (player, feedEventId).
   */
  deliver(notices: Notice[]): Promise<void>;
}
