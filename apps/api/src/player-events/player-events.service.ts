import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { NewFeedEvent } from './feed-events.js';
import { feedEventIssued, readFeed, type FeedCursor, type FeedEvent } from './feed.js';
import { insertFeedSql } from './feed.sql.js';
import { PlayerFeedBus } from './player-feed-bus.js';

/**
 * Each player's feed of what concerns them. Rows are written in the transaction of their cause:
 * the move's own statement (your turn, game finished, time-out), the lobby's transaction (game
 * started, joined, left), the clock's job (deadline near). Streams and webhooks read it by id.
 */
@Injectable()
export class PlayerEventsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: PlayerFeedBus,
  ) {}

  /** The player's feed after `after`, oldest first. */
  feed(playerId: string, after: FeedCursor, limit: number): Promise<FeedEvent[]> {
    return readFeed(this.prisma, playerId, after, limit);
  }

  /** Whether `cursor` is the id of an event this player's feed handed out (see feedEventIssued). */
  issued(playerId: string, cursor: FeedCursor): Promise<boolean> {
    return feedEventIssued(this.prisma, playerId, cursor);
  }

  /**
   * Adds events inside the caller's transaction (or on their own). Call `published` with the
   * same events once that transaction has committed.
   */
  async add(db: Pick<Prisma.TransactionClient, '$executeRaw'>, events: readonly NewFeedEvent[]): Promise<void> {
    if (events.length > 0) await db.$executeRaw(insertFeedSql(events));
  }

  /**
   * Wakes the streams of the players these committed events are for. `tx`, the transaction that
   * wrote them when known, lets a stream keep reading until it sees that transaction's rows.
   */
  published(events: readonly Pick<NewFeedEvent, 'playerId'>[], tx: bigint | null = null): void {
    if (events.length > 0) this.bus.published(events.map((e) => e.playerId), tx);
  }
}
