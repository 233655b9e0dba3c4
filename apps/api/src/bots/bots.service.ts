import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { currentPlayer, timeOutMove, view, type Move } from '@mizerka/rules';
import { BOT_LEVELS, type BotLevel } from '@mizerka/bots';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { badInput, DomainError } from '../common/errors.js';
import { GameStore } from '../games/index.js';
import { botThinkSeconds } from '../metrics/metrics.js';
import { LobbiesService } from '../lobbies/lobbies.service.js';
import type { Lobby } from '../lobbies/models/lobby.model.js';
import { botTurnOf, moveForSeat } from '../moves/bot-move.js';
import { MovesService } from '../moves/moves.service.js';
import type { OutboxEntry } from '../outbox/outbox-entries.js';
import { JobQueue } from '../outbox/job-queue.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import { Outbox, type LocalCommit } from '../outbox/outbox.js';
import { queryRows } from '../common/sql-query.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { pickServerBot } from './bot-players.js';
import { botLevelsSql, botTurnsSql } from './bots.sql.js';
import { BOT_THINKER, ThinkersBusy, type BotThinker } from './bot-thinkers.js';

export const BOT_TASK = 'game.botMove';
/** The strong bot's think time per move: a game of one person and bots runs at the person's pace. */
export const STRONG_BUDGET_MS = 800;
/** Bot turns under way in the in-process head start, at most; past it the durable job plays them. */
const HEAD_START_QUEUE = 256;
/** Players whose kind is remembered (it never changes); the map is cleared when it grows past this. */
const KNOWN_PLAYERS = 50_000;

type TurnBegan = Extract<OutboxEntry, { type: 'turnBegan' }>;

/** A bot job's payload: the turn it was set for. */
interface BotJob {
  gameId: string;
  version: number;
}

/**
 * Server bots: players of kind bot with a level, seated by a lobby's host, that move through the
 * same door as people (MovesService, with the version guard). A write that makes it a bot's turn
 * queues `turnBegan` in its own statement; this consumer then keeps one job per game in the job
 * queue, keyed by the game (JobQueue.keepPerGame), for the turn as it is now (read under a
 * per-game lock, so a late or repeated batch never sets an older turn over a newer one). The job reads the game again and
 * moves only if that turn is still on: it survives a restart, runs on one instance, and a second
 * run of it finds the version moved and does nothing. The seed comes from the game and the turn,
 * so a run after a crash picks the same move.
 */
@Injectable()
export class BotsService implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('Bots');
  /** Player id → server bot level as stored, perhaps one this server has not (null: a person or a bot account). */
  private readonly knownPlayers = new Map<string, string | null>();
  /** Bot turns started in process and not over: they think in the pool of threads, fairly, and commit here. */
  private readonly headStarts = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: Outbox,
    private readonly jobs: JobQueue,
    private readonly store: GameStore,
    private readonly moves: MovesService,
    private readonly lobbies: LobbiesService,
    private readonly config: ConfigService<AppConfig, true>,
    @Inject(BOT_THINKER) private readonly thinker: BotThinker,
  ) {}

  onModuleInit(): void {
    this.jobs.task(BOT_TASK, (payload) => this.play(botJobOf(payload)));
    this.outbox.onCommit((commit) => void this.headStart(commit));
  }

  @OutboxConsumer('turnBegan', 'bots')
  async turnsBegan(items: OutboxItem<'turnBegan'>[]): Promise<void> {
    await this.schedule(items.map((i) => ({ gameId: i.gameId, playerId: i.entry.playerId })));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // Turns still waiting for a thread are refused at once (their jobs play them); those thinking end.
    const closing = this.thinker.close();
    await Promise.allSettled([...this.headStarts]);
    await closing;
  }

  /**
   * A write this instance committed: when it made it a server bot's turn, play it now. Turns of
   * people are passed over without a query once their player is known; a game's first turn (no
   * entries at hand) is left to `play`, which reads the game.
   */
  private async headStart({ gameId, seq, entries }: LocalCommit): Promise<void> {
    if (this.stopping) return;
    if (entries) {
      const turn = entries.find((e): e is TurnBegan => e.type === 'turnBegan');
      if (!turn) return;
      try {
        if ((await this.botLevelOf(turn.playerId)) === null) return;
      } catch (error) {
        this.log.warn(`game ${gameId}: ${String(error)}`); // the job plays the turn
        return;
      }
    }
    if (this.headStarts.size >= HEAD_START_QUEUE) return;
    const turn = this.play({ gameId, version: seq })
      .catch((error: unknown) => {
        const said = `game ${gameId} at version ${seq}: the bot's head start failed, its job will play (${String(error)})`;
        if (error instanceof ThinkersBusy) this.log.debug(said);
        else this.log.warn(said);
      })
      .finally(() => this.headStarts.delete(turn));
    this.headStarts.add(turn);
  }

  /** Whose share of the bots' thinking a game's turns use: its first person's (a game of bots only: its own). */
  private async ownerOf(gameId: string, seats: readonly string[]): Promise<string> {
    const levels = await this.botLevelsOf(seats);
    return seats.find((id) => levels.get(id) === null) ?? gameId;
  }

  /** The server bot level of a player, or null; a player's kind never changes, so it is remembered. */
  private async botLevelOf(playerId: string): Promise<string | null> {
    return (await this.botLevelsOf([playerId])).get(playerId) ?? null;
  }

  /** botLevelOf for many players: one query for those not known yet, none when all are. */
  private async botLevelsOf(playerIds: readonly string[]): Promise<Map<string, string | null>> {
    const levels = new Map<string, string | null>();
    const unknown: string[] = [];
    for (const id of new Set(playerIds)) {
      const known = this.knownPlayers.get(id);
      if (known === undefined) unknown.push(id);
      else levels.set(id, known);
    }
    if (unknown.length === 0) return levels;
    const rows = await queryRows(this.prisma, botLevelsSql(unknown));
    if (this.knownPlayers.size + rows.length > KNOWN_PLAYERS) this.knownPlayers.clear();
    for (const row of rows) {
      this.knownPlayers.set(row.id, row.bot_level);
      levels.set(row.id, row.bot_level);
    }
    return levels;
  }

  /** The host seats a server bot of `level` (at `seat`, else the lowest free one); a full table starts its game. */
  addBot(callerId: string, lobbyId: string, level: string, seat?: number | null): Promise<Lobby> {
    if (!isBotLevel(level)) {
      throw badInput(`level must be one of ${BOT_LEVELS.join(', ')}`, { field: 'level' });
    }
    return this.lobbies.seatBot(callerId, lobbyId, seat, (tx, seated) => pickServerBot(tx, level, seated));
  }

  /**
   * Sets each game's bot job to its current turn when a server bot holds it. Turns of people and
   * of bot accounts are skipped at once; a stale job left for a game is harmless (it finds its
   * turn gone).
   */
  async schedule(turns: readonly { gameId: string; playerId: string }[]): Promise<void> {
    if (turns.length === 0) return;
    const levels = await this.botLevelsOf(turns.map((t) => t.playerId));
    const ids = [...new Set(turns.filter((t) => levels.get(t.playerId)).map((t) => t.gameId))].sort();
    const graceMs = this.config.get('jobs', { infer: true }).botGraceMs;
    await this.jobs.keepPerGame('bot', ids, async (tx, locked) => {
      const turns = await queryRows(tx, botTurnsSql(locked));
      const runAt = new Date(Date.now() + graceMs);
      return { set: turns.map((g) => ({ task: BOT_TASK, key: `bot:${g.id}`, payload: { gameId: g.id, version: g.version }, runAt })), remove: [] };
    });
  }

  /**
   * A bot job: if the turn it was set for is still on and a server bot holds it, the bot moves.
   * A level that throws or answers an illegal move falls back (basic, then random); a move the
   * rules still refuse gives way to the rules' plain time-out move, so a bot never stalls a game.
   */
  async play({ gameId, version }: BotJob): Promise<void> {
    const game = await this.moves.gameAt(gameId, version);
    if (!game || game.status !== 'active') return;
    const seat = currentPlayer(game.state);
    if (seat === null) return;
    const playerId = game.seats[seat];
    const level = await this.botLevelOf(playerId);
    if (!level || !isBotLevel(level)) return;

    const { input, seed } = await botTurnOf(this.store, gameId, game.state, version, seat);
    const owner = await this.ownerOf(gameId, game.seats);
    let move: Move | null;
    try {
      // Off the event loop: a worker thread gets the seat's view, never the state, and answers a move.
      const choice = await this.thinker.think(owner, { level, input, seed, budgetMs: STRONG_BUDGET_MS });
      botThinkSeconds.observe({ level: choice.level }, choice.thinkMs / 1000);
      if (choice.fellBack) this.log.warn(`game ${gameId} at version ${version}: the ${choice.level} bot moved for the ${level} one (${choice.fellBack})`);
      move = choice.move;
    } catch (error) {
      if (error instanceof ThinkersBusy) throw error; // not the bot's failure: its job plays the turn later
      this.log.error(`every bot level failed in game ${gameId} at version ${version}: ${String(error)}`);
      move = null;
    }
    try {
      await moveForSeat(
        [move, timeOutMove(view(game.state, seat))],
        (seatless) => this.moves.submit(gameId, { kind: 'bot', playerId }, { type: 'move', move: seatless }, { expectedVersion: version }),
        (error) => this.log.error(`the bot's move in game ${gameId} at version ${version} was refused (${error.message})`),
      );
    } catch (error) {
      // Someone else acted on this turn first (the clock, a resignation): a lost race, not a fault.
      if (!(error instanceof DomainError) || error.code !== 'CONFLICT') throw error;
      this.log.debug(`game ${gameId}: the bot's turn at version ${version} was taken first (${error.message})`);
    }
  }
}

function isBotLevel(level: string): level is BotLevel {
  return (BOT_LEVELS as readonly string[]).includes(level);
}

function botJobOf(payload: unknown): BotJob {
  const { gameId, version } = (payload ?? {}) as Partial<BotJob>;
  if (typeof gameId !== 'string' || typeof version !== 'number') throw new Error(`A bot job without a game and version: ${JSON.stringify(payload)}`);
  return { gameId, version };
}
