import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createHash, randomUUID } from 'node:crypto';
import { makeRules } from '@mizerka/rules';
import { BOT_LEVELS, type BotLevel } from '@mizerka/bots';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { grants } from '../auth/scopes.js';
import type { AppConfig } from '../config/app-config.js';
import { badInput, conflict, DomainError, forbidden, notFound } from '../common/errors.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { ruleErrorToDomain } from '../common/rule-errors.js';
import { Prisma } from '../generated/prisma/client.js';
import { checkTimeControl, GamesService, newBoard, storedTimeControl } from '../games/index.js';
import { newInviteCode, normaliseInviteCode } from '../lobbies/invite-code.js';
import { MovesService } from '../moves/moves.service.js';
import { JobQueue } from '../outbox/job-queue.js';
import { removeJobsSql, setGameJobsSql } from '../outbox/job-queue.sql.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import { Outbox } from '../outbox/outbox.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { untilReturned } from '../common/live-tail.js';
import { TournamentBus, TournamentFollowers } from './tournament-followers.js';
import { pickServerBot } from '../bots/bot-players.js';
import { arenaTables, boardComparison, duplicateRounds, gameResult, roundRobinRounds, standings, swissRound, TIE_BREAKS, type GameResult, type RoundPlan, type RunningFormat, type Standing } from './formats.js';
import { checkFormatOptions, MAX_TOURNAMENT_PLAYERS, RUNNING_FORMATS, storedFormatOptions, TOURNAMENT_FORMATS, type TournamentFormat } from './tournament-options.js';
import type { CreateTournamentInput, ListTournamentsArgs } from './dto/tournament.inputs.js';
import type { TournamentBoardView, TournamentPage, TournamentRoundView, TournamentView } from './models/tournament.model.js';

type Tx = Prisma.TransactionClient;
type Change = 'joined' | 'withdrawn' | 'started' | 'roundStarted' | 'roundFinished' | 'finished' | 'cancelled';

export const TOURNAMENT_START_TASK = 'tournament.start';
export const TOURNAMENT_DEADLINE_TASK = 'tournament.roundDeadline';
export const TOURNAMENT_ARENA_SEAT_TASK = 'tournament.arenaSeat';
export const TOURNAMENT_ARENA_END_TASK = 'tournament.arenaEnd';
/** Arena: a waiting player sits down with equals on score, or with the nearest after this long. */
export const ARENA_MAX_WAIT_MS = 5_000;
// A tournament's transaction may start a round of many games under the tournament's row lock.
const TX_OPTIONS = { maxWait: 20_000, timeout: 120_000 };
const MAX_START_DELAY_MS = 366 * 24 * 3600 * 1000;

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

type TournamentRow = Prisma.TournamentGetPayload<{ include: { players: true } }>;
/** What a transaction started: the games (their first turn handed to this instance's bots) and their feed rows, written by the game start itself. */
interface Started {
  games: string[];
  feed: NewFeedEvent[];
}

/**
 * Tournaments: a field of players, rounds of tables, each table a game started through the normal
 * game start (GamesService.startGame, as a full lobby starts its game), standings from the games'
 * results (formats.ts, @mizerka/tournaments).
 *
 * Exactly once: every change to a tournament runs in a transaction that holds its row lock. A game's
 * end reaches `gamesFinished` (an outbox consumer, at least once): the transaction claims the game
 * (tournament_games.counted_at from null to now), so a repeat counts nothing; the round that
 * follows is inserted with its number as the key, so a round never starts twice, and it starts in
 * the same transaction as the count that completed the round before it: a crash leaves either both
 * or neither, and the outbox delivers the game's end again.
 */
@Injectable()
export class TournamentsService implements OnModuleInit {
  private readonly log = new Logger('Tournaments');
  private readonly minMoveSeconds: number;
  private readonly admins: ReadonlySet<string>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly games: GamesService,
    private readonly moves: MovesService,
    private readonly outbox: Outbox,
    private readonly jobs: JobQueue,
    private readonly feed: PlayerEventsService,
    private readonly bus: TournamentBus,
    private readonly followers: TournamentFollowers,
    config: ConfigService<AppConfig, true>,
  ) {
    this.minMoveSeconds = config.get('clocks', { infer: true }).minMoveSeconds;
    this.admins = new Set(config.get('tournaments', { infer: true }).admins);
  }

  onModuleInit(): void {
    this.jobs.task(TOURNAMENT_START_TASK, (payload) => this.startDue(idOf(payload)));
    this.jobs.task(TOURNAMENT_DEADLINE_TASK, (payload) => this.roundDeadline(idOf(payload), roundOf(payload)));
    this.jobs.task(TOURNAMENT_ARENA_SEAT_TASK, (payload) => this.arenaSeat(idOf(payload)));
    this.jobs.task(TOURNAMENT_ARENA_END_TASK, (payload) => this.arenaEnd(idOf(payload)));
  }

  /** A new tournament, open for joining; the creator is not entered (they join like anyone). */
  async create(caller: AuthenticatedPlayer, input: CreateTournamentInput): Promise<TournamentView> {
    const callerId = caller.id;
    // A featured event is the operator's: named in TOURNAMENT_ADMINS, and a token that may do anything (as chat moderators).
    const featured = input.featured ?? false;
    if (featured && !(this.admins.has(caller.name.toLowerCase()) && grants(caller.scopes, 'admin'))) {
      throw new DomainError('FORBIDDEN', 'featured: only the tournament admins (TOURNAMENT_ADMINS), with a token of the admin scope, create featured tournaments', { field: 'featured' });
    }
    const name = input.name.trim();
    if (name.length < 1 || name.length > 64) throw badInput('name must be 1 to 64 characters long', { field: 'name' });
    if (!(TOURNAMENT_FORMATS as readonly string[]).includes(input.format)) {
      throw badInput(`format must be one of ${TOURNAMENT_FORMATS.join(', ')}`, { field: 'format' });
    }
    const format = input.format as TournamentFormat;
    if (!RUNNING_FORMATS.includes(format)) throw badInput(`format: ${format} tournaments are not run by this server yet`, { field: 'format' });
    const rules = makeRules(input.preset, (input.options ?? {}) as Record<string, unknown>);
    if (!rules.ok) throw ruleErrorToDomain(rules.error);
    const tableSize = rules.value.players;
    const formatOptions = checkFormatOptions(format, input.formatOptions);
    const timeControl = input.timeControl ? checkTimeControl(input.timeControl, this.minMoveSeconds) : null;
    // The smallest field: a table, or two for duplicate (a board is compared across tables).
    const least = minField({ format, tableSize });
    const fieldWord = format === 'duplicate' ? 'two tables' : 'a table';
    const maxPlayers = input.maxPlayers ?? 64;
    if (!Number.isInteger(maxPlayers) || maxPlayers < least || maxPlayers > MAX_TOURNAMENT_PLAYERS) {
      throw badInput(`maxPlayers must be a whole number from ${least} (${fieldWord}) to ${MAX_TOURNAMENT_PLAYERS}`, { field: 'maxPlayers' });
    }
    const minPlayers = input.minPlayers ?? least;
    if (!Number.isInteger(minPlayers) || minPlayers < least || minPlayers > maxPlayers) {
      throw badInput(`minPlayers must be a whole number from ${least} (${fieldWord}) to maxPlayers (${maxPlayers})`, { field: 'minPlayers' });
    }
    const startsAt = input.startsAt ?? null;
    if (startsAt !== null && (Number.isNaN(startsAt.getTime()) || startsAt.getTime() > Date.now() + MAX_START_DELAY_MS)) {
      throw badInput('startsAt must be a time within a year', { field: 'startsAt' });
    }
    const botLevel = input.botLevel ?? null;
    if (botLevel !== null && !(BOT_LEVELS as readonly string[]).includes(botLevel)) {
      throw badInput(`botLevel must be one of ${BOT_LEVELS.join(', ')}`, { field: 'botLevel' });
    }
    const visibility = input.visibility ?? 'public';
    if (visibility !== 'public' && visibility !== 'invite') throw badInput('visibility must be "public" or "invite"', { field: 'visibility' });
    const inviteCode = visibility === 'invite' ? newInviteCode() : null;

    const created = await this.prisma.$transaction(async (tx) => {
      const row = await tx.tournament.create({
        data: {
          name,
          creatorId: callerId,
          preset: rules.value.preset,
          options: rules.value.options as Prisma.InputJsonObject,
          format,
          formatOptions: formatOptions as Prisma.InputJsonObject,
          tableSize,
          timeControl: timeControl ? (timeControl as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
          vacationAllowed: input.vacationAllowed ?? true,
          startsAt,
          minPlayers,
          maxPlayers,
          rated: input.rated ?? false,
          visibility,
          inviteCodeHash: inviteCode ? hashCode(inviteCode) : null,
          botLevel,
          featured,
        },
        select: { id: true },
      });
      // Duplicate: the boards are committed now, their seeds kept secret, their hashes shown.
      if (format === 'duplicate') {
        const boards = Array.from({ length: formatOptions.rounds! }, (_, i) => ({ ...newBoard(), number: i + 1, boardId: randomUUID(), tournamentId: row.id }));
        await tx.tournamentBoard.createMany({ data: boards.map((b) => ({ tournamentId: b.tournamentId, number: b.number, boardId: b.boardId, seed: b.seed, seedHash: b.seedHash })) });
      }
      // The start job: when its time comes, or at once for a time already past.
      if (startsAt) await tx.$executeRaw(setGameJobsSql([{ task: TOURNAMENT_START_TASK, key: startKey(row.id), payload: { tournamentId: row.id }, runAt: startsAt }]));
      return row;
    });
    return { ...(await this.get(created.id, callerId)), inviteCode };
  }

  /** Public tournaments, newest first, optionally of one status and featured or not; a page `after` a cursor. */
  async list(args: ListTournamentsArgs): Promise<TournamentPage> {
    const where: Prisma.TournamentWhereInput = {
      visibility: 'public',
      ...(args.status ? { status: args.status } : {}),
      ...(typeof args.featured === 'boolean' ? { featured: args.featured } : {}),
    };
    return this.page(where, args.first, args.after);
  }

  /** The tournaments `playerId` entered (withdrawn or not), newest first. */
  async ofPlayer(playerId: string, first: number, after?: string | null): Promise<TournamentPage> {
    return this.page({ players: { some: { playerId } } }, first, after);
  }

  private async page(where: Prisma.TournamentWhereInput, first: number, after?: string | null): Promise<TournamentPage> {
    const cursor = after ? decodeCursor(after) : null;
    const rows = await this.prisma.tournament.findMany({
      where: cursor ? { AND: [where, { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] }] } : where,
      include: { players: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: first + 1,
    });
    const shown = pageOf(rows, first, (r) => ({ at: r.createdAt, id: r.id }));
    return { items: await this.views(shown.items), nextCursor: shown.nextCursor, hasMore: shown.hasMore };
  }

  /** A tournament: a public one for anyone, an invite one for its creator and players. */
  async get(id: string, viewerId?: string): Promise<TournamentView> {
    const row = await this.prisma.tournament.findUnique({ where: { id }, include: { players: true } });
    if (!row || (row.visibility !== 'public' && row.creatorId !== viewerId && !row.players.some((p) => p.playerId === viewerId))) throw notFound('Tournament');
    return (await this.views([row]))[0];
  }

  /**
   * The tournament as it changes, for its SSE stream: the current view at once, then the view
   * again after each change; ends once it is finished or cancelled. Not found (an invite one for
   * a stranger) is answered before the stream begins.
   */
  async followStream(id: string, viewerId: string, signal?: AbortSignal, started?: () => void): Promise<AsyncIterableIterator<{ at: number; view: TournamentView }>> {
    await this.get(id, viewerId);
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const service = this;
    return untilReturned(async function* (ended) {
      const changes = service.followers.follow(id, ended, async () => ({ after: 0, live: true }), started);
      for await (const change of changes) {
        const view = await service.get(id, viewerId);
        yield { at: change.at, view };
        if (view.status === 'finished' || view.status === 'cancelled') return;
      }
    }, signal);
  }

  /** The rounds so far with their tables' games, oldest first. */
  async rounds(id: string, viewerId?: string): Promise<TournamentRoundView[]> {
    await this.get(id, viewerId);
    const [rounds, games] = await Promise.all([
      this.prisma.tournamentRound.findMany({ where: { tournamentId: id }, orderBy: { number: 'asc' } }),
      this.prisma.tournamentGame.findMany({ where: { tournamentId: id }, orderBy: [{ round: 'asc' }, { tableNo: 'asc' }] }),
    ]);
    const gameRows = await this.prisma.game.findMany({
      where: { id: { in: games.map((g) => g.gameId) } },
      select: { id: true, status: true, totals: true, revealHeld: true, seats: { orderBy: { seat: 'asc' }, select: { playerId: true, place: true } } },
    });
    const byId = new Map(gameRows.map((g) => [g.id, g]));
    return rounds.map((r) => ({
      number: r.number,
      status: r.status,
      deadline: r.deadline,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      byes: r.byes,
      tables: games
        .filter((g) => g.round === r.number)
        .map((g) => {
          const game = byId.get(g.gameId)!;
          // A duplicate table's totals and places wait for its board's release: they would tell the other tables.
          const held = g.board !== null && game.revealHeld;
          return {
            table: g.tableNo,
            gameId: g.gameId,
            board: g.board,
            status: game.status,
            players: game.seats.map((s) => s.playerId),
            places: game.status === 'finished' && !held ? game.seats.map((s) => s.place ?? 1) : null,
            totals: held ? [] : game.totals,
          };
        }),
    }));
  }

  /** Enters the caller; an invite tournament needs its code. Reaching minPlayers starts one without a start time. */
  async join(callerId: string, id: string, inviteCode?: string | null): Promise<TournamentView> {
    await this.inTournament(id, async (tx, t, started) => {
      if (t.visibility === 'invite') {
        const code = inviteCode ? normaliseInviteCode(inviteCode) : null;
        if (code === null || hashCode(code) !== t.inviteCodeHash) throw forbidden('This tournament is joined with its invite code (inviteCode)');
      }
      if (t.status !== 'open') throw conflict(`The tournament is ${t.status}: joining is over`);
      const entered = t.players.find((p) => p.playerId === callerId);
      if (entered && entered.withdrawnAt === null) throw conflict('You have already joined this tournament');
      const active = t.players.filter((p) => p.withdrawnAt === null).length;
      if (active >= t.maxPlayers) throw conflict(`The tournament is full (maxPlayers = ${t.maxPlayers})`);
      await tx.tournamentPlayer.upsert({
        where: { tournamentId_playerId: { tournamentId: id, playerId: callerId } },
        create: { tournamentId: id, playerId: callerId },
        update: { withdrawnAt: null, joinedAt: new Date() },
      });
      const feed = this.updated(t, [...activeIds(t), callerId], 'joined');
      if (t.startsAt === null && active + 1 >= t.minPlayers) return [...feed, ...(await this.start(tx, id, started))];
      return feed;
    });
    return this.get(id, callerId);
  }

  /**
   * Withdraws the caller. Before the start the entry is removed; during the event the player is
   * paired no more and each of their games under way is forfeited (the game ends at once, the
   * withdrawn seat last, as a forfeit by the clock would), which the standings then count.
   */
  async withdraw(callerId: string, id: string): Promise<TournamentView> {
    let forfeits: string[] = [];
    await this.inTournament(id, async (tx, t) => {
      const entry = t.players.find((p) => p.playerId === callerId && p.withdrawnAt === null);
      if (!entry) throw conflict('You are not in this tournament');
      if (t.status === 'finished' || t.status === 'cancelled') throw conflict(`The tournament is ${t.status}`);
      const feed = this.updated(t, activeIds(t), 'withdrawn');
      if (t.status === 'open') {
        await tx.tournamentPlayer.delete({ where: { tournamentId_playerId: { tournamentId: id, playerId: callerId } } });
        return feed;
      }
      await tx.tournamentPlayer.update({ where: { tournamentId_playerId: { tournamentId: id, playerId: callerId } }, data: { withdrawnAt: new Date() } });
      const running = await tx.tournamentGame.findMany({ where: { tournamentId: id, countedAt: null }, select: { gameId: true } });
      forfeits = running.map((g) => g.gameId);
      return feed;
    });
    for (const gameId of forfeits) await this.forfeitSeat(gameId, callerId);
    // Read past the visibility check: an invite tournament's former entrant sees their answer.
    return (await this.views([await this.prisma.tournament.findUniqueOrThrow({ where: { id }, include: { players: true } })]))[0];
  }

  /** Ends an active game by `playerId`'s forfeit; a game already over, or won in a race, is left as it is. */
  private async forfeitSeat(gameId: string, playerId: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const game = await this.prisma.game.findUnique({ where: { id: gameId }, select: { status: true, version: true, seats: { where: { playerId }, select: { seat: true } } } });
      if (!game || game.status !== 'active' || game.seats.length === 0) return;
      try {
        await this.moves.forfeit(gameId, game.seats[0].seat, game.version);
        return;
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
      }
    }
  }

  /** The start job: a tournament whose start time has come starts (or is cancelled, short of a table). */
  async startDue(id: string): Promise<void> {
    await this.inTournament(id, async (tx, t, started) => (t.status === 'open' ? this.start(tx, id, started) : []), false);
  }

  /**
   * Starts the tournament (its row locked): the field is filled with server bots when the organiser
   * allows it (to minPlayers and to whole tables), then round 1 starts. Fewer than a table: cancelled.
   */
  private async start(tx: Tx, id: string, started: Started): Promise<NewFeedEvent[]> {
    const t = await tx.tournament.findUniqueOrThrow({ where: { id }, include: { players: true } });
    if (t.status !== 'open') return [];
    const ids = activeIds(t);
    if (t.botLevel) {
      let want = Math.max(t.minPlayers, ids.length);
      if (t.format === 'duplicate') want = Math.max(want, minField(t));
      if (t.format === 'swiss' || t.format === 'round-robin' || t.format === 'duplicate') want = Math.ceil(want / t.tableSize) * t.tableSize;
      want = Math.min(want, Math.max(t.maxPlayers, ids.length));
      while (ids.length < want) {
        const bot = await pickServerBot(tx, t.botLevel as BotLevel, ids);
        await tx.tournamentPlayer.create({ data: { tournamentId: id, playerId: bot, bot: true } });
        ids.push(bot);
      }
    }
    await tx.$executeRaw(removeJobsSql([startKey(id)]));
    if (ids.length < minField(t)) {
      await tx.tournament.update({ where: { id }, data: { status: 'cancelled', finishedAt: new Date() } });
      return this.updated(t, ids, 'cancelled');
    }
    const now = new Date();
    await tx.tournament.update({ where: { id }, data: { status: 'running', startedAt: now } });
    if (t.format === 'arena') {
      // Everyone waits from the start; the seat job seats them, the end job closes the window.
      await tx.tournamentPlayer.updateMany({ where: { tournamentId: id, withdrawnAt: null }, data: { waitingSince: now } });
      const endsAt = arenaEndsAt(t.formatOptions, now);
      await tx.$executeRaw(setGameJobsSql([
        { task: TOURNAMENT_ARENA_SEAT_TASK, key: arenaSeatKey(id), payload: { tournamentId: id }, runAt: now },
        { task: TOURNAMENT_ARENA_END_TASK, key: arenaEndKey(id), payload: { tournamentId: id }, runAt: endsAt },
      ]));
      return this.updated(t, ids, 'started');
    }
    return [...this.updated(t, ids, 'started'), ...(await this.startRound(tx, id, 1, started))];
  }

  /**
   * Starts round `number` if it has not started: its key (tournament, number) is inserted first,
   * ON CONFLICT DO NOTHING, so a second start of the same round writes nothing at all.
   */
  private async startRound(tx: Tx, id: string, number: number, sink: Started, given?: RoundPlan): Promise<NewFeedEvent[]> {
    const t = await tx.tournament.findUniqueOrThrow({ where: { id }, include: { players: true } });
    const options = storedFormatOptions(t.formatOptions);
    let plan = given ?? (await this.plan(tx, t, number));
    // Duplicate: a board is compared across tables. With fewer than two tables left to play it
    // (withdrawals broke the schedule) it is not played: everyone still entered sits it out, and
    // the round finishes at once below (the board released with no results).
    const unplayed = t.format === 'duplicate' && plan.tables.length < 2;
    if (unplayed) plan = { tables: [], byes: activeIds(t) };
    const deadline = options.roundMinutes && !unplayed ? new Date(Date.now() + options.roundMinutes * 60_000) : null;
    const inserted = await tx.$executeRaw`INSERT INTO tournament_rounds (tournament_id, number, deadline, byes)
      VALUES (${id}::uuid, ${number}::smallint, ${deadline}, ${plan.byes}::uuid[]) ON CONFLICT DO NOTHING`;
    if (inserted === 0) return [];
    // Duplicate: every table of round n plays board n.
    const board = t.format === 'duplicate' ? await tx.tournamentBoard.findUniqueOrThrow({ where: { tournamentId_number: { tournamentId: id, number } } }) : null;
    for (const [tableNo, table] of plan.tables.entries()) {
      const started = await this.games.startGame(tx, {
        board: board ? { id: board.boardId, seed: board.seed } : null,
        lobbyId: null,
        preset: t.preset,
        options: (t.options ?? {}) as Record<string, unknown>,
        seats: table.map((playerId, seat) => ({ seat, playerId })),
        timeControl: storedTimeControl(t.timeControl),
        rated: t.rated,
      });
      if (!t.vacationAllowed) await tx.game.update({ where: { id: started.gameId }, data: { vacationAllowed: false } });
      await tx.tournamentGame.create({ data: { tournamentId: id, round: number, tableNo, gameId: started.gameId, board: board ? number : null } });
      sink.games.push(started.gameId);
      sink.feed.push(...started.feed);
    }
    if (deadline) {
      await tx.$executeRaw(setGameJobsSql([{ task: TOURNAMENT_DEADLINE_TASK, key: `tournament-deadline:${id}:${number}`, payload: { tournamentId: id, round: number }, runAt: deadline }]));
    }
    await tx.tournament.update({ where: { id }, data: { round: number } });
    // Arena: a round is the tables one seating sat down; it concerns only them.
    const feed = this.updated(t, t.format === 'arena' ? plan.tables.flat() : activeIds(t), 'roundStarted', number);
    // No game to wait for: the round finishes now, and the next starts (or the event ends).
    if (unplayed) return [...feed, ...(await this.afterCount(tx, id, number, sink))];
    return feed;
  }

  /** The tables of round `number`: round-robin from its schedule, Swiss from the standings so far. */
  private async plan(tx: Tx, t: TournamentRow, number: number): Promise<RoundPlan> {
    const active = activeIds(t);
    if (t.format === 'round-robin') {
      // The schedule is made from the field at the start (in joining order) and kept: a withdrawn
      // player's table plays without them only if still a table; otherwise the round is re-planned.
      const plan = roundRobinRounds(joiningOrder(t), t.tableSize, storedFormatOptions(t.formatOptions).rounds)[number - 1];
      if (plan && plan.tables.every((table) => table.every((p) => active.includes(p)))) return plan;
    }
    if (t.format === 'duplicate') {
      // The schedule of the starting field, kept: a table with a withdrawn player is not played,
      // its other players sit the board out (they are compared on the boards they hold).
      const plan = duplicateRounds(joiningOrder(t), t.tableSize, storedFormatOptions(t.formatOptions).rounds ?? 1)[number - 1];
      const tables = plan.tables.filter((table) => table.every((p) => active.includes(p)));
      const seated = new Set(tables.flat());
      return { tables, byes: active.filter((p) => !seated.has(p)) };
    }
    let results = await this.results(tx, t.id);
    if (t.format === 'duplicate') {
      const released = await tx.tournamentBoard.findMany({ where: { tournamentId: t.id, releasedAt: { not: null } }, select: { number: true } });
      const shown = new Set(released.map((b) => b.number));
      results = results.filter((r) => shown.has(r.board!));
    }
    const table = standings('swiss', active, t.tableSize, results, await this.byes(tx, t.id));
    return swissRound(active, t.tableSize, table, results, `${t.id}:${number}`);
  }

  /** Rounds to play: Swiss as chosen, round-robin as its schedule for the starting field. */
  private roundCount(t: TournamentRow): number {
    const options = storedFormatOptions(t.formatOptions);
    if (t.format === 'round-robin') return roundRobinRounds(t.players.map((p) => p.playerId), t.tableSize, options.rounds).length;
    // Duplicate: one round per board.
    return options.rounds ?? 1;
  }

  /** The finished, counted games of the tournament as results, from the games' own rows. */
  private async results(db: Tx | PrismaService, id: string): Promise<GameResult[]> {
    const rows = await db.tournamentGame.findMany({ where: { tournamentId: id, countedAt: { not: null } }, select: { round: true, gameId: true, board: true } });
    const games = await db.game.findMany({
      where: { id: { in: rows.map((r) => r.gameId) } },
      select: { id: true, totals: true, endSeat: true, seats: { orderBy: { seat: 'asc' }, select: { playerId: true } } },
    });
    const row = new Map(rows.map((r) => [r.gameId, r]));
    return games
      .map((g) => gameResult(row.get(g.id)!.round, g.seats.map((s) => s.playerId), g.totals, g.endSeat, row.get(g.id)!.board))
      .sort((a, b) => a.round - b.round || (a.table[0] < b.table[0] ? -1 : 1));
  }

  private async byes(db: Tx | PrismaService, id: string): Promise<{ round: number; playerId: string }[]> {
    const rounds = await db.tournamentRound.findMany({ where: { tournamentId: id }, select: { number: true, byes: true }, orderBy: { number: 'asc' } });
    return rounds.flatMap((r) => r.byes.map((playerId) => ({ round: r.number, playerId })));
  }

  /** The standings recomputed from the games (what the cache on the tournament's row holds). */
  async standings(id: string, viewerId?: string): Promise<Standing[]> {
    await this.get(id, viewerId);
    const t = await this.prisma.tournament.findUniqueOrThrow({ where: { id }, select: { standings: true } });
    return t.standings as unknown as Standing[];
  }

  @OutboxConsumer('gameFinished', 'tournaments')
  async gamesFinished(items: OutboxItem<'gameFinished'>[]): Promise<void> {
    await this.countGames(items.map((i) => i.gameId));
  }

  /** countGames for one game: true if this call counted it. */
  async countGame(gameId: string): Promise<boolean> {
    return (await this.countGames([gameId])) > 0;
  }

  /**
   * Counts finished tournament games once each, one transaction per tournament (the ends of a
   * round's close arrive together: one standings computation for them all); completes each round
   * whose last game this was and starts the next. Answers how many games this call counted.
   */
  async countGames(gameIds: readonly string[]): Promise<number> {
    const entries = await this.prisma.tournamentGame.findMany({ where: { gameId: { in: [...new Set(gameIds)] }, countedAt: null }, select: { tournamentId: true, gameId: true } });
    const byTournament = new Map<string, string[]>();
    for (const e of entries) byTournament.set(e.tournamentId, [...(byTournament.get(e.tournamentId) ?? []), e.gameId]);
    let counted = 0;
    for (const [tournamentId, ids] of byTournament) {
      await this.inTournament(tournamentId, async (tx, _t, started) => {
        const claimed = await tx.$queryRaw<{ round: number; game_id: string }[]>`UPDATE tournament_games tg SET counted_at = now()
          FROM games g WHERE tg.game_id = ANY(${ids}::uuid[]) AND tg.counted_at IS NULL AND g.id = tg.game_id AND g.status = 'finished'
          RETURNING tg.round, tg.game_id`;
        counted += claimed.length;
        if (_t.format === 'arena') return claimed.length ? this.arenaAfterCount(tx, _t, claimed.map((c) => c.game_id), claimed.map((c) => c.round)) : [];
        const feed: NewFeedEvent[] = [];
        for (const round of [...new Set(claimed.map((c) => c.round))].sort((a, b) => a - b)) feed.push(...(await this.afterCount(tx, tournamentId, round, started)));
        return feed;
      }, false);
    }
    return counted;
  }

  /** Once the last game of `round` is counted: the round finishes and the next starts, or the event ends. */
  private async afterCount(tx: Tx, id: string, round: number, started: Started): Promise<NewFeedEvent[]> {
    const t = await tx.tournament.findUniqueOrThrow({ where: { id }, include: { players: true } });
    // Duplicate: a board counts once released (below), lest its results tell the other tables anything.
    if (t.format !== 'duplicate') await this.cacheStandings(tx, t);
    const open = await tx.tournamentGame.count({ where: { tournamentId: id, round, countedAt: null } });
    if (open > 0) return [];
    const done = await tx.tournamentRound.updateMany({ where: { tournamentId: id, number: round, status: 'running' }, data: { status: 'finished', finishedAt: new Date() } });
    if (done.count === 0) return [];
    await tx.$executeRaw(removeJobsSql([`tournament-deadline:${id}:${round}`]));
    if (t.format === 'duplicate') {
      // Every table of the board has finished: its cards and comparison are shown from this commit on.
      const board = await tx.tournamentBoard.findUniqueOrThrow({ where: { tournamentId_number: { tournamentId: id, number: round } } });
      await this.games.releaseBoard(board.boardId, tx);
      await tx.tournamentBoard.update({ where: { tournamentId_number: { tournamentId: id, number: round } }, data: { releasedAt: new Date() } });
      await this.cacheStandings(tx, t);
    }
    if (round >= this.roundCount(t) || activeIds(t).length < minField(t)) {
      await tx.tournament.update({ where: { id }, data: { status: 'finished', finishedAt: new Date() } });
      return this.updated(t, activeIds(t), 'finished', round);
    }
    return [...this.updated(t, activeIds(t), 'roundFinished', round), ...(await this.startRound(tx, id, round + 1, started))];
  }

  /**
   * Arena, after games are counted: their players (still entered) wait again while the window is
   * open, and the seat job is due now; the rounds whose games are all counted finish; past the
   * window with no game left under way, the standings are final and the arena finished.
   */
  private async arenaAfterCount(tx: Tx, t: TournamentRow, gameIds: string[], rounds: number[]): Promise<NewFeedEvent[]> {
    await this.cacheStandings(tx, t);
    const now = new Date();
    for (const round of new Set(rounds)) {
      const open = await tx.tournamentGame.count({ where: { tournamentId: t.id, round, countedAt: null } });
      if (open === 0) await tx.tournamentRound.updateMany({ where: { tournamentId: t.id, number: round, status: 'running' }, data: { status: 'finished', finishedAt: now } });
    }
    if (now < arenaEndsAt(t.formatOptions, t.startedAt!)) {
      const seats = await tx.gameSeat.findMany({ where: { gameId: { in: gameIds } }, select: { playerId: true } });
      const back = seats.map((s) => s.playerId).filter((p) => activeIds(t).includes(p));
      await tx.tournamentPlayer.updateMany({ where: { tournamentId: t.id, playerId: { in: back } }, data: { waitingSince: now } });
      await tx.$executeRaw(setGameJobsSql([{ task: TOURNAMENT_ARENA_SEAT_TASK, key: arenaSeatKey(t.id), payload: { tournamentId: t.id }, runAt: now }]));
      return [];
    }
    return this.arenaFinishIfDone(tx, t);
  }

  /** Past the window: finished once no game is under way (the last count, or the end job, sees it). */
  private async arenaFinishIfDone(tx: Tx, t: TournamentRow): Promise<NewFeedEvent[]> {
    if (t.status !== 'running') return [];
    const open = await tx.tournamentGame.count({ where: { tournamentId: t.id, countedAt: null } });
    if (open > 0) return [];
    await tx.tournamentPlayer.updateMany({ where: { tournamentId: t.id }, data: { waitingSince: null } });
    await tx.tournament.update({ where: { id: t.id }, data: { status: 'finished', finishedAt: new Date() } });
    return this.updated(t, activeIds(t), 'finished');
  }

  /**
   * The arena's seat job (keyed by the tournament: many game ends make one pending job): seats the
   * waiting players `arenaTables` says sit down now, as one round; while others still wait for a
   * table of equals, it comes back when the longest waiter's wait is up. Idempotent: the seated
   * wait no more, so a repeat seats nobody twice.
   */
  async arenaSeat(id: string): Promise<void> {
    await this.inTournament(id, async (tx, t, started) => {
      const now = new Date();
      if (t.format !== 'arena' || t.status !== 'running' || now >= arenaEndsAt(t.formatOptions, t.startedAt!)) return [];
      const waiting = t.players.filter((p) => p.withdrawnAt === null && p.waitingSince !== null);
      const score = new Map((t.standings as unknown as Standing[]).map((s) => [s.playerId, s.points]));
      const mates = await lastTableMates(tx, id, waiting.map((p) => p.playerId));
      const tables = arenaTables(
        waiting.map((p) => ({ id: p.playerId, score: score.get(p.playerId) ?? 0, waitingSince: p.waitingSince!, lastTableMates: mates.get(p.playerId) ?? [] })),
        t.tableSize,
        now,
        ARENA_MAX_WAIT_MS,
      );
      const seated = tables.flat();
      const feed = tables.length ? await this.startRound(tx, id, t.round + 1, started, { tables, byes: [] }) : [];
      if (seated.length) await tx.tournamentPlayer.updateMany({ where: { tournamentId: id, playerId: { in: seated } }, data: { waitingSince: null } });
      const left = waiting.filter((p) => !seated.includes(p.playerId));
      if (left.length >= t.tableSize) {
        const due = new Date(Math.max(now.getTime() + 100, Math.min(...left.map((p) => p.waitingSince!.getTime())) + ARENA_MAX_WAIT_MS));
        await tx.$executeRaw(setGameJobsSql([{ task: TOURNAMENT_ARENA_SEAT_TASK, key: arenaSeatKey(id), payload: { tournamentId: id }, runAt: due }]));
      }
      return feed;
    }, false);
  }

  /** The arena's end job at endsAt: no table sits down from now; finished at once if no game is under way. */
  async arenaEnd(id: string): Promise<void> {
    await this.inTournament(id, async (tx, t) => {
      if (t.format !== 'arena') return [];
      await tx.$executeRaw(removeJobsSql([arenaSeatKey(id)]));
      await tx.tournamentPlayer.updateMany({ where: { tournamentId: id }, data: { waitingSince: null } });
      return this.arenaFinishIfDone(tx, t);
    }, false);
  }

  /** The deadline job: every game of the round still under way is forfeited by the seat to move. */
  async roundDeadline(id: string, round: number): Promise<void> {
    const open = await this.prisma.tournamentGame.findMany({ where: { tournamentId: id, round, countedAt: null }, select: { gameId: true } });
    for (const { gameId } of open) {
      const game = await this.prisma.game.findUnique({ where: { id: gameId }, select: { status: true, version: true, toMove: true } });
      if (game?.status === 'active') {
        try {
          await this.moves.forfeit(gameId, game.toMove ?? 0, game.version);
        } catch (error) {
          if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
        }
      }
    }
  }

  private async cacheStandings(tx: Tx, t: TournamentRow): Promise<void> {
    const results = await this.results(tx, t.id);
    const table = standings(t.format as RunningFormat, t.players.map((p) => p.playerId), t.tableSize, results, await this.byes(tx, t.id), storedFormatOptions(t.formatOptions).arenaStreak ?? false);
    await tx.tournament.update({ where: { id: t.id }, data: { standings: table as unknown as Prisma.InputJsonArray } });
  }

  /**
   * Runs `change` holding the tournament's row lock; the feed events it answers are written in the
   * same transaction and published after it. `checkExists` false: a missing tournament is no error (jobs).
   */
  private async inTournament(id: string, change: (tx: Tx, t: TournamentRow, started: Started) => Promise<NewFeedEvent[]>, checkExists = true): Promise<void> {
    const started: Started = { games: [], feed: [] };
    const feed = await this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM tournaments WHERE id = ${id}::uuid FOR UPDATE`;
      if (locked.length === 0) {
        if (checkExists) throw notFound('Tournament');
        return [];
      }
      const t = await tx.tournament.findUniqueOrThrow({ where: { id }, include: { players: true } });
      const events = await change(tx, t, started);
      // The stream's position: a change of its players or games too (the row itself may be untouched).
      await tx.$executeRaw`UPDATE tournaments SET updated_at = clock_timestamp() WHERE id = ${id}::uuid`;
      await this.feed.add(tx, events);
      return events;
    }, TX_OPTIONS);
    this.feed.published([...feed, ...started.feed]);
    this.bus.published(id);
    // Each new game's first turn: played at once by this instance's bots when theirs (as a lobby's start does).
    for (const gameId of started.games) this.outbox.committed({ gameId, seq: 1, entries: null });
  }

  /** `tournamentUpdated` for these players (people only: a server bot reads no feed). */
  private updated(t: TournamentRow, playerIds: string[], change: Change, round = t.round): NewFeedEvent[] {
    const bots = new Set(t.players.filter((p) => p.bot).map((p) => p.playerId));
    return [...new Set(playerIds)]
      .filter((p) => !bots.has(p))
      .map((playerId) => ({
        playerId,
        type: 'tournamentUpdated' as const,
        gameId: null,
        lobbyId: null,
        seq: null,
        payload: { tournamentId: t.id, status: statusAfter(t.status, change), round, change },
      }));
  }

  private async views(rows: TournamentRow[]): Promise<TournamentView[]> {
    const boards = await this.boardViews(rows.filter((t) => t.format === 'duplicate').map((t) => t.id));
    return rows.map((t) => ({
      id: t.id,
      name: t.name,
      creatorId: t.creatorId,
      preset: t.preset,
      options: t.options as Record<string, unknown>,
      format: t.format,
      rounds: storedFormatOptions(t.formatOptions).rounds ?? null,
      roundMinutes: storedFormatOptions(t.formatOptions).roundMinutes ?? null,
      minutes: storedFormatOptions(t.formatOptions).minutes ?? null,
      endsAt: t.format === 'arena' && t.startedAt ? arenaEndsAt(t.formatOptions, t.startedAt) : null,
      arenaStreak: storedFormatOptions(t.formatOptions).arenaStreak ?? false,
      tableSize: t.tableSize,
      timeControl: storedTimeControl(t.timeControl) as TournamentView['timeControl'],
      vacationAllowed: t.vacationAllowed,
      startsAt: t.startsAt,
      minPlayers: t.minPlayers,
      maxPlayers: t.maxPlayers,
      rated: t.rated,
      visibility: t.visibility,
      featured: t.featured,
      botLevel: t.botLevel,
      status: t.status,
      round: t.round,
      players: t.players
        .slice()
        .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime())
        .map((p) => ({ playerId: p.playerId, bot: p.bot, joinedAt: p.joinedAt, withdrawnAt: p.withdrawnAt })),
      tieBreaks: [...(TIE_BREAKS[t.format as RunningFormat] ?? [])],
      standings: (t.standings as unknown as Standing[]).map((s) => ({ ...s, bot: t.players.some((p) => p.playerId === s.playerId && p.bot) })),
      createdAt: t.createdAt,
      startedAt: t.startedAt,
      finishedAt: t.finishedAt,
      inviteCode: null,
      boards: boards.get(t.id) ?? [],
    }));
  }

  /**
   * Duplicate boards by tournament: the seed's hash always; the seed and the comparison (each
   * result's matchpoints among those who held the same cards) only once the board is released.
   */
  private async boardViews(ids: string[]): Promise<Map<string, TournamentBoardView[]>> {
    const out = new Map<string, TournamentBoardView[]>();
    if (ids.length === 0) return out;
    const boards = await this.prisma.tournamentBoard.findMany({ where: { tournamentId: { in: ids } }, orderBy: [{ tournamentId: 'asc' }, { number: 'asc' }] });
    const released = boards.filter((b) => b.releasedAt !== null);
    const entries = released.length
      ? await this.prisma.tournamentGame.findMany({ where: { OR: released.map((b) => ({ tournamentId: b.tournamentId, board: b.number })), countedAt: { not: null } }, select: { tournamentId: true, round: true, board: true, gameId: true } })
      : [];
    const games = await this.prisma.game.findMany({
      where: { id: { in: entries.map((e) => e.gameId) } },
      select: { id: true, totals: true, endSeat: true, seats: { orderBy: { seat: 'asc' }, select: { playerId: true } } },
    });
    const gameById = new Map(games.map((g) => [g.id, g]));
    for (const b of boards) {
      const played = entries
        .filter((e) => e.tournamentId === b.tournamentId && e.board === b.number)
        .map((e) => {
          const g = gameById.get(e.gameId)!;
          return gameResult(e.round, g.seats.map((s) => s.playerId), g.totals, g.endSeat, b.number);
        });
      const view: TournamentBoardView = {
        number: b.number,
        seedHash: b.seedHash,
        released: b.releasedAt !== null,
        seed: b.releasedAt ? b.seed : null,
        results: b.releasedAt ? boardComparison(played) : null,
      };
      out.set(b.tournamentId, [...(out.get(b.tournamentId) ?? []), view]);
    }
    return out;
  }
}

/**
 * Arena: who sat with each of `playerIds` at their latest table of the tournament (the highest
 * round they were seated in), so that `arenaTables` does not seat them together again while
 * others wait.
 */
async function lastTableMates(tx: Tx, tournamentId: string, playerIds: readonly string[]): Promise<Map<string, string[]>> {
  if (playerIds.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ player_id: string; mates: string[] }[]>`
    SELECT latest.player_id, array_agg(other.player_id::text) AS mates
      FROM (SELECT DISTINCT ON (s.player_id) s.player_id, tg.game_id
              FROM tournament_games tg JOIN game_seats s ON s.game_id = tg.game_id
             WHERE tg.tournament_id = ${tournamentId}::uuid AND s.player_id = ANY(${playerIds}::uuid[])
             ORDER BY s.player_id, tg.round DESC) latest
      JOIN game_seats other ON other.game_id = latest.game_id AND other.player_id <> latest.player_id
     GROUP BY latest.player_id`;
  return new Map(rows.map((r) => [String(r.player_id), r.mates]));
}

const startKey = (id: string) => `tournament-start:${id}`;
/** The arena end job's key (one per tournament). */
export const arenaEndKey = (id: string) => `tournament-arena-end:${id}`;
const arenaSeatKey = (id: string) => `tournament-arena-seat:${id}`;
/** Arena: the window closes `minutes` after the start. */
const arenaEndsAt = (formatOptions: unknown, startedAt: Date) => new Date(startedAt.getTime() + (storedFormatOptions(formatOptions).minutes ?? 0) * 60_000);
/** The smallest field that plays: a table, or two for duplicate (a board is compared across tables). */
const minField = (t: { format: string; tableSize: number }) => (t.format === 'duplicate' ? 2 * t.tableSize : t.tableSize);
const joiningOrder = (t: TournamentRow) => t.players.slice().sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || (a.playerId < b.playerId ? -1 : 1)).map((p) => p.playerId);
const activeIds = (t: TournamentRow) => t.players.filter((p) => p.withdrawnAt === null).map((p) => p.playerId);

function statusAfter(status: string, change: Change): string {
  if (change === 'started' || change === 'roundStarted' || change === 'roundFinished') return 'running';
  if (change === 'finished') return 'finished';
  if (change === 'cancelled') return 'cancelled';
  return status;
}

function idOf(payload: unknown): string {
  const id = (payload as { tournamentId?: unknown })?.tournamentId;
  if (typeof id !== 'string') throw new Error('a tournament job without its tournamentId');
  return id;
}

function roundOf(payload: unknown): number {
  const round = (payload as { round?: unknown })?.round;
  if (typeof round !== 'number') throw new Error('a round deadline job without its round');
  return round;
}
