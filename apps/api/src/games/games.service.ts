import { Injectable } from '@nestjs/common';
import { randomInt, randomUUID } from 'node:crypto';
import { currentPlayer, makeRules, newGame, view, type GameRecord } from '@mizerka/rules';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { badInput, forbidden, notFound } from '../common/errors.js';
import { decodeCursor, PAGE_MAX, pageOf } from '../common/paging.js';
import { ruleErrorToDomain } from '../common/rule-errors.js';
import { queryRows } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { DEAL_FACTS } from './deal-facts.js';
import { GameFollowers } from './game-followers.js';
import { GameLogReader } from './game-log.js';
import { awayUntilOf, followGameLog } from './game-log-follower.js';
import { projectCommit, type GameStartCommit } from './game-commit.js';
import { gameCommitSql } from './game-commit.sql.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { startClock, storedTimeControl, type TimeControl } from './time-control.js';
import type { GameClockModel, TimeoutPolicyEnum } from './models/time-control.model.js';
import { gamePlayers, importedSeats, SEAT_PLAYER } from './game-players.js';
import { botMarksOf, buildRecord, seatNamesOf } from './record.js';
import { refuseSpectatorOfHeldBoard } from './board-reveal.js';
import { boardFirstDealer, bytesHex, dealNext, dealSeedHash, isBoardSeed } from './dealing.js';
import { eventViews } from './event-views.js';
import type { GameStatusValue } from './models/enums.js';
import type { GameEventLog, GameLogEntry } from './models/event-view.model.js';
import type { DealInfo, GamePage, GameView, RuleOptionsModel } from './models/game.model.js';
import type { SeatView } from './models/seat-view.model.js';

export interface StartGameInput {
  lobbyId: string | null;
  preset: string;
  options: Record<string, unknown>;
  seats: { seat: number; playerId: string }[];
  /** The move clock; none: untimed. */
  timeControl?: TimeControl | null;
  /** Whether the game changes its players' ratings at its end; default false. */
  rated?: boolean;
  /**
   * A duplicate board (a tournament's): the game's first dealer and every deal's seed come from the
   * board's seed (dealing.ts boardFirstDealer, boardDealSeed), so every table on the board holds the
   * same cards by seat; and its seeds and decks stay withheld, even once it is over, until
   * `releaseBoard(id)`. `id` is a UUID of the caller's; `seed` as newBoard() makes it.
   */
  board?: { id: string; seed: string } | null;
}

/** Games one releaseGames call releases at most (a board's tables). */
const RELEASE_MAX = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SEATS = {
  orderBy: { seat: 'asc' },
  select: { seat: true, playerId: true, place: true, player: { select: SEAT_PLAYER } },
} as const satisfies Prisma.Game$seatsArgs;


@Injectable()
export class GamesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly followers: GameFollowers,
    private readonly log: GameLogReader,
  ) {}

  /**
   * Called by the lobbies module inside its own transaction once a lobby's seats are full: the
   * game's start commit (its seats, the first deal dealt as log entry 1, the first turn's deadline,
   * the outbox job and the players' feed events), written in one statement. The caller publishes
   * `feed` after its commit.
   */
  async startGame(tx: Prisma.TransactionClient, input: StartGameInput): Promise<{ gameId: string; feed: NewFeedEvent[] }> {
    const rules = makeRules(input.preset, input.options);
    if (!rules.ok) throw ruleErrorToDomain(rules.error);
    const n = rules.value.players;
    const seats = [...input.seats].sort((a, b) => a.seat - b.seat);
    if (seats.length !== n || seats.some((s, i) => s.seat !== i)) {
      throw badInput(`A ${rules.value.preset} game needs exactly seats 0..${n - 1}, each taken once`);
    }
    if (new Set(seats.map((s) => s.playerId)).size !== n) throw badInput('A player can hold only one seat of a game');

    const board = input.board ?? null;
    if (board && !isBoardSeed(board.seed)) throw badInput('A board seed is 32 lowercase hex digits', { field: 'board.seed' });
    if (board && !UUID.test(board.id)) throw badInput('A board id is a UUID', { field: 'board.id' });
    // On a board, its first dealer: with the same seeds, deal i then has the same dealer and hands by seat at every table.
    const firstDealer = board ? boardFirstDealer(board.seed, n) : randomInt(n);
    const first = dealNext(newGame(rules.value, firstDealer), board?.seed ?? null);
    const now = new Date();
    const commit: GameStartCommit = {
      type: 'start',
      gameId: randomUUID(),
      lobbyId: input.lobbyId,
      preset: rules.value.preset,
      options: rules.value.options as Record<string, unknown>,
      firstDealer,
      seats: seats.map((s) => s.playerId),
      rated: input.rated ?? false,
      first,
      board,
      clock: input.timeControl ? startClock(input.timeControl, n, currentPlayer(first.state), now) : null,
      now,
    };
    const written = projectCommit(commit);
    await queryRows(tx, gameCommitSql(written));
    return { gameId: commit.gameId, feed: [...written.feed] };
  }

  /**
   * Releases duplicate board `boardId`: its games' seeds, decks and records are shown from now on
   * (to whoever may see a finished game's; a game still in play keeps them until its end). Called by
   * the tournament once every table has finished the board; in the caller's transaction when given.
   * Idempotent; answers how many games it released now.
   */
  async releaseBoard(boardId: string, tx?: Prisma.TransactionClient): Promise<number> {
    if (!UUID.test(boardId)) throw badInput('A board id is a UUID', { field: 'boardId' });
    const released = await (tx ?? this.prisma).game.updateMany({ where: { boardId, revealHeld: true }, data: { revealHeld: false } });
    return released.count;
  }

  /** `releaseBoard` by game ids (a board's games as the caller lists them). */
  async releaseGames(gameIds: readonly string[], tx?: Prisma.TransactionClient): Promise<number> {
    if (gameIds.length > RELEASE_MAX || gameIds.some((id) => !UUID.test(id))) throw badInput(`Game ids are at most ${RELEASE_MAX} UUIDs`, { field: 'gameIds' });
    const released = await (tx ?? this.prisma).game.updateMany({ where: { id: { in: [...gameIds] }, revealHeld: true }, data: { revealHeld: false } });
    return released.count;
  }

  /** The game as `viewer` may see it: their seat's view if seated, else the spectator's. */
  async view(gameId: string, viewer: AuthenticatedPlayer | undefined): Promise<GameView> {
    const game = await this.prisma.game.findUnique({
      where: { id: gameId },
      select: {
        id: true,
        status: true,
        version: true,
        preset: true,
        options: true,
        firstDealer: true,
        state: true,
        totals: true,
        winners: true,
        createdAt: true,
        updatedAt: true,
        finishedAt: true,
        endSeat: true,
        revealHeld: true,
        importedBy: true,
        seatNames: true,
        seatBots: true,
        timeControl: true,
        turnStartedAt: true,
        turnDeadline: true,
        turnPausedAt: true,
        vacationAllowed: true,
        bankMs: true,
        timeouts: true,
        seats: SEATS,
        deals: {
          orderBy: { index: 'asc' },
          select: DEAL_FACTS,
        },
      },
    });
    if (!game) throw notFound('Game');
    const over = game.status === 'finished';
    // A duplicate board's game keeps its seeds until the board is released, its own players' too.
    const revealed = over && !game.revealHeld;
    const mySeat = game.seats.find((s) => s.playerId === viewer?.id)?.seat ?? null;
    refuseSpectatorOfHeldBoard(game.revealHeld, mySeat);
    const seatView: SeatView = view(await this.log.state(game.id, game.state), mySeat);
    const deals: DealInfo[] = game.deals.map((d) => ({
      index: d.index,
      dealer: d.dealer,
      seedHash: dealSeedHash(d),
      seed: revealed && d.seed ? bytesHex(d.seed) : null,
      contract: d.contract as DealInfo['contract'],
      declarer: d.declarer,
      bid: d.bid as DealInfo['bid'],
      trump: d.trump as DealInfo['trump'],
      tricks: d.tricks as DealInfo['tricks'],
      scores: d.scores as DealInfo['scores'],
      finished: d.finishedAt !== null,
    }));
    return {
      id: game.id,
      status: game.status,
      version: game.version,
      preset: game.preset,
      options: game.options as RuleOptionsModel,
      firstDealer: game.firstDealer,
      mySeat,
      players: gamePlayers(game.seats, game.totals, importedSeats(game)),
      imported: game.importedBy !== null,
      deals,
      view: seatView,
      clock: clockView(game),
      vacationAllowed: game.vacationAllowed,
      awayUntil: over ? [] : await this.awayUntil(game.seats.map((s) => s.playerId)),
      winners: game.winners,
      createdAt: game.createdAt,
      updatedAt: game.updatedAt,
      finishedAt: game.finishedAt,
    };
  }

  /** By seat: when its player's vacation ends, while they are away (vacations/); null when they are here. */
  private async awayUntil(playerIds: readonly string[]): Promise<(Date | null)[]> {
    const away = await this.prisma.vacation.findMany({ where: { playerId: { in: [...playerIds] }, endedAt: null }, select: { playerId: true, until: true } });
    return playerIds.map((id) => away.find((v) => v.playerId === id)?.until ?? null);
  }

  /**
   * The caller's games of one status, newest first, a page `after` a cursor. By creation, not by
   * last move: a move would carry a game across the cursor, and a client paging through would miss it.
   */
  async myGames(player: AuthenticatedPlayer, status: GameStatusValue, first: number, after?: string | null): Promise<GamePage> {
    const cursor = after ? decodeCursor(after) : null;
    const rows = await this.prisma.game.findMany({
      where: {
        status,
        seats: { some: { playerId: player.id } },
        ...(cursor ? { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: first + 1,
      select: {
        id: true,
        preset: true,
        status: true,
        version: true,
        toMove: true,
        totals: true,
        createdAt: true,
        updatedAt: true,
        finishedAt: true,
        seats: SEATS,
      },
    });
    const page = pageOf(rows, first, (g) => ({ at: g.createdAt, id: g.id }));
    const items = page.items.map((g) => {
      const mySeat = g.seats.find((s) => s.playerId === player.id)!.seat;
      return {
        id: g.id,
        preset: g.preset,
        status: g.status,
        version: g.version,
        toMove: g.toMove,
        mySeat,
        myTurn: g.toMove === mySeat,
        players: gamePlayers(g.seats, g.totals),
        createdAt: g.createdAt,
        updatedAt: g.updatedAt,
        finishedAt: g.finishedAt,
      };
    });
    return { items, nextCursor: page.nextCursor, hasMore: page.hasMore };
  }

  /** The event log after `afterSeq`, each entry's events as `viewer` may see them. */
  async events(gameId: string, viewer: AuthenticatedPlayer | undefined, afterSeq: number, first = PAGE_MAX): Promise<GameEventLog> {
    const game = await this.prisma.game.findUnique({
      where: { id: gameId },
      select: { version: true, revealHeld: true, seats: viewer ? { where: { playerId: viewer.id }, select: { seat: true } } : false },
    });
    if (!game) throw notFound('Game');
    const seat = game.seats?.[0]?.seat ?? null;
    refuseSpectatorOfHeldBoard(game.revealHeld, seat);
    const rows = await this.log.rows(gameId, afterSeq, first + 1);
    return {
      gameId,
      version: game.version,
      entries: rows.slice(0, first).map((e) => ({
        seq: e.seq,
        kind: e.kind as GameEventLog['entries'][number]['kind'],
        dealIndex: e.dealIndex,
        seat: e.seat,
        actor: e.actor as GameEventLog['entries'][number]['actor'],
        cause: e.cause,
        createdAt: e.createdAt,
        deadline: e.deadline,
        events: eventViews(e.seq, e.events, seat),
        awayUntil: awayUntilOf(e.kind, e.move),
      })),
      hasMore: rows.length > first,
    };
  }

  /**
   * The event log from `afterSeq` on, then each new entry as it is committed, as `viewer` may see
   * it; ends after the game's last entry (at once for a finished game followed from its last seq),
   * and at once when `signal` aborts or the stream is returned. A follower that reconnects passes
   * the last seq it got. Followers of one game share one read per new entry (GameFollowers).
   */
  follow(gameId: string, viewer: AuthenticatedPlayer, afterSeq: number, signal?: AbortSignal, started?: () => void): AsyncIterableIterator<GameLogEntry> {
    return followGameLog(this.prisma, this.followers, gameId, viewer.id, afterSeq, signal, started);
  }

  /**
   * `follow` for a stream that must answer before its first byte (SSE): NOT_FOUND for an unknown
   * game, and null when a finished game has nothing after `afterSeq`, nor ever will.
   */
  async followStream(
    gameId: string,
    viewer: AuthenticatedPlayer,
    afterSeq: number,
    signal?: AbortSignal,
    started?: () => void,
  ): Promise<AsyncIterableIterator<GameLogEntry> | null> {
    const game = await this.prisma.game.findUnique({
      where: { id: gameId },
      select: { status: true, version: true, revealHeld: true, seats: { where: { playerId: viewer.id }, select: { seat: true } } },
    });
    if (!game) throw notFound('Game');
    refuseSpectatorOfHeldBoard(game.revealHeld, game.seats[0]?.seat ?? null);
    if (game.status === 'finished' && afterSeq >= game.version) return null;
    return this.follow(gameId, viewer, afterSeq, signal, started);
  }

  /** The mizerka-record/1 of a finished game. Not before: the decks (and seeds) are secret until then. */
  async record(gameId: string): Promise<GameRecord & { players: string[] }> {
    const game = await this.prisma.game.findUnique({
      where: { id: gameId },
      select: {
        status: true,
        revealHeld: true,
        preset: true,
        options: true,
        players: true,
        firstDealer: true,
        endSeat: true,
        endReason: true,
        seatNames: true,
        seatBots: true,
        seats: SEATS,
        deals: { orderBy: { index: 'asc' }, select: { seed: true, deck: true } },
        record: { select: { record: true } },
      },
    });
    if (!game) throw notFound('Game');
    if (game.status !== 'finished') {
      throw forbidden('The record of a game in progress would reveal the decks; it is available once the game is over');
    }
    if (game.revealHeld) {
      throw forbidden("The record of a duplicate board's game would reveal the board's decks to tables still playing it; it is available once the board is released");
    }
    // Stored at the game's end (by the history module, with this same builder); built here until
    // then, and once the game is compacted (the compaction drops the stored one: its moves are the
    // compact log's).
    if (game.record) return game.record.record as unknown as GameRecord & { players: string[] };
    const moves =
      (await this.log.recordMoves(gameId)) ??
      (await this.prisma.gameEvent.findMany({
        // The moves alone: not the deals, ends and vacations (away, back) the log also holds.
        where: { gameId, kind: { notIn: ['deal', 'end', 'away', 'back'] } },
        orderBy: { seq: 'asc' },
        select: { dealIndex: true, move: true },
      }));
    const deals = game.deals.map((d) => ({ deck: d.deck, seed: d.seed ? bytesHex(d.seed) : null }));
    return buildRecord({ ...game, deals, players: seatNamesOf(game.seats, game.seatNames, game.players), bots: botMarksOf(game.seats, game.players, game.seatBots), moves });
  }
}

/** A timed game's clock as everyone may see it (deadlines are public: they say nothing of the cards). */
export function clockView(game: {
  timeControl: unknown;
  turnStartedAt: Date | null;
  turnDeadline: Date | null;
  turnPausedAt?: Date | null;
  bankMs: number[];
  timeouts: number[];
}): GameClockModel | null {
  const control = storedTimeControl(game.timeControl);
  if (!control) return null;
  return {
    timeControl: { ...control, onTimeout: control.onTimeout as TimeoutPolicyEnum },
    turnStartedAt: game.turnStartedAt,
    deadline: game.turnDeadline,
    pausedAt: game.turnPausedAt ?? null,
    bankSeconds: game.bankMs.map((ms) => ms / 1000),
    timeouts: game.timeouts,
  };
}
