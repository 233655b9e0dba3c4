import { Injectable } from '@nestjs/common';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { badInput } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import { gamePlayers, logEntryView, SEAT_PLAYER, type LogRow } from '../games/index.js';
import { parseFeedEventId, readableFeedTail, type FeedCursor, type FeedEvent } from '../player-events/feed.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { lastMovesSql, turnsToPlaySql, type TurnKey } from './inbox.sql.js';
import type { TurnToPlay, TurnToPlayPage } from './models/turn.model.js';
import { followFeed } from './player-event-follower.js';
import { PlayerFollowers } from './player-followers.js';

const UNTIMED = 'untimed';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The correspondence player's inbox: the games waiting for their move, and their feed of events
 * as a stream (GraphQL `myEvents`, SSE `/me/events`).
 */
@Injectable()
export class InboxService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: PlayerEventsService,
    private readonly followers: PlayerFollowers,
  ) {}

  /**
   * The caller's active games where their seat is to move, soonest deadline first, untimed ones
   * last, ties by game id. A page is keyed by (deadline, id): a move elsewhere does not shift it,
   * though a game leaves the inbox once moved in and comes back with its next turn.
   */
  async myTurn(player: AuthenticatedPlayer, first: number, after?: string | null): Promise<TurnToPlayPage> {
    const cursor = after ? decodeTurnCursor(after) : null;
    const rows = await queryRows(this.prisma, turnsToPlaySql(player.id, cursor, first));
    const hasMore = rows.length > first;
    const page = rows.slice(0, first);
    const ids = page.map((r) => r.id);
    const [seats, lastMoves] = ids.length === 0 ? [[], new Map<string, LogRow>()] : await Promise.all([this.seatsOf(ids), this.lastMovesOf(ids)]);
    const items: TurnToPlay[] = page.map((g) => {
      const last = lastMoves.get(g.id);
      return {
        gameId: g.id,
        preset: g.preset,
        seat: g.seat,
        version: g.version,
        deadline: g.deadline,
        opponents: gamePlayers(
          seats.filter((s) => s.gameId === g.id),
          g.totals,
        ).filter((p) => p.seat !== g.seat),
        // Through the one redaction point, exactly as gameLog shows it to this seat.
        lastMove: last ? logEntryView(last, g.seat) : null,
      };
    });
    const lastItem = page.at(-1);
    return { items, hasMore, nextCursor: hasMore && lastItem ? encodeTurnCursor({ deadline: lastItem.deadline, id: lastItem.id }) : null };
  }

  /**
   * Where a stream resumes: the Last-Event-ID header wins over `after`; neither: from now on.
   * A malformed id, or one never issued to this player (`0-0`, another player's), is BAD_INPUT
   * naming where it came from: resuming after it would skip or replay events unseen.
   */
  async resumeFrom(player: AuthenticatedPlayer, lastEventId: string | undefined, after: string | null | undefined): Promise<FeedCursor | null> {
    const [value, field] = lastEventId !== undefined && lastEventId.trim() !== '' ? [lastEventId, 'Last-Event-ID'] : [after, 'after'];
    if (value === undefined || value === null) return null;
    const cursor = parseFeedEventId(value, field);
    if (!(await this.events.issued(player.id, cursor))) {
      throw badInput(`${field} is not the id of an event of your feed; resume with the id of the last event received, or omit it`, { field });
    }
    return cursor;
  }

  /**
   * The caller's feed after `after` (null: only what comes from now on), then each event once
   * committed; ends when `signal` aborts or the stream is returned. The player's streams on this
   * instance share one follower (PlayerFollowers).
   */
  follow(player: AuthenticatedPlayer, after: FeedCursor | null, signal?: AbortSignal, started?: () => void): AsyncIterableIterator<FeedEvent> {
    return followFeed(this.followers, (playerId) => this.tail(playerId), player.id, after, signal, started);
  }

  private seatsOf(gameIds: string[]) {
    return this.prisma.gameSeat.findMany({
      where: { gameId: { in: gameIds } },
      orderBy: [{ gameId: 'asc' }, { seat: 'asc' }],
      select: { gameId: true, seat: true, playerId: true, place: true, player: { select: SEAT_PLAYER } },
    });
  }

  /** Each game's last entry that is not a deal (one index probe per game, from its end). */
  private async lastMovesOf(gameIds: string[]): Promise<Map<string, LogRow>> {
    const rows = await queryRows(this.prisma, lastMovesSql(gameIds));
    return new Map(
      rows.map((r) => [
        r.game_id,
        {
          seq: r.seq,
          kind: r.kind,
          dealIndex: r.deal_index,
          seat: r.seat,
          actor: r.actor,
          cause: r.cause,
          events: r.events,
          createdAt: r.created_at,
          deadline: r.deadline,
        },
      ]),
    );
  }

  /** The player's last event a read can see now (see readFeed's horizon): "from now on" starts after it. */
  private tail(playerId: string): Promise<FeedCursor> {
    return readableFeedTail(this.prisma, playerId);
  }
}

/** A feed event as clients get it (SSE data, webhooks): without the internal cursor. */
export function feedEventData(event: FeedEvent) {
  return {
    id: event.id,
    type: event.type,
    gameId: event.gameId,
    lobbyId: event.lobbyId,
    seq: event.seq,
    payload: event.payload,
    createdAt: event.createdAt.toISOString(),
  };
}

export function encodeTurnCursor(key: TurnKey): string {
  return Buffer.from(`${key.deadline ? key.deadline.toISOString() : UNTIMED}|${key.id}`).toString('base64url');
}

/** A cursor this server did not make is BAD_INPUT naming `after`. */
export function decodeTurnCursor(cursor: string): TurnKey {
  const [time = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const deadline = time === UNTIMED ? null : new Date(time);
  if (rest.length > 0 || !UUID.test(id) || (deadline !== null && (!ISO.test(time) || Number.isNaN(deadline.getTime())))) {
    throw badInput('after is not a valid cursor; pass the nextCursor of the previous page', { field: 'after' });
  }
  return { deadline, id };
}
