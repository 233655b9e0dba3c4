import type { FeedEvent } from '../player-events/feed.js';
import type { ChannelName } from './preferences.js';
import type { Notice, NoticeKind } from './notice.js';

// Feed events in plain words: what a player who is away is told. Only ids, places and deadlines
// from the payload (never a card, never another player's text), so a notice is safe in any mail.

/** The path of a game's table in the web client (relative to PUBLIC_URL). */
export const gamePath = (gameId: string) => `/#/games/${gameId}`;

/** "7 h left", "25 min left", or nothing when the deadline has passed or is unknown. */
export function timeLeft(deadline: string | null, now: number): string {
  if (!deadline) return '';
  const ms = Date.parse(deadline) - now;
  if (!(ms > 0)) return '';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return ` ${Math.max(minutes, 1)} min left.`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? ` ${hours} h left.` : ` ${Math.round(hours / 24)} days left.`;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The notice a feed event makes, with the channels it is limited to (a reminder names its own), or
 * null for events nobody is told of while away (lobby comings and goings, a game starting: the
 * first turn's own event says it).
 */
export function noticeOf(playerId: string, event: FeedEvent, now: number): { notice: Notice; only: ChannelName[] | null } | null {
  const p = event.payload;
  const gameId = event.gameId ?? str(p.gameId);
  if (!gameId) return null;
  const deadline = str(p.deadline);
  const base = { feedEventId: event.id, playerId, gameId, lobbyId: event.lobbyId, path: gamePath(gameId), deadline, at: event.createdAt.toISOString() };
  const make = (kind: NoticeKind, title: string, body: string, only: ChannelName[] | null = null) => ({ notice: { ...base, kind, title, body }, only });
  switch (event.type) {
    case 'yourTurn':
      return make('yourTurn', 'Your move in Mizerka', `It is your turn to play.${timeLeft(deadline, now)}`);
    case 'deadlineNear':
      return make('deadlineNear', 'Your time is running out', `It is still your turn.${timeLeft(deadline, now)} The server will move for you when the time is up.`);
    case 'turnReminder': {
      const channels = Array.isArray(p.channels) ? p.channels.filter((c): c is ChannelName => c === 'push' || c === 'email') : [];
      return make('turnReminder', 'Reminder: your move in Mizerka', `It is still your turn.${timeLeft(deadline, now)}`, channels);
    }
    case 'timedOut': {
      if (str(p.playerId) !== playerId) return null; // another seat's time-out is the table's news, not the player's
      const forfeit = p.action === 'forfeit';
      return make(
        'timedOut',
        forfeit ? 'You ran out of time: game forfeited' : 'You ran out of time',
        forfeit ? 'Your time ran out once too often and the game was forfeited.' : 'Your time ran out, so the server played a move for you.',
      );
    }
    case 'gameFinished': {
      const place = num(p.place);
      const seats = Array.isArray(p.totals) ? p.totals.length : null;
      return make('gameFinished', 'Your game of Mizerka has ended', place && seats ? `You finished in place ${place} of ${seats}.` : 'The game is over: see the final scores.');
    }
    default:
      return null;
  }
}

/** Kinds about a turn: sent late only if it is still the player's turn at the same point of the game. */
export const TURN_KINDS: readonly NoticeKind[] = ['yourTurn', 'turnReminder', 'deadlineNear'];
