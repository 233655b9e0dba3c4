import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { currentPlayer, dealIndex, timeOutMove, view, type Move } from '@mizerka/rules';
import { botMove } from '@mizerka/bots';
import type { AppConfig } from '../config/app-config.js';
import { DomainError } from '../common/errors.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { deadlineNearFeed, GameStore, type StoredGame } from '../games/index.js';
import { botInputOf, botSeed } from '../moves/bot-move.js';
import { MovesService } from '../moves/moves.service.js';
import type { SeatlessMove } from '../moves/move-input.js';
import { Outbox } from '../outbox/outbox.js';
import { insertFeedSql } from '../player-events/feed.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

export const CLOCK_TASK = 'game.clock';
export const WARNING_TASK = 'game.clockWarning';

/**
 * Move clocks. A move's own statement stores the next turn's deadline in the game row; the
 * outbox's `turnBegan` then reaches this consumer, which keeps one durable job per game in the
 * job queue, keyed by the game, due at that deadline (and one for the "deadline near" warning).
 * The queue fires it once across all instances, and at once on start-up when it fell due while
 * no server ran. Scheduling reads the deadline from the game row under a per-game lock, so a late
 * or repeated consumer never sets an older deadline over a newer one; and a job that fires reads
 * the game again and acts only on a turn whose deadline has passed, through the same move path as
 * a person (a person's move that commits first wins the version race; the clock's then does
 * nothing).
 */
@Injectable()
export class ClocksService implements OnModuleInit {
  private readonly log = new Logger('Clocks');
  private readonly warningPercent: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: Outbox,
    private readonly store: GameStore,
    private readonly moves: MovesService,
    private readonly feed: PlayerEventsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.warningPercent = config.get('clocks', { infer: true }).warningPercent;
  }

  onModuleInit(): void {
    // An untimed game's turns have no deadline: nothing to schedule, nothing to remove.
    this.outbox.consume('turnBegan', 'clocks', (items) => this.schedule(items.filter((i) => i.entry.deadline !== null).map((i) => i.gameId)));
    this.outbox.consume('gameFinished', 'clocks', (items) => this.schedule(items.map((i) => i.gameId)));
    this.outbox.task(CLOCK_TASK, (payload) => this.timeUp(gameIdOf(payload)));
    this.outbox.task(WARNING_TASK, (payload) => this.warn(payload as { gameId: string; version: number }));
  }

  /**
   * Sets each game's clock jobs to its current deadline, or removes them (game over, untimed, no
   * one to move). The per-game advisory locks are taken before the statement that reads the games,
   * so of two schedulers of one game the later one reads the newer deadline and writes last.
   */
  async schedule(gameIds: readonly string[]): Promise<void> {
    const ids = [...new Set(gameIds)].sort();
    if (ids.length === 0) return;
    const q = JOB_QUEUE_SCHEMA;
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended('clock:' || id, 0)) FROM unnest($1::uuid[]) AS id`, ids);
      const games = await tx.$queryRawUnsafe<{ id: string; version: number; active: boolean; deadline: Date | null; started: Date | null }[]>(
        `SELECT id::text, version, status = 'active' AS active, turn_deadline AS deadline, turn_started_at AS started
           FROM games WHERE id = ANY($1::uuid[])`,
        ids,
      );
      const jobs: { identifier: string; payload: object; run_at: string; job_key: string }[] = [];
      const stale: string[] = [];
      const now = Date.now();
      for (const g of games) {
        const payload = { gameId: g.id, version: g.version };
        if (g.active && g.deadline) jobs.push({ identifier: CLOCK_TASK, payload, run_at: g.deadline.toISOString(), job_key: `clock:${g.id}` });
        else stale.push(`clock:${g.id}`);
        const warnAt = g.active && g.deadline && g.started && this.warningPercent > 0
          ? g.deadline.getTime() - ((g.deadline.getTime() - g.started.getTime()) * this.warningPercent) / 100
          : null;
        if (warnAt !== null && warnAt > now) {
          jobs.push({ identifier: WARNING_TASK, payload, run_at: new Date(warnAt).toISOString(), job_key: `warn:${g.id}` });
        } else {
          stale.push(`warn:${g.id}`);
        }
      }
      if (jobs.length > 0) {
        await tx.$executeRawUnsafe(
          `SELECT count(*) FROM ${q}.add_jobs(ARRAY(
             SELECT ROW(s.identifier, s.payload, NULL, s.run_at, NULL, s.job_key, NULL, NULL)::${q}.job_spec
               FROM json_to_recordset($1::json) AS s(identifier text, payload json, run_at timestamptz, job_key text)))`,
          JSON.stringify(jobs),
        );
      }
      // A finished or untimed game, or a turn too short for a warning: no job left behind.
      if (stale.length > 0) {
        await tx.$executeRawUnsafe(
          `SELECT ${q}.remove_job(k) FROM unnest($1::text[]) AS k WHERE EXISTS (SELECT 1 FROM ${q}._private_jobs j WHERE j.key = k)`,
          stale,
        );
      }
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
      if (move) {
        const { seat: _seat, ...seatless } = move;
        try {
          await this.moves.moveFor(gameId, seat, seatless as SeatlessMove, game.version);
          return;
        } catch (error) {
          // A time-out move the rules refuse must not stall the game: the seat forfeits instead.
          if (!(error instanceof DomainError) || error.code !== 'ILLEGAL_MOVE') throw error;
          this.log.error(`the time-out move for game ${gameId}, seat ${seat} was refused (${error.message}); the seat forfeits`);
        }
      }
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
      const events = await this.store.dealEvents(gameId, dealIndex(game.state), game.version);
      return botMove('basic', botInputOf(game.state, seat, events), { seed: botSeed(gameId, game.version) }).move;
    } catch (error) {
      this.log.warn(`the basic bot failed on the time-out of game ${gameId}, seat ${seat}: ${String(error)}`);
      return timeOutMove(view(game.state, seat));
    }
  }

  /** The warning job: the player to move hears their deadline is near, if that turn is still on. */
  async warn({ gameId, version }: { gameId: string; version: number }): Promise<void> {
    const [turn] = await this.prisma.$queryRaw<{ seat: number; player_id: string; deadline: Date }[]>`
      SELECT g.to_move AS seat, s.player_id::text, g.turn_deadline AS deadline
        FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
       WHERE g.id = ${gameId}::uuid AND g.version = ${version}::int AND g.status = 'active' AND g.turn_deadline > now()`;
    if (!turn) return;
    // Written only while that turn is still on: a move between the read and this write wins.
    const rows = await this.prisma.$queryRaw<{ player_id: string }[]>`${insertFeedSql(
      [deadlineNearFeed(gameId, version, turn.seat, turn.player_id, turn.deadline)],
      Prisma.sql`(SELECT 1 FROM games WHERE id = ${gameId}::uuid AND version = ${version}::int AND status = 'active') AS still`,
    )} RETURNING player_id::text`;
    this.feed.published(rows.map((r) => ({ playerId: r.player_id })));
  }
}

function gameIdOf(payload: unknown): string {
  const gameId = (payload as { gameId?: unknown } | null)?.gameId;
  if (typeof gameId !== 'string') throw new Error(`A clock job without a game id: ${JSON.stringify(payload)}`);
  return gameId;
}
