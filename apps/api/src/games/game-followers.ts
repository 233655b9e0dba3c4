import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LiveTails } from '../common/live-tail.js';
import type { AppConfig } from '../config/app-config.js';
import { GameLogBus } from './game-log-bus.js';
import { GameLogReader } from './game-log.js';
import type { LogRow } from './log-row.js';

export type { LogRow } from './log-row.js';

/** The most entries one shared read of new entries asks for. */
const READ_PAGE = 200;
/** The most entries a follower's own read of its backlog asks for (the next page when it is taken). */
const CATCH_UP_PAGE = 100;
const logger = new Logger('GameFollowers');

/**
 * Followers of a game (the `gameLog` subscription, its SSE stream) share one live tail per game
 * (LiveTails): after each notice of the GameLogBus it reads the entries after the last one it
 * handed out, once, and hands them to every follower, which redacts them for its own seat. N
 * followers of a game cost one read per new entry, not N; the tail listens on the bus once per
 * game and stops with its last follower.
 *
 * Moves made through another instance reach this one's bus over Redis (REDIS_URL). A notice can be
 * lost (Redis away), so the tail also looks every few seconds (a minute with a single instance, as
 * a safety net), and reads at once when the bus reconnects.
 */
@Injectable()
export class GameFollowers extends LiveTails<number, LogRow> implements OnModuleDestroy {
  constructor(log: GameLogReader, bus: GameLogBus, config: ConfigService<AppConfig, true>) {
    super({
      name: 'game',
      read: (gameId, after, limit) => log.rows(gameId, after, limit),
      position: (row) => row.seq,
      isAfter: (a, b) => a > b,
      wake: (gameId) => bus.wakes(gameId),
      pollMs: config.get('redisUrl', { infer: true }) === null ? 60_000 : 5_000,
      batch: READ_PAGE,
      page: CATCH_UP_PAGE,
      failed: (gameId, error) =>
        logger.warn(`reading new entries of game ${gameId} failed: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  onModuleDestroy(): void {
    this.closeAll();
  }
}
