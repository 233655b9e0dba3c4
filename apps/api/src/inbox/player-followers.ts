import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HORIZON_RETRY_MS, LiveTails } from '../common/live-tail.js';
import type { AppConfig } from '../config/app-config.js';
import type { FeedCursor, FeedEvent } from '../player-events/feed.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PlayerFeedBus } from '../player-events/player-feed-bus.js';

/** The most events one shared read asks for. */
const READ_PAGE = 200;
/** The most events a stream's own read of its backlog asks for (the next page when it is taken). */
const CATCH_UP_PAGE = 100;
const logger = new Logger('PlayerFollowers');

/** (tx, id) order: is `a` after `b`? */
export function isAfter(a: FeedCursor, b: FeedCursor): boolean {
  return a.tx > b.tx || (a.tx === b.tx && a.id > b.id);
}

/**
 * The open streams of a player (`myEvents` subscriptions, `/me/events`) share one live tail per
 * instance, like GameFollowers does per game: woken by the PlayerFeedBus after a commit, it reads
 * the feed after the last event it handed out, once, and hands the events to every stream. A
 * slow poll (FEED_POLL_MS) is the safety net for a lost notice or a commit on another instance;
 * a notice names its transaction, and the tail reads until it has passed it (HORIZON_RETRY_MS).
 */
@Injectable()
export class PlayerFollowers extends LiveTails<FeedCursor, FeedEvent> implements OnModuleDestroy {
  constructor(events: PlayerEventsService, bus: PlayerFeedBus, config: ConfigService<AppConfig, true>) {
    super({
      name: 'feed',
      read: (playerId, after, limit) => events.feed(playerId, after, limit),
      position: (event) => event.cursor,
      isAfter,
      wake: (playerId) => bus.wakes(playerId),
      pollMs: config.get('streams', { infer: true }).feedPollMs,
      batch: READ_PAGE,
      page: CATCH_UP_PAGE,
      notice: {
        // The notice's transaction: read until past every event of it (ids start at 1).
        mark: ([tx]) => (typeof tx === 'bigint' ? { tx, id: 0n } : null),
        retryMs: HORIZON_RETRY_MS,
      },
      failed: (playerId, error) =>
        logger.warn(`reading the feed of player ${playerId} failed: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  onModuleDestroy(): void {
    this.closeAll();
  }
}
