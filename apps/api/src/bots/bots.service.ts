import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { currentPlayer, dealIndex, timeOutMove, view, type Move } from '@mizerka/rules';
import { BOT_LEVELS, BOTS, botMove, type Bot, type BotLevel } from '@mizerka/bots';
import { badInput, DomainError } from '../common/errors.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { GameStore } from '../games/index.js';
import { botThinkSeconds } from '../metrics/metrics.js';
import { LobbiesService } from '../lobbies/lobbies.service.js';
import type { Lobby } from '../lobbies/models/lobby.model.js';
import { botInputOf, botSeed } from '../moves/bot-move.js';
import type { SeatlessMove } from '../moves/move-input.js';
import { MovesService } from '../moves/moves.service.js';
import { Outbox } from '../outbox/outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { pickServerBot } from './bot-players.js';

export const BOT_TASK = 'game.botMove';
/** The bot levels the service plays with; a test swaps in its own (a level that throws). */
export const BOT_TABLE = Symbol('BOT_TABLE');
/** The strong bot's think time per move: a game of one person and bots runs at the person's pace. */
export const STRONG_BUDGET_MS = 800;

/** A bot job's payload: the turn it was set for. */
interface BotJob {
  gameId: string;
  version: number;
}

/**
 * Server bots: players of kind bot with a level, seated by a lobby's host, that move through the
 * same door as people (MovesService, with the version guard). A write that makes it a bot's turn
 * queues `turnBegan` in its own statement; this consumer then keeps one job per game in the job
 * queue, keyed by the game, for the turn as it is now (read under a per-game lock, so a late or
 * repeated batch never sets an older turn over a newer one). The job reads the game again and
 * moves only if that turn is still on: it survives a restart, runs on one instance, and a second
 * run of it finds the version moved and does nothing. The seed comes from the game and the turn,
 * so a run after a crash picks the same move.
 */
@Injectable()
export class BotsService implements OnModuleInit {
  private readonly log = new Logger('Bots');
  private readonly levels: Readonly<Record<BotLevel, Bot>>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: Outbox,
    private readonly store: GameStore,
    private readonly moves: MovesService,
    private readonly lobbies: LobbiesService,
    @Optional() @Inject(BOT_TABLE) levels?: Readonly<Record<BotLevel, Bot>>,
  ) {
    this.levels = levels ?? BOTS;
  }

  onModuleInit(): void {
    this.outbox.consume('turnBegan', 'bots', (items) => this.schedule(items.map((i) => ({ gameId: i.gameId, playerId: i.entry.playerId }))));
    this.outbox.task(BOT_TASK, (payload) => this.play(botJobOf(payload)));
  }

  /** The host seats a server bot of `level` (at `seat`, else the lowest free one); a full table starts its game. */
  addBot(callerId: string, lobbyId: string, level: string, seat?: number | null): Promise<Lobby> {
    if (!(BOT_LEVELS as readonly string[]).includes(level)) {
      throw badInput(`level must be one of ${BOT_LEVELS.join(', ')}`, { field: 'level' });
    }
    return this.lobbies.seatBot(callerId, lobbyId, seat, (tx, seated) => pickServerBot(tx, level as BotLevel, seated));
  }

  /**
   * Sets each game's bot job to its current turn when a server bot holds it. Turns of people and
   * of bot accounts are skipped at once; a stale job left for a game is harmless (it finds its
   * turn gone).
   */
  async schedule(turns: readonly { gameId: string; playerId: string }[]): Promise<void> {
    if (turns.length === 0) return;
    const bots = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM players WHERE id = ANY(${[...new Set(turns.map((t) => t.playerId))]}::uuid[]) AND bot_level IS NOT NULL`;
    const botIds = new Set(bots.map((b) => b.id));
    const ids = [...new Set(turns.filter((t) => botIds.has(t.playerId)).map((t) => t.gameId))].sort();
    if (ids.length === 0) return;
    const q = JOB_QUEUE_SCHEMA;
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended('bot:' || id, 0)) FROM unnest($1::uuid[]) AS id`, ids);
      await tx.$executeRawUnsafe(
        `SELECT ${q}.add_job($2::text, json_build_object('gameId', g.id, 'version', g.version), job_key => 'bot:' || g.id::text)
           FROM games g
           JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
           JOIN players p ON p.id = s.player_id
          WHERE g.id = ANY($1::uuid[]) AND g.status = 'active' AND p.bot_level IS NOT NULL`,
        ids,
        BOT_TASK,
      );
    });
  }

  /**
   * A bot job: if the turn it was set for is still on and a server bot holds it, the bot moves.
   * A level that throws or answers an illegal move falls back (basic, then random); a move the
   * rules still refuse gives way to the rules' plain time-out move, so a bot never stalls a game.
   */
  async play({ gameId, version }: BotJob): Promise<void> {
    const game = await this.store.read(gameId, null, null);
    if (!game || game.status !== 'active' || game.version !== version) return;
    const seat = currentPlayer(game.state);
    if (seat === null) return;
    const playerId = game.seats[seat];
    const player = await this.prisma.player.findUnique({ where: { id: playerId }, select: { botLevel: true } });
    const level = player?.botLevel as BotLevel | null | undefined;
    if (!level || !(level in this.levels)) return;

    const events = await this.store.dealEvents(gameId, dealIndex(game.state), version);
    const input = botInputOf(game.state, seat, events);
    let move: Move | null;
    try {
      const thinking = performance.now();
      const choice = botMove(level, input, { seed: botSeed(gameId, version), budgetMs: STRONG_BUDGET_MS }, this.levels);
      botThinkSeconds.observe({ level: choice.level }, (performance.now() - thinking) / 1000);
      if (choice.fellBack) this.log.warn(`game ${gameId} at version ${version}: the ${choice.level} bot moved for the ${level} one (${choice.fellBack})`);
      move = choice.move;
    } catch (error) {
      this.log.error(`every bot level failed in game ${gameId} at version ${version}: ${String(error)}`);
      move = null;
    }
    for (const candidate of [move, timeOutMove(view(game.state, seat))]) {
      if (!candidate) continue;
      const { seat: _seat, ...seatless } = candidate;
      try {
        await this.moves.submit(gameId, { kind: 'bot', playerId }, { type: 'move', move: seatless as SeatlessMove }, { expectedVersion: version });
        return;
      } catch (error) {
        // Someone else acted on this turn first (the clock): nothing left to do.
        if (error instanceof DomainError && error.code === 'CONFLICT') return;
        if (!(error instanceof DomainError) || error.code !== 'ILLEGAL_MOVE') throw error;
        this.log.error(`the bot's move in game ${gameId} at version ${version} was refused (${error.message})`);
      }
    }
  }
}

function botJobOf(payload: unknown): BotJob {
  const { gameId, version } = (payload ?? {}) as Partial<BotJob>;
  if (typeof gameId !== 'string' || typeof version !== 'number') throw new Error(`A bot job without a game and version: ${JSON.stringify(payload)}`);
  return { gameId, version };
}
