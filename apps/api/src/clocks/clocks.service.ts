import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { currentPlayer, timeOutMove, view, type Move } from '@mizerka/rules';
import { botMove } from '@mizerka/bots';
import type { AppConfig } from '../config/app-config.js';
import { DomainError } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import { deadlineNearFeed, GameStore, type StoredGame } from '../games/index.js';
import { botTurnOf, moveForSeat } from '../moves/bot-move.js';
import { MovesService } from '../moves/moves.service.js';
import { JobQueue, type GameJob } from '../outbox/job-queue.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { clockTurnsSql, insertWarningSql, warnedTurnSql } from './clocks.sql.js';

export const CLOCK_TASK = 'game.clock';
export const WARNING_TASK = 'game.clockWarning';

/**
 * Move clocks. A move's own statement stores the next turn's deadline in the game row; the
 * outbox's `turnBegan` then reaches this consumer, which keeps one durable job per game in the
 * job queue, keyed by the game (JobQueue.keepPerGame), due at that deadline (and one for the
 * "deadline near" warning). The queue fires it once across all instances, and at once on
 * start-up when it fell due while no server ran. Scheduling reads the deadline from the game row
 * under a per-game lock, so a late or repeated consumer never sets an older deadline over a newer
 * one; and a job that fires reads the game again and acts only on a turn whose deadline has
 * passed, through the same move path as a person (a person's move that commits first wins the
 * version race; the clock's then does nothing).
 */
@Injectable()
export class ClocksService implements OnModuleInit {
  private readonly log = new Logger('Clocks');
  private readonly warningPercent: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: JobQueue,
    private readonly store: GameStore,
    private readonly moves: MovesService,
    private readonly feed: PlayerEventsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.warningPercent = config.get('clocks', { infer: true }).warningPercent;
  }

  onModuleInit(): void {
    this.jobs.task(CLOCK_TASK, (payload) => this.timeUp(gameIdOf(payload)));
    this.jobs.task(WARNING_TASK, (payload) => this.warn(payload as { gameId: string; version: number }));
  }

  @OutboxConsumer('turnBegan', 'clocks')
  async turnsBegan(items: OutboxItem<'turnBegan'>[]): Promise<void> {
    // An untimed game's turns have no deadline: nothing to schedule, nothing to remove.
    await this.schedule(items.filter((i) => i.entry.deadline !== null).map((i) => i.gameId));
  }

  @OutboxConsumer('gameFinished', 'clocks')
  async gamesFinished(items: OutboxItem<'gameFinished'>[]): Promise<void> {
    await this.schedule(items.map((i) => i.gameId));
  }

  /**
   * Sets each game's clock jobs to its current deadline, or removes them (game over, untimed, no
   * one to move): one job per game keyed `clock:<game>`, and one keyed `warn:<game>`, read and set
   * under the game's clock lock (JobQueue.keepPerGame).
   */
  async schedule(gameIds: readonly string[]): Promise<void> {
    await this.jobs.keepPerGame('clock', gameIds, async (tx, ids) => {
      const games = await queryRows(tx, clockTurnsSql(ids));
      const set: GameJob[] = [];
      const remove: string[] = [];
      const now = Date.now();
      for (const g of games) {
        const payload = { gameId: g.id, version: g.version };
        if (g.active && g.deadline) set.push({ task: CLOCK_TASK, key: `clock:${g.id}`, payload, runAt: g.deadline });
        else remove.push(`clock:${g.id}`);
        const warnAt = g.active && g.deadline && g.started && this.warningPercent > 0
          ? g.deadline.getTime() - ((g.deadline.getTime() - g.started.getTime()) * this.warningPercent) / 100
          : null;
        // A finished or untimed game, or a turn too short for a warning: no job left behind.
        if (warnAt !== null && warnAt > now) set.push({ task: WARNING_TASK, key: `warn:${g.id}`, payload, runAt: new Date(warnAt) });
        else remove.push(`warn:${g.id}`);
      }
      return { set, remove };
    });
  }

  /**
   * A clock job fell due: if the turn it was set for is still on and its deadline has passed, the
   * server moves for the seat (autoMove) or the seat forfeits (forfeit, or too many time-outs in a
   * row). A deadline still ahead (the job was set for an older one) is scheduled again.
   */
  async timeUp(gameId: string): Promise<void> {
    const game = await this.store.read(gameId, null, null);
    const deadline = game?.clock?.deadline;
    if (!game || game.status !== 'active' || !game.clock || !deadline) return;
    if (deadline.getTime() > Date.now()) return this.schedule([gameId]);
    const seat = currentPlayer(game.state);
    if (seat === null) return;
    const { control, timeouts } = game.clock;
    const inARow = (timeouts[seat] ?? 0) + 1;
    try {
      const move = control.onTimeout === 'autoMove' && inARow < control.maxTimeouts ? await this.autoMove(gameId, game, seat) : null;
      // A time-out move the rules refuse must not stall the game: the seat forfeits instead.
      const moved = await moveForSeat(
        [move],
        (seatless) => this.moves.moveFor(gameId, seat, seatless, game.version),
        (error) => this.log.error(`the time-out move for game ${gameId}, seat ${seat} was refused (${error.message}); the seat forfeits`),
      );
      if (moved) return;
      await this.moves.forfeit(gameId, seat, game.version);
    } catch (error) {
      // Someone moved first: that move's own turn has its own clock.
      if (error instanceof DomainError && error.code === 'CONFLICT') return;
      this.log.warn(`time-out of game ${gameId}, seat ${seat}: ${String(error)}`);
      throw error;
    }
  }

  /**
   * The absent seat's move under autoMove: the basic bot's, from the seat's own view and what it
   * saw of the deal, seeded by the turn so a job run twice picks the same; the rules' plain
   * time-out move if the bot fails.
   */
  private async autoMove(gameId: string, game: StoredGame, seat: number): Promise<Move | null> {
    try {
      const { input, seed } = await botTurnOf(this.store, gameId, game.state, game.version, seat);
      return botMove('basic', input, { seed }).move;
    } catch (error) {
      this.log.warn(`the basic bot failed on the time-out of game ${gameId}, seat ${seat}: ${String(error)}`);
      return timeOutMove(view(game.state, seat));
    }
  }

  /** The warning job: the player to move hears their deadline is near, if that turn is still on. */
  async warn({ gameId, version }: { gameId: string; version: number }): Promise<void> {
    const [turn] = await queryRows(this.prisma, warnedTurnSql(gameId, version));
    if (!turn) return;
    // Written only while that turn is still on: a move between the read and this write wins.
    const rows = await queryRows(this.prisma, insertWarningSql(deadlineNearFeed(gameId, version, turn.seat, turn.player_id, turn.deadline), gameId, version));
    this.feed.published(rows.map((r) => ({ playerId: r.player_id })));
  }
}

function gameIdOf(payload: unknown): string {
  const gameId = (payload as { gameId?: unknown } | null)?.gameId;
  if (typeof gameId !== 'string') throw new Error(`A clock job without a game id: ${JSON.stringify(payload)}`);
  return gameId;
}
