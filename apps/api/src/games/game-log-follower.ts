import { notFound } from '../common/errors.js';
import { untilReturned } from '../common/live-tail.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import { refuseSpectatorOfHeldBoard } from './board-reveal.js';
import { eventViews } from './event-views.js';
import type { GameFollowers, LogRow } from './game-followers.js';
import type { GameLogEntry } from './models/event-view.model.js';

/** A stored entry as `seat` may see it (null: a spectator), through the one redaction point. */
export function logEntryView(row: LogRow, seat: number | null): GameLogEntry {
  return {
    seq: row.seq,
    kind: row.kind as GameLogEntry['kind'],
    dealIndex: row.dealIndex,
    seat: row.seat,
    actor: row.actor as GameLogEntry['actor'],
    cause: row.cause,
    createdAt: row.createdAt,
    deadline: row.deadline,
    events: eventViews(row.seq, row.events, seat),
    awayUntil: awayUntilOf(row.kind, row.move),
  };
}

/** An 'away' entry's end of vacation, kept in its `move` column; nothing of any other entry's. */
export function awayUntilOf(kind: string, move: unknown): Date | null {
  if (kind !== 'away') return null;
  const until = (move as { until?: unknown } | null)?.until;
  return typeof until === 'string' ? new Date(until) : null;
}

/**
 * One `gameLog` subscription: the log after `after`, read page by page as the subscriber takes it,
 * then what the game's live tail hands over, each entry redacted for the subscriber's seat. It ends
 * after the entry that ends the game, at once when a finished game has nothing after `after`, and
 * at once when it is returned (the client completes it, its socket closes) or its signal aborts.
 * `started` is called once it knows where it starts (LiveTails.follow).
 */
export function followGameLog(
  prisma: PrismaService,
  followers: GameFollowers,
  gameId: string,
  viewerId: string,
  after: number,
  signal?: AbortSignal,
  started?: () => void,
): AsyncIterableIterator<GameLogEntry> {
  return untilReturned(async function* (ended) {
    let seat: number | null = null;
    const rows = followers.follow(gameId, ended, async () => {
      // Read after joining: whatever is committed later is handed over by the tail.
      const game = await prisma.game.findUnique({
        where: { id: gameId },
        select: { status: true, revealHeld: true, seats: { where: { playerId: viewerId }, select: { seat: true } } },
      });
      if (!game) throw notFound('Game');
      seat = game.seats[0]?.seat ?? null;
      refuseSpectatorOfHeldBoard(game.revealHeld, seat);
      // Everything of a finished game is committed: its backlog is all there is.
      return { after, live: game.status !== 'finished' };
    }, started);
    for await (const row of rows) {
      const entry = logEntryView(row, seat);
      yield entry;
      if (entry.events.some((e) => e.type === 'gameOver')) return;
    }
  }, signal);
}
