import { Injectable } from '@nestjs/common';
import {
  apply,
  cardName,
  dealerOf,
  dealWithEvents,
  endGame,
  formatRecordError,
  makeRules,
  moveFromJson,
  newGame,
  parseCard,
  parseRecord,
  phase,
  placesOf,
  replay,
  serializeState,
  type Card,
  type GameEvent,
  type GameRecord,
  type GameState,
  type RecordError,
} from '@mizerka/rules';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { badInput, notFound } from '../common/errors.js';
import { decodeCursor, encodeCursor, pageOf } from '../common/paging.js';
import { Prisma } from '../generated/prisma/client.js';
import { familyOf, type GamePlayer, gamePlayers, importedSeats, parseFamily, parsePlayerCount, PRESETS_OF_FAMILY, SEAT_PLAYER, seedHashOf } from '../games/index.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { GameFilterInput } from './dto/history.args.js';
import { MAX_PLAYERS_NAMED } from './dto/history.args.js';
import { gamesPageSql, type GameRow, type GamesQuery } from './history.sql.js';
import { storeRecords } from './stored-records.js';
import type { GameConnection, GameHistoryItem, GameHistoryPage, ImportedGame, MyGamesPage } from './models/history.model.js';

/** A filter as both surfaces give it: names, not ids yet. */
export type GamesFilter = Omit<GameFilterInput, 'players'> & { players?: string[] | null };

/** The longest name an imported record may give a seat. */
const SEAT_NAME_MAX = 64;

/**
 * Match history: games by player and filter (newest first, by cursor), the filter of an export
 * (ExportService streams it), and the import of a record as an archived game.
 */
@Injectable()
export class HistoryService {
  constructor(
    private readonly prisma: PrismaService,
  ) {}

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
    const q = await this.query(filter, after ?? null, caller);
    q.playerIds = [caller.id, ...q.playerIds.filter((id) => id !== caller.id)];
    const page = await this.read(q, first);
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
    const page = await this.read(await this.query(filter, after ?? null, caller), first);
    return { ...page, items: page.items.map((i) => i.item) };
  }

  private async read(q: GamesQuery, first: number) {
    const rows = await this.prisma.$queryRaw<GameRow[]>(gamesPageSql(q, first));
    const page = pageOf(rows, first, (g) => ({ at: g.created_at, id: g.id }));
    const seats = await this.prisma.gameSeat.findMany({
      where: { gameId: { in: page.items.map((g) => g.id) } },
      orderBy: [{ gameId: 'asc' }, { seat: 'asc' }],
      select: { gameId: true, seat: true, playerId: true, place: true, player: { select: SEAT_PLAYER } },
    });
    const importers = await this.namesOf(page.items.flatMap((g) => (g.imported_by ? [g.imported_by] : [])));
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
          importedSeats({ importedBy: g.imported_by, seatNames: g.seat_names, endSeat: g.end_seat }),
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
   * imported. Its deals, tricks and log are written as a played game's, from the replay, so every
   * surface reads it the same way. The importer holds `seat` (default: the seat the record names
   * them at); the other seats are names only.
   */
  async import(importer: AuthenticatedPlayer, input: unknown, seatArg: number | null | undefined): Promise<ImportedGame> {
    const parsed = parseRecord(input);
    if (!parsed.ok) throw recordRefused(parsed.error);
    const record = parsed.value;
    const replayed = replay(record);
    if (!replayed.ok) throw recordRefused(replayed.error);
    if (!replayed.value.outcome.finished) {
      throw badInput('record: only a finished game can be imported; this record stops before the end', { field: 'record' });
    }
    const rules = makeRules(record.rules.preset, record.rules.options);
    if (!rules.ok) throw badInput(rules.error.message, { field: 'record' });
    const n = rules.value.players;
    const names = record.players ?? Array.from({ length: n }, (_, seat) => `seat ${seat}`);
    if (names.some((name) => name.length === 0 || name.length > SEAT_NAME_MAX)) {
      throw badInput(`record: each of players must be 1 to ${SEAT_NAME_MAX} characters long`, { field: 'record.players' });
    }
    const me = await this.prisma.player.findUniqueOrThrow({ where: { id: importer.id }, select: { name: true } });
    const seat = seatArg ?? names.findIndex((name) => name.toLowerCase() === me.name.toLowerCase());
    if (seat < 0 || seat >= n || !Number.isInteger(seat)) {
      throw badInput(
        seatArg == null
          ? `seat: the record names no seat ${me.name}; say which seat was yours`
          : `seat must be a seat of the game, 0 to ${n - 1}`,
        { field: 'seat' },
      );
    }
    const log = logOf(record);
    const end = replayed.value.outcome;
    const places = placesOf(end.totals, end.end?.seat ?? null);
    const finalState = replayed.value.state;
    const createdAt = new Date(); // the game's and its seat's, the same value
    const gameId = await this.prisma.$transaction(async (tx) => {
      const game = await tx.game.create({
        data: {
          preset: rules.value.preset,
          options: rules.value.options as Prisma.InputJsonObject,
          players: n,
          firstDealer: record.firstDealer,
          status: 'finished',
          version: log.entries.length,
          phase: phase(finalState),
          dealIndex: Math.max(0, record.deals.length - 1),
          toMove: null,
          state: serializeState(finalState) as Prisma.InputJsonValue,
          totals: end.totals,
          winners: end.winners,
          endSeat: end.end?.seat ?? null,
          endReason: end.end?.reason ?? null,
          rated: false,
          importedBy: importer.id,
          seatNames: names,
          createdAt,
          finishedAt: new Date(),
          seats: { create: { seat, playerId: importer.id, total: end.totals[seat], place: places[seat], createdAt } },
        },
        select: { id: true },
      });
      await tx.deal.createMany({
        data: record.deals.map((d, index) => {
          const result = end.deals[index];
          const scored = log.scored.has(index);
          return {
            gameId: game.id,
            index,
            dealer: dealerOf(rules.value, record.firstDealer, index),
            seed: null,
            deck: d.deck,
            // Not a commitment (nothing was committed here): the hash of the deck as uploaded.
            seedHash: seedHashOf(d.deck.join(' ')),
            contract: result && 'contract' in result ? result.contract : null,
            declarer: result && 'declarer' in result ? result.declarer : null,
            bid: result && 'bid' in result ? result.bid : null,
            trump: result && 'trump' in result ? (result.trump ?? null) : null,
            tricks: scored ? (result.tricks as Prisma.InputJsonValue) : Prisma.DbNull,
            scores: scored && result.scores ? (result.scores as Prisma.InputJsonValue) : Prisma.DbNull,
            finishedAt: scored ? new Date() : null,
          };
        }),
      });
      if (log.tricks.length > 0) await tx.trick.createMany({ data: log.tricks.map((t) => ({ ...t, gameId: game.id })) });
      await tx.gameEvent.createMany({
        data: log.entries.map((e, i) => ({
          gameId: game.id,
          seq: i + 1,
          kind: e.kind,
          dealIndex: e.dealIndex,
          seat: e.seat,
          playerId: e.seat === seat ? importer.id : null,
          actor: e.kind === 'deal' ? 'system' : 'player',
          cause: e.cause,
          move: e.move === null ? Prisma.DbNull : (e.move as Prisma.InputJsonValue),
          events: e.events as unknown as Prisma.InputJsonValue,
        })),
      });
      // Its record at once, from the rows just written, as the gameFinished consumer builds a played game's.
      await storeRecords(tx, [game.id]);
      return game.id;
    });
    return { gameId, seat };
  }

  /** Names resolved to ids (NOT_FOUND naming one that is nobody's), and the filter's other bounds checked. */
  async query(filter: GamesFilter, after: string | null, caller?: AuthenticatedPlayer): Promise<GamesQuery> {
    const names = filter.players ?? [];
    if (names.length > MAX_PLAYERS_NAMED) throw badInput(`players: at most ${MAX_PLAYERS_NAMED} names`, { field: 'players' });
    const keys = [...new Set(names.map((n) => n.toLowerCase()))];
    const found = await this.prisma.player.findMany({ where: { nameKey: { in: keys } }, select: { id: true, nameKey: true } });
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

  private async namesOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.prisma.player.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true } });
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}

/** A list's summary gives a place once the game is over, as its field says: a rank by totals so far is no place. */
function placesWhenOver(status: GameRow['status'], players: GamePlayer[]): GamePlayer[] {
  return status === 'active' ? players.map((p) => ({ ...p, place: null })) : players;
}


function recordRefused(error: RecordError) {
  return badInput(`record: ${formatRecordError(error)}`, {
    field: 'record',
    rule: error.rule,
    dealIndex: error.dealIndex,
    moveIndex: error.moveIndex,
  });
}

interface ImportEntry {
  kind: string;
  dealIndex: number;
  seat: number | null;
  cause: string | null;
  move: unknown;
  events: GameEvent[];
}

/** The event log, tricks and scored deals of a record that replays (replay has checked every step). */
function logOf(record: GameRecord): {
  entries: ImportEntry[];
  tricks: { dealIndex: number; index: number; leader: number; cards: string[]; winner: number }[];
  scored: Set<number>;
} {
  const rules = makeRules(record.rules.preset, record.rules.options);
  if (!rules.ok) throw new Error(rules.error.message);
  let state: GameState = newGame(rules.value, record.firstDealer);
  const entries: ImportEntry[] = [];
  const tricks: { dealIndex: number; index: number; leader: number; cards: string[]; winner: number }[] = [];
  const scored = new Set<number>();
  const step = (r: { ok: true; value: { state: GameState; events: GameEvent[] } } | { ok: false; error: { message: string } }) => {
    if (!r.ok) throw new Error(`a replayed record refused: ${r.error.message}`);
    state = r.value.state;
    return r.value.events;
  };
  record.deals.forEach((d, dealIndex) => {
    const events = step(dealWithEvents(state, d.deck.map((c) => parseCard(c) as Card)));
    entries.push({ kind: 'deal', dealIndex, seat: null, cause: null, move: null, events });
    for (const m of d.moves) {
      const move = moveFromJson(m);
      if (!move.ok) throw new Error(move.error.message);
      const moved = step(apply(state, move.value));
      const kind = Object.keys(m).find((k) => k !== 'seat')!;
      entries.push({ kind, dealIndex, seat: m.seat, cause: null, move: m, events: moved });
      for (const e of moved) {
        if (e.type === 'trickTaken') tricks.push({ dealIndex, index: e.trick, leader: e.leader, cards: e.cards.map(cardName), winner: e.winner });
        if (e.type === 'dealScored') scored.add(dealIndex);
      }
    }
  });
  if (record.end) {
    const events = step(endGame(state, record.end));
    entries.push({ kind: 'end', dealIndex: Math.max(0, record.deals.length - 1), seat: record.end.seat, cause: record.end.reason, move: null, events });
  }
  return { entries, tricks, scored };
}
