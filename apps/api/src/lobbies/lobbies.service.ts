import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { makeRules } from '@mizerka/rules';
import type { AppConfig } from '../config/app-config.js';
import { badInput, conflict, DomainError, forbidden, notFound } from '../common/errors.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { checkTimeControl, GamesService, storedTimeControl } from '../games/index.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { Outbox } from '../outbox/outbox.js';
import { Prisma } from '../generated/prisma/client.js';
import { isUniqueViolation } from '../prisma/errors.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { queryRows } from '../common/sql-query.js';
import { lockPlayerSql, lockPlayersSql } from '../players/players.sql.js';
import { type CreateLobbyInput, type JoinLobbyInput, type ListLobbiesArgs } from './dto/lobby.inputs.js';
import { newInviteCode, normaliseInviteCode } from './invite-code.js';
import { fullOfBotGamesSql, lockGameSql, lockLobbySql } from './lobbies.sql.js';
import { type Lobby, LobbyStatus, LobbyVisibility, type LobbyPage, type LobbyRuleOptions } from './models/lobby.model.js';

type Tx = Prisma.TransactionClient;

const LOBBY = {
  id: true,
  preset: true,
  options: true,
  timeControl: true,
  players: true,
  visibility: true,
  status: true,
  inviteCode: true,
  hostId: true,
  previousGameId: true,
  rated: true,
  spectatorsSeeTableChat: true,
  createdAt: true,
  host: { select: { id: true, name: true, kind: true, botLevel: true } },
  seats: {
    select: { seat: true, playerId: true, player: { select: { id: true, name: true, kind: true, botLevel: true } } },
    orderBy: { seat: 'asc' },
  },
  game: { select: { id: true } },
} satisfies Prisma.LobbySelect;

type LobbyRow = Prisma.LobbyGetPayload<{ select: typeof LOBBY }>;

// A lobby's transaction waits for the lobby's row lock while another join, leave or start of
// the same lobby runs, and may start a game: more than Prisma's default 5 s on a busy server.
const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 };
// A fresh invite code collides about once in 10^11; retrying a few times is plenty.
const CREATE_ATTEMPTS = 4;

@Injectable()
export class LobbiesService {
  private readonly maxOpenLobbies: number;
  private readonly maxBotGames: number;
  private readonly minMoveSeconds: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly games: GamesService,
    private readonly outbox: Outbox,
    private readonly feed: PlayerEventsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxOpenLobbies = config.get('quotas', { infer: true }).openLobbiesPerPlayer;
    this.maxBotGames = config.get('quotas', { infer: true }).activeBotGamesPerPlayer;
    this.minMoveSeconds = config.get('clocks', { infer: true }).minMoveSeconds;
  }

  /** A new lobby; the caller is its host and sits down at `seat` (default 0). */
  async create(callerId: string, input: CreateLobbyInput): Promise<Lobby> {
    const rules = checkRules(input.preset, input.options);
    const timeControl = input.timeControl ? checkTimeControl(input.timeControl, this.minMoveSeconds) : null;
    const seat = input.seat ?? 0;
    checkSeatRange(seat, rules.players);
    const visibility = input.visibility ?? LobbyVisibility.public;
    // An unlisted table is among friends: unrated unless its host asks for ratings.
    const rated = input.rated ?? visibility === LobbyVisibility.public;
    return this.withNewInviteCode((inviteCode) =>
      this.prisma.$transaction(async (tx) => {
        await this.checkOpenLobbies(tx, callerId);
        const lobby = await tx.lobby.create({
          data: {
            preset: rules.preset,
            options: rules.options as Prisma.InputJsonObject,
            timeControl: timeControl ? (timeControl as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
            players: rules.players,
            visibility,
            rated,
            spectatorsSeeTableChat: input.spectatorsSeeTableChat ?? false,
            inviteCode,
            hostId: callerId,
            seats: { create: { seat, playerId: callerId } },
          },
          select: { id: true },
        });
        return this.view(tx, lobby.id);
      }, TX_OPTIONS),
    );
  }

  /** Open public lobbies, newest first, a page `after` a cursor (new lobbies never shift a later page). */
  async list(args: ListLobbiesArgs): Promise<LobbyPage> {
    const where: Prisma.LobbyWhereInput = {
      status: LobbyStatus.open,
      visibility: LobbyVisibility.public,
      ...(args.preset ? { preset: args.preset } : {}),
      // By tempo: untimed, timed, or at most so many seconds per move.
      ...(args.maxMoveSeconds !== undefined
        ? { timeControl: { path: ['moveSeconds'], lte: args.maxMoveSeconds } }
        : args.timed === false
          ? { timeControl: { equals: Prisma.DbNull } }
          : args.timed === true
            ? { NOT: { timeControl: { equals: Prisma.DbNull } } }
            : {}),
    };
    const cursor = args.after ? decodeCursor(args.after) : null;
    const page: Prisma.LobbyWhereInput = cursor
      ? { AND: [where, { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] }] }
      : where;
    const [rows, total] = await Promise.all([
      this.prisma.lobby.findMany({ where: page, select: LOBBY, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: args.first + 1 }),
      this.prisma.lobby.count({ where }),
    ]);
    const shown = pageOf(rows, args.first, (row) => ({ at: row.createdAt, id: row.id }));
    return { lobbies: shown.items.map(toView), total, nextCursor: shown.nextCursor, hasMore: shown.hasMore };
  }

  /** Public lobbies are seen by anyone; unlisted ones only by their members (or by code). */
  async get(id: string, viewerId?: string): Promise<Lobby> {
    return toView(await this.visible(this.prisma, id, viewerId));
  }

  async getByCode(code: string): Promise<Lobby> {
    const row = await this.prisma.lobby.findUnique({ where: { inviteCode: parseInviteCode(code) }, select: LOBBY });
    if (!row) throw notFound('Lobby');
    return toView(row);
  }

  /**
   * Takes a seat (the one asked for, or the lowest free one). The lobby's row is locked for
   * the whole transaction, so joins of one lobby happen one after another: the last seat goes
   * to exactly one player, and the join that fills the table starts the game, once.
   */
  async join(callerId: string, input: JoinLobbyInput): Promise<Lobby> {
    const byId = input.lobbyId !== undefined && input.lobbyId !== null;
    const byCode = input.inviteCode !== undefined && input.inviteCode !== null;
    if (byId === byCode) throw badInput('Give either lobbyId or inviteCode');
    let lobbyId: string;
    if (byCode) {
      const found = await this.prisma.lobby.findUnique({
        where: { inviteCode: parseInviteCode(input.inviteCode!) },
        select: { id: true },
      });
      if (!found) throw notFound('Lobby');
      lobbyId = found.id;
    } else {
      lobbyId = (await this.visible(this.prisma, input.lobbyId!.toLowerCase(), callerId)).id;
    }
    return this.inLobby(lobbyId, async (tx, lobby) => {
      if (input.seat !== undefined && input.seat !== null) checkSeatRange(input.seat, lobby.players);
      checkOpen(lobby);
      if (lobby.seats.some((s) => s.playerId === callerId)) throw conflict('You are already seated in this lobby');
      const seat = freeSeat(lobby, input.seat);
      await this.checkBlocks(tx, callerId, lobby.seats.map((s) => s.playerId));
      await this.checkOpenLobbies(tx, callerId);
      return this.seatAt(tx, lobby, seat, callerId, [callerId]);
    });
  }

  /**
   * The host seats a computer player, with the rules of a join (an open lobby, a free seat). The
   * bot is chosen by `pickBot` inside the lobby's lock, among players not seated here yet (a
   * player holds one seat of a table). A bot sits in any number of lobbies: it is never asked.
   */
  async seatBot(
    callerId: string,
    lobbyId: string,
    seat: number | null | undefined,
    pickBot: (tx: Tx, seated: string[]) => Promise<string>,
  ): Promise<Lobby> {
    await this.visible(this.prisma, lobbyId, callerId);
    return this.inLobby(lobbyId, async (tx, lobby) => {
      if (lobby.hostId !== callerId) throw forbidden('Only the host may add bots');
      if (seat !== undefined && seat !== null) checkSeatRange(seat, lobby.players);
      checkOpen(lobby);
      const at = freeSeat(lobby, seat);
      const botId = await pickBot(tx, lobby.seats.map((s) => s.playerId));
      return this.seatAt(tx, lobby, at, botId, [callerId]);
    });
  }

  /** Seats `playerId` at the free `seat`, tells the others (not those in `quiet`), and starts the game once the table is full. */
  private async seatAt(tx: Tx, lobby: LobbyRow, seat: number, playerId: string, quiet: string[]): Promise<NewFeedEvent[]> {
    const lobbyId = lobby.id;
    await tx.lobbySeat.create({ data: { lobbyId, seat, playerId } });
    const { name } = await tx.player.findUniqueOrThrow({ where: { id: playerId }, select: { name: true } });
    const joined = toOthers(lobby, quiet, (to) => ({
      playerId: to,
      type: 'lobbyJoined',
      gameId: null,
      lobbyId,
      seq: null,
      payload: { lobbyId, playerId, name, seat },
    }));
    await this.feed.add(tx, joined);
    if (lobby.seats.length + 1 === lobby.players) return [...joined, ...(await this.startGame(tx, lobbyId))];
    return joined;
  }

  /**
   * Gives up one's seat before the game starts. A leaving host hands the lobby to the player
   * who has sat there longest; the last one to leave closes it.
   */
  async leave(callerId: string, lobbyId: string): Promise<Lobby> {
    await this.visible(this.prisma, lobbyId, callerId);
    return this.inLobby(lobbyId, async (tx, lobby) => {
      checkOpen(lobby, 'leave');
      if (!lobby.seats.some((s) => s.playerId === callerId)) throw conflict('You are not seated in this lobby');
      await tx.lobbySeat.delete({ where: { lobbyId_playerId: { lobbyId, playerId: callerId } } });
      await this.afterSeatFreed(tx, lobbyId, lobby.hostId === callerId);
      return this.addLeft(tx, lobby, callerId, callerId, false);
    });
  }

  /** The host sends a player away from the table before the game starts. */
  async remove(callerId: string, lobbyId: string, playerId: string): Promise<Lobby> {
    await this.visible(this.prisma, lobbyId, callerId);
    return this.inLobby(lobbyId, async (tx, lobby) => {
      if (lobby.hostId !== callerId) throw forbidden('Only the host may remove players');
      if (playerId === callerId) throw badInput('The host leaves with leaveLobby, not by removing themself');
      checkOpen(lobby, 'remove');
      if (!lobby.seats.some((s) => s.playerId === playerId)) throw notFound('Player in this lobby');
      await tx.lobbySeat.delete({ where: { lobbyId_playerId: { lobbyId, playerId } } });
      await this.afterSeatFreed(tx, lobbyId, false);
      // The removed player is told too: only the host, who acted, is not.
      return this.addLeft(tx, lobby, playerId, callerId, true);
    });
  }

  /**
   * The game starts by itself when the last seat is taken; the host may also start it, which
   * does the same and is useful only if that start did not happen (e.g. it failed).
   */
  async start(callerId: string, lobbyId: string): Promise<Lobby> {
    await this.visible(this.prisma, lobbyId, callerId);
    return this.inLobby(lobbyId, async (tx, lobby) => {
      if (lobby.hostId !== callerId) throw forbidden('Only the host may start the game');
      if (lobby.status === LobbyStatus.started) {
        throw conflict('The game has already started', lobby.game ? { gameId: lobby.game.id } : {});
      }
      checkOpen(lobby);
      if (lobby.seats.length < lobby.players) {
        throw conflict(
          `Only ${lobby.seats.length} of ${lobby.players} seats are taken; ${lobby.preset} needs every seat filled`,
          { seatsTaken: lobby.seats.length, players: lobby.players },
        );
      }
      return this.startGame(tx, lobbyId);
    });
  }

  /**
   * "Play again": a new lobby for a finished game's players, in the same seats, with the caller
   * as host. Everyone is seated at once, so the new game starts at once; nobody re-enters a
   * code. One finished game has one rematch: the game's row is locked while it is made, and
   * whoever asks after the first gets the same lobby back.
   */
  async playAgain(callerId: string, gameId: string): Promise<Lobby> {
    return this.withNewInviteCode((inviteCode) =>
      this.prisma.$transaction(async (tx) => {
        const locked = await queryRows(tx, lockGameSql(gameId));
        if (locked.length === 0) throw notFound('Game');
        const game = await tx.game.findUniqueOrThrow({
          where: { id: gameId },
          select: {
            preset: true,
            options: true,
            timeControl: true,
            players: true,
            status: true,
            rated: true,
            importedBy: true,
            seats: { select: { seat: true, playerId: true } },
            lobby: { select: { spectatorsSeeTableChat: true } },
          },
        });
        if (!game.seats.some((s) => s.playerId === callerId)) throw forbidden('Only the players of a game may play it again');
        // Its other seats are names from a record, nobody to seat at a new table.
        if (game.importedBy !== null) throw conflict('An imported game cannot be played again: only its importer has a seat in it');
        if (game.status !== 'finished') throw conflict('The game is not over yet');
        const earlier = await tx.lobby.findFirst({
          where: { previousGameId: gameId },
          orderBy: { createdAt: 'asc' },
          select: { id: true },
        });
        if (earlier) return { lobby: await this.view(tx, earlier.id), feed: [] };
        await this.checkBlocks(tx, callerId, game.seats.map((s) => s.playerId));
        const rules = makeRules(game.preset, game.options);
        if (!rules.ok) throw conflict(`This game's rules can no longer be used: ${rules.error.message}`);
        const lobby = await tx.lobby.create({
          data: {
            preset: rules.value.preset,
            options: rules.value.options as Prisma.InputJsonObject,
            // The same tempo as the game played before.
            timeControl: game.timeControl ?? Prisma.DbNull,
            players: rules.value.players,
            visibility: LobbyVisibility.unlisted,
            inviteCode,
            hostId: callerId,
            previousGameId: gameId,
            rated: game.rated,
            spectatorsSeeTableChat: game.lobby?.spectatorsSeeTableChat ?? false,
            seats: { create: game.seats.map((s) => ({ seat: s.seat, playerId: s.playerId })) },
          },
          select: { id: true },
        });
        const feed = await this.startGame(tx, lobby.id);
        return { lobby: await this.view(tx, lobby.id), feed };
      }, TX_OPTIONS).then(({ lobby, feed }) => {
        this.feed.published(feed);
        if (lobby.gameId) this.outbox.committed({ gameId: lobby.gameId, seq: 1, entries: null }); // the new game's first turn
        return lobby;
      }),
    );
  }

  // --- helpers ---------------------------------------------------------------------------

  /**
   * A player never sits at a table with someone who blocked them or whom they blocked (chat/):
   * FORBIDDEN, without saying who, so that a block is not revealed by name.
   */
  private async checkBlocks(tx: Tx, playerId: string, seated: string[]): Promise<void> {
    const others = seated.filter((id) => id !== playerId);
    if (others.length === 0) return;
    const block = await tx.playerBlock.findFirst({
      where: { OR: [{ blockerId: playerId, blockedId: { in: others } }, { blockedId: playerId, blockerId: { in: others } }] },
      select: { blockerId: true },
    });
    if (block) throw forbidden('You cannot sit at this table: you and a player seated at it have blocked each other');
  }

  /**
   * A player sits in at most MAX_OPEN_LOBBIES_PER_PLAYER open lobbies (hosting or joined). The
   * player's row is locked while counting, so two requests at once cannot both take the last place.
   */
  private async checkOpenLobbies(tx: Tx, playerId: string): Promise<void> {
    await queryRows(tx, lockPlayerSql(playerId));
    const open = await tx.lobbySeat.count({ where: { playerId, lobby: { status: LobbyStatus.open } } });
    if (open >= this.maxOpenLobbies) {
      throw conflict(
        `You sit in ${open} open lobbies, the most allowed (MAX_OPEN_LOBBIES_PER_PLAYER = ${this.maxOpenLobbies}); leave one first`,
        { limit: this.maxOpenLobbies },
      );
    }
  }

  /**
   * A person sits in at most MAX_ACTIVE_BOT_GAMES_PER_PLAYER active games against server bots,
   * whose every turn is the server's work: the game that would be one too many does not start (its
   * transaction, the seat taken with it included, is undone). The people's rows are locked while
   * counting, in one order, so that starts at once cannot all take the last place.
   */
  private async checkBotGames(tx: Tx, people: string[]): Promise<void> {
    if (people.length === 0) return;
    await queryRows(tx, lockPlayersSql(people));
    const full = await queryRows(tx, fullOfBotGamesSql(people, this.maxBotGames));
    if (full[0]) {
      throw conflict(
        `${full[0].name} already plays ${full[0].games} games against server bots, the most allowed (MAX_ACTIVE_BOT_GAMES_PER_PLAYER = ${this.maxBotGames}); finish or resign one first`,
        { limit: this.maxBotGames },
      );
    }
  }

  /** The lobby as `viewerId` may see it; unlisted lobbies of others do not exist for them. */
  private async visible(db: Tx, id: string, viewerId: string | undefined): Promise<LobbyRow> {
    const row = await db.lobby.findUnique({ where: { id }, select: LOBBY });
    if (!row) throw notFound('Lobby');
    if (row.visibility === LobbyVisibility.unlisted && !isMember(row, viewerId)) throw notFound('Lobby');
    return row;
  }

  /**
   * Runs `change` with the lobby's row locked, then answers the lobby as it is after it. `change`
   * may answer feed events it wrote, published once the transaction has committed.
   */
  private async inLobby(lobbyId: string, change: (tx: Tx, lobby: LobbyRow) => Promise<NewFeedEvent[] | void>): Promise<Lobby> {
    try {
      let feed: NewFeedEvent[] = [];
      const changed = await this.prisma.$transaction(async (tx) => {
        const locked = await queryRows(tx, lockLobbySql(lobbyId));
        if (locked.length === 0) throw notFound('Lobby');
        const lobby = await tx.lobby.findUniqueOrThrow({ where: { id: lobbyId }, select: LOBBY });
        feed = (await change(tx, lobby)) ?? [];
        return this.view(tx, lobbyId);
      }, TX_OPTIONS);
      this.feed.published(feed);
      // The game's first turn (its deal is log entry 1), now committed.
      if (changed.status === LobbyStatus.started && changed.gameId) this.outbox.committed({ gameId: changed.gameId, seq: 1, entries: null });
      return changed;
    } catch (error) {
      throw asConflict(error);
    }
  }

  /** Starts the lobby's game; answers the feed events to publish once the transaction commits. */
  private async startGame(tx: Tx, lobbyId: string): Promise<NewFeedEvent[]> {
    // Only an open lobby moves to started; with the row lock this is belt and braces.
    const moved = await tx.lobby.updateMany({ where: { id: lobbyId, status: LobbyStatus.open }, data: { status: LobbyStatus.started } });
    if (moved.count !== 1) throw conflict('The game has already started');
    const lobby = await tx.lobby.findUniqueOrThrow({
      where: { id: lobbyId },
      select: {
        preset: true,
        options: true,
        timeControl: true,
        rated: true,
        seats: { select: { seat: true, playerId: true, player: { select: { botLevel: true } } }, orderBy: { seat: 'asc' } },
      },
    });
    if (lobby.seats.some((s) => s.player.botLevel !== null)) {
      await this.checkBotGames(tx, lobby.seats.filter((s) => s.player.botLevel === null).map((s) => s.playerId));
    }
    const { feed } = await this.games.startGame(tx, {
      rated: lobby.rated,
      lobbyId,
      preset: lobby.preset,
      options: (lobby.options ?? {}) as Record<string, unknown>,
      seats: lobby.seats.map(({ seat, playerId }) => ({ seat, playerId })),
      timeControl: storedTimeControl(lobby.timeControl),
    });
    return feed;
  }

  /** `lobbyLeft` for the players seated before the change, but the one who acted and the one who left by themself. */
  private async addLeft(tx: Tx, lobby: LobbyRow, leaverId: string, actorId: string, removed: boolean): Promise<NewFeedEvent[]> {
    const leaver = lobby.seats.find((s) => s.playerId === leaverId)!;
    const left = toOthers(lobby, [actorId], (playerId) => ({
      playerId,
      type: 'lobbyLeft',
      gameId: null,
      lobbyId: lobby.id,
      seq: null,
      payload: { lobbyId: lobby.id, playerId: leaverId, name: leaver.player.name, seat: leaver.seat, removed },
    }));
    await this.feed.add(tx, left);
    return left;
  }

  private async afterSeatFreed(tx: Tx, lobbyId: string, hostLeft: boolean): Promise<void> {
    // A server bot never hosts: a table left with bots alone closes.
    const next = await tx.lobbySeat.findFirst({
      where: { lobbyId, player: { botLevel: null } },
      orderBy: [{ joinedAt: 'asc' }, { seat: 'asc' }],
      select: { playerId: true },
    });
    if (!next) await tx.lobby.update({ where: { id: lobbyId }, data: { status: LobbyStatus.closed } });
    else if (hostLeft) await tx.lobby.update({ where: { id: lobbyId }, data: { hostId: next.playerId } });
  }

  private async view(tx: Tx, id: string): Promise<Lobby> {
    return toView(await tx.lobby.findUniqueOrThrow({ where: { id }, select: LOBBY }));
  }

  private async withNewInviteCode<T>(make: (inviteCode: string) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await make(newInviteCode());
      } catch (error) {
        // The only unique key a new lobby can break is its invite code (its seats are new too).
        if (attempt < CREATE_ATTEMPTS && isUniqueViolation(error)) continue;
        throw asConflict(error);
      }
    }
  }
}

/** One feed event for each player seated in `lobby` (as it was read, before the change) but those in `except`. */
function toOthers(lobby: LobbyRow, except: string[], event: (playerId: string) => NewFeedEvent): NewFeedEvent[] {
  return lobby.seats.filter((s) => !except.includes(s.playerId)).map((s) => event(s.playerId));
}

function checkRules(preset: string, options: object | null | undefined) {
  const given = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined && value !== null));
  const rules = makeRules(preset, given);
  if (!rules.ok) throw badInput(rules.error.message, { rule: rules.error.rule });
  return rules.value;
}

/** The seat asked for if it is free, else the lowest free one; CONFLICT when the lobby is full or the seat taken. */
function freeSeat(lobby: LobbyRow, asked: number | null | undefined): number {
  const taken = new Set(lobby.seats.map((s) => s.seat));
  if (taken.size >= lobby.players) throw conflict('The lobby is full');
  if (asked !== undefined && asked !== null) {
    if (taken.has(asked)) throw conflict(`Seat ${asked} is taken`, { seat: asked });
    return asked;
  }
  return [...Array(lobby.players).keys()].find((s) => !taken.has(s))!;
}

function checkSeatRange(seat: number, players: number): void {
  if (!Number.isInteger(seat) || seat < 0 || seat >= players) {
    throw badInput(`seat must be 0 to ${players - 1} at a table of ${players}`, { seat });
  }
}

function checkOpen(lobby: LobbyRow, action?: 'leave' | 'remove'): void {
  if (lobby.status === LobbyStatus.started) {
    const why = action === 'leave' ? '; leave the game instead' : action === 'remove' ? '; players can no longer be removed' : '';
    throw conflict(`The game of this lobby has already started${why}`, lobby.game ? { gameId: lobby.game.id } : {});
  }
  if (lobby.status === LobbyStatus.closed) throw conflict('This lobby is closed');
}

function parseInviteCode(code: string): string {
  const normal = normaliseInviteCode(code);
  if (!normal) throw badInput('That is not an invite code: 8 letters and digits, such as K7QX4M2P');
  return normal;
}

function isMember(lobby: LobbyRow, viewerId: string | undefined): boolean {
  return viewerId !== undefined && (lobby.hostId === viewerId || lobby.seats.some((s) => s.playerId === viewerId));
}

/** A unique key broken by a concurrent request, or a write conflict: someone else was first. */
function asConflict(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  if (isUniqueViolation(error)) return conflict('Someone else took that seat first; try again');
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034') {
    return conflict('The lobby changed while you acted; try again');
  }
  return error;
}

function toView(row: LobbyRow): Lobby {
  const bySeat = new Map(row.seats.map((s) => [s.seat, s.player]));
  const seats = Array.from({ length: row.players }, (_, seat) => ({ seat, player: bySeat.get(seat) ?? null }));
  return {
    id: row.id,
    preset: row.preset,
    options: (row.options ?? {}) as LobbyRuleOptions,
    timeControl: storedTimeControl(row.timeControl) as Lobby['timeControl'],
    players: row.players,
    visibility: row.visibility as LobbyVisibility,
    status: row.status as LobbyStatus,
    inviteCode: row.inviteCode,
    host: row.host,
    seats,
    seatsTaken: row.seats.length,
    seatsFree: row.players - row.seats.length,
    gameId: row.game?.id ?? null,
    previousGameId: row.previousGameId,
    rated: row.rated,
    spectatorsSeeTableChat: row.spectatorsSeeTableChat,
    createdAt: row.createdAt,
  };
}
