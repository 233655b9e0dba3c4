import { Injectable } from '@nestjs/common';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { queryRows } from '../common/sql-query.js';
import { addGameStatsSql, backfillPlayerStats } from './player-stats.sql.js';

/**
 * Keeps the per-player aggregates of profiles and statistics (player_stats): at a game's end the
 * outbox hands `gameFinished` to this consumer at least once, on any instance; the statement that
 * adds a game's figures first claims it (stats_at from null to now), so a repeat, a retry after a
 * crash or a second instance adds nothing more (player-stats.sql.ts).
 */
@Injectable()
export class PlayerStatsService {
  constructor(private readonly prisma: PrismaService) {}

  @OutboxConsumer('gameFinished', 'stats')
  async gamesFinished(items: OutboxItem<'gameFinished'>[]): Promise<void> {
    await this.addGames(items.map((i) => i.gameId));
  }

  /** Adds each of the games that is finished and not added yet, one statement each. */
  async addGames(gameIds: readonly string[]): Promise<void> {
    for (const gameId of [...new Set(gameIds)]) await this.addGame(gameId);
  }

  /** Adds one game's figures if it is finished, played here and not added yet; true if this call added them. */
  async addGame(gameId: string): Promise<boolean> {
    const [r] = await queryRows(this.prisma, addGameStatsSql(gameId));
    return r.games > 0;
  }

  /** Adds every finished game not added yet (games written straight into the tables, a database from before the aggregates). */
  async backfill(batch?: number): Promise<{ games: number; rows: number }> {
    return backfillPlayerStats((sql) => this.prisma.$queryRaw(sql), { batch });
  }
}
