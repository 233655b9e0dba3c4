import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createHash } from 'node:crypto';
import { makeRules } from '@mizerka/rules';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import type { AppConfig } from '../config/app-config.js';
import { badInput, DomainError, notFound } from '../common/errors.js';
import { decodeCursor, encodeCursor, pageOf } from '../common/paging.js';
import {
  familyOf,
  gameCommitSql,
  type GamePlayer,
  gamePlayers,
  importedSeats,
  parseFamily,
  parsePlayerCount,
  PRESETS_OF_FAMILY,
  SEAT_PLAYER,
} from '../games/index.js';
import { queryRows } from '../common/sql-query.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { ReplicaPrisma } from '../prisma/replica-prisma.js';
import type { GameFilterInput } from './dto/history.args.js';
import { MAX_PLAYERS_NAMED } from './dto/history.args.js';
import { gamesPageSql, recentImportsSql, type GameRow, type GamesQuery } from './history.sql.js';
import { ImportReplayer } from './import-replayer.js';
import type { GameConnection, GameHistoryItem, GameHistoryPage, ImportedGame, MyGamesPage } from './models/history.model.js';

/** A filter as both surfaces give it: names, not ids yet. */
export type GamesFilter = Omit<GameFilterInput, 'players'> & { players?: string[] | null };

/**
 * Match history: games by player and filter (newest first, by cursor), the filter of an export
 * (ExportService streams it), and the import of a record as an archived game.
 */
@Injectable()
export class HistoryService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly replayer: ImportReplayer,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly replica: ReplicaPrisma,
  ) {}

  /**
   * Where a list is read: the read replica (DATABASE_REPLICA_URL; else the primary) for lists that
   * can include finished games; the primary for lists of active games only, whose turns move on.
   */
  private readsOf(filter: GamesFilter): Db {
    return filter.status === 'active' ? this.prisma : this.replica.client;
  }

  /** A page of games as a Relay connection. */
  async connection(filter: GamesFilter, first: number, after: string | null | undefined, caller?: AuthenticatedPlayer): Promise<GameConnection> {
    const page = await this.page(filter, first, after, caller);
    return {
      edges: page.items.map((node) => ({ node, cursor: encodeCursor({ at: node.createdAt, id: node.id }) })),
      pageInfo: { hasNextPage: page.hasMore, endCursor: page.nextCursor },
    };
  }

  /** The caller's games (GET /games): the same list, with their seat and turn in each. */
  async mine(caller: AuthenticatedPlayer, filter: GamesFilter, first: number, after: string | null | undefined): Promise<MyGamesPage> {
    // The caller's own games, with whose turn it is: the primary's, never a replica's behind it.
    const q = await this.query(filter, after ?? null, caller, this.prisma);
    q.playerIds = [caller.id, ...q.playerIds.filter((id) => id !== caller.id)];
    const page = await this.read(q, first, this.prisma);
    return {
      ...page,
      items: page.items.map(({ item, row }) => {
        const mySeat = item.players.find((p) => p.playerId === caller.id)!.seat;
        return { ...item, version: row.version, toMove: row.to_move, mySeat, myTurn: row.to_move === mySeat, updatedAt: row.updated_at };
      }),
    };
  }

  /** A page of games as the REST lists give it; the same cursors as the connection. */
  async page(filter: GamesFilter, first: number, after: string | null | undefined, caller?: AuthenticatedPlayer): Promise<GameHistoryPage> {
    const db = this.readsOf(filter);
    const page = await this.read(await this.query(filter, after ?? null, caller, db), first, db);
    return { ...page, items: page.items.map((i) => i.item) };
  }

  private async read(q: GamesQuery, first: number, db: Db) {
    const rows = await queryRows(db, gamesPageSql(q, first));
    const page = pageOf(rows, first, (g) => ({ at: g.created_at, id: g.id }));
    const seats = await db.gameSeat.findMany({
      where: { gameId: { in: page.items.map((g) => g.id) } },
      orderBy: [{ gameId: 'asc' }, { seat: 'asc' }],
      select: { gameId: true, seat: true, playerId: true, place: true, player: { select: SEAT_PLAYER } },
    });
    const importers = await this.namesOf(db, page.items.flatMap((g) => (g.imported_by ? [g.imported_by] : [])));
    const items = page.items.map((g): { item: GameHistoryItem; row: GameRow } => ({ row: g, item: {
      id: g.id,
      preset: g.preset,
      family: familyOf(g.preset) ?? 'contract',
      playerCount: g.players,
      players: placesWhenOver(
        g.status,
        gamePlayers(
          seats.filter((s) => s.gameId === g.id),
          g.totals,
          importedSeats({ importedBy: g.imported_by, seatNames: g.seat_names, seatBots: g.seat_bots, endSeat: g.end_seat }),
        ),
      ),
      status: g.status === 'active' ? 'active' : g.end_reason === 'forfeit' ? 'forfeited' : 'finished',
      rated: g.rated,
      imported: g.imported_by !== null,
      importedBy: g.imported_by ? (importers.get(g.imported_by) ?? null) : null,
      createdAt: g.created_at,
      finishedAt: g.finished_at,
      endReason: g.end_reason,
    } }));
    return { items, nextCursor: page.nextCursor, hasMore: page.hasMore };
  }

  /**
   * Imports a finished game's record as an archived game of `importer`: unrated, finished, marked
   * imported. Its deals, tricks and log are written as a played game's, from one replay in a worker
   * thread (ImportReplayer), so every surface reads it the same way and the event loop is free
   * meanwhile. The importer holds `seat` (default: the seat the record names them at); the other
   * seats are names only. The same record imported again by the same player answers the game the
   * first import made; a player imports at most `imports.perPlayerPerHour` records an hour.
   */
  async import(importer: AuthenticatedPlayer, input: unknown, seatArg: number | null | undefined): Promise<ImportedGame> {
    // The record's text as sent, keys in its order: the same record sent again hashes the same.
    const importHash = createHash('sha256').update(JSON.stringify(input) ?? '').digest('hex');
    const earlier = await this.importedBefore(importer.id, importHash);
    if (earlier) return earlier;
    const limits = this.config.get('imports', { infer: true });
    const [recent] = await queryRows(this.prisma, recentImportsSql(importer.id));
    if (recent.n >= limits.perPlayerPerHour) {
      throw new DomainError('RATE_LIMITED', `At most ${limits.perPlayerPerHour} records may be imported an hour; try again later`, {
        limit: 'importsPerHour',
        max: limits.perPlayerPerHour,
      });
    }
    const me = await this.prisma.player.findUniqueOrThrow({ where: { id: importer.id }, select: { name: true } });
    const planned = await this.replayer.plan(importer.id, {
      record: input,
      seat: seatArg ?? null,
      importerId: importer.id,
      importerName: me.name,
      importHash,
      maxDeals: limits.maxDeals,
    });
    if (!planned.ok) throw badInput(planned.refusal.message, planned.refusal.details);
    // One statement, as every game commit (~18,000 rows for the largest record, written in well
    // under a second on an idle machine); it writes nothing when a request of theirs with the same
    // record got in first.
    const [written] = await queryRows(this.prisma, gameCommitSql(planned.plan.projection));
    if (written.applied === 0) return (await this.importedBefore(importer.id, importHash))!;
    return { gameId: planned.plan.projection.gameId, seat: planned.plan.seat };
  }

  /** The game `playerId` made by importing the record of `importHash`, and their seat in it. */
  private async importedBefore(playerId: string, importHash: string): Promise<ImportedGame | null> {
    const game = await this.prisma.game.findUnique({
      where: { importedBy_importHash: { importedBy: playerId, importHash } },
      select: { id: true, seats: { where: { playerId }, select: { seat: true } } },
    });
    return game ? { gameId: game.id, seat: game.seats[0].seat } : null;
  }

  /** Names resolved to ids (NOT_FOUND naming one that is nobody's), and the filter's other bounds checked. */
  async query(filter: GamesFilter, after: string | null, caller?: AuthenticatedPlayer, db: Db = this.readsOf(filter)): Promise<GamesQuery> {
    const names = filter.players ?? [];
    if (names.length > MAX_PLAYERS_NAMED) throw badInput(`players: at most ${MAX_PLAYERS_NAMED} names`, { field: 'players' });
    const keys = [...new Set(names.map((n) => n.toLowerCase()))];
    const found = await db.player.findMany({ where: { nameKey: { in: keys } }, select: { id: true, nameKey: true } });
    const playerIds = keys.map((key) => {
      const hit = found.find((p) => p.nameKey === key);
      if (!hit) throw notFound(`Player ${JSON.stringify(names.find((n) => n.toLowerCase() === key))}`);
      return hit.id;
    });
    let presets: string[] | null = null;
    if (filter.preset != null) {
      const rules = makeRules(filter.preset);
      if (!rules.ok) throw badInput(`preset: ${rules.error.message}`, { field: 'preset' });
      presets = [rules.value.preset];
    }
    if (filter.family != null) {
      const ofFamily = PRESETS_OF_FAMILY[parseFamily(filter.family)];
      presets = presets ? presets.filter((p) => ofFamily.includes(p)) : [...ofFamily];
      if (presets.length === 0) presets = ['-']; // a preset of the other family: nothing matches
    }
    if (filter.playerCount != null) parsePlayerCount(filter.playerCount, 'playerCount');
    if (filter.place != null && (filter.place < 1 || filter.place > 4)) throw badInput('place must be 1 to 4', { field: 'place' });
    const needsSubject = filter.result != null || filter.place != null;
    if (needsSubject && playerIds.length === 0 && !caller) {
      throw badInput('result and place are of the first named player, or of the caller: name a player or send a token', {
        field: filter.result != null ? 'result' : 'place',
      });
    }
    return {
      playerIds,
      subjectId: needsSubject ? (caller?.id ?? null) : null,
      presets,
      playerCount: filter.playerCount ?? null,
      status: filter.status ?? null,
      rated: filter.rated ?? null,
      imported: filter.imported ?? null,
      from: filter.from ?? null,
      to: filter.to ?? null,
      result: filter.result ?? null,
      place: filter.place ?? null,
      after: after ? decodeCursor(after) : null,
    };
  }

  private async namesOf(db: Db, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db.player.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true } });
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}

/** The primary's client or the replica's. */
type Db = ReplicaPrisma['client'];

/** A list's summary gives a place once the game is over, as its field says: a rank by totals so far is no place. */
function placesWhenOver(status: GameRow['status'], players: GamePlayer[]): GamePlayer[] {
  return status === 'active' ? players.map((p) => ({ ...p, place: null })) : players;
}
