import { Injectable, Logger } from '@nestjs/common';
import { placesOf } from '@mizerka/rules';
import { badInput, notFound } from '../common/errors.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { queryRows } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { familyOf, parseFamily, parsePlayerCount, type FamilyValue } from '../games/index.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { ReplicaPrisma } from '../prisma/replica-prisma.js';
import type { LeaderboardPage, Rating, RatingChange, RatingHistoryPage } from './models/rating.model.js';
import { newSkill, rateTable, skillOrdinal, type Skill } from './rating-math.js';
import {
  claimGameSql,
  gameSeatsSql,
  insertNewRatingsSql,
  leaderboardSql,
  lockRatingsSql,
  playerRatingsSql,
  rateGameSql,
  ratingHistorySql,
  type LeaderboardKey,
  type RatingChangeRow,
} from './ratings.sql.js';

type Tx = Prisma.TransactionClient;

// Rating a game waits for its players' rating rows while another game of theirs is being rated.
const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

/**
 * Ratings: at a rated game's end every player's skill in the game's family and player count is
 * updated (OpenSkill Plackett-Luce, rating-math.ts), with one rating change per player as its
 * history; leaderboards read the ratings by ordinal.
 *
 * Exactly once per game: the outbox hands `gameFinished` to this consumer at least once, on any
 * instance; the transaction that rates a game first claims it (`rated_at` from null to now, on the
 * game's row, which a second claimant waits for and then finds set), so a repeat, a retry after a
 * crash or a second instance rates nothing more. The players' rating rows are locked in player id
 * order, so two games of shared players that end at once are rated one after the other, each
 * from the ratings the other left, and never deadlock.
 */
@Injectable()
export class RatingsService {
  private readonly log = new Logger('Ratings');

  /** Leaderboards and rating histories: the read replica's (DATABASE_REPLICA_URL), else the primary's. */
  private readonly reads: ReplicaPrisma['client'];

  constructor(
    private readonly prisma: PrismaService,
    replica: ReplicaPrisma,
  ) {
    this.reads = replica.client;
  }

  @OutboxConsumer('gameFinished', 'ratings')
  async gamesFinished(items: OutboxItem<'gameFinished'>[]): Promise<void> {
    await this.rateGames(items.map((i) => i.gameId));
  }

  /** Rates each of the games that is rated and not rated yet, one transaction each. */
  async rateGames(gameIds: readonly string[]): Promise<void> {
    for (const gameId of [...new Set(gameIds)]) await this.rateGame(gameId);
  }

  /** Rates one game if it is finished, rated and not rated yet; true if this call rated it. */
  async rateGame(gameId: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const claimed = await queryRows(tx, claimGameSql(gameId));
      if (claimed.length === 0) return false;
      const game = claimed[0];
      const family = familyOf(game.preset);
      if (family === null) {
        // A preset the rules no longer know cannot be rated; the claim stands so that no retry loops on it.
        this.log.error(`game ${gameId} has the unknown preset ${game.preset}; it is not rated`);
        return false;
      }
      const seats = await queryRows(tx, gameSeatsSql(gameId));
      // The places were written with the game's end; should one be missing, the rules give them again.
      const fallback = placesOf(game.totals, game.end_seat);
      const places = seats.map((s) => s.place ?? fallback[s.seat]);
      const before = await lockRatings(tx, family, game.players, seats.map((s) => s.player_id));
      const skills = seats.map((s) => before.get(s.player_id)!);
      const after = rateTable(skills, places);
      const changes = seats.map((s, i): RatingChangeRow => ({
        player_id: s.player_id,
        place: places[i],
        mu_before: skills[i].mu,
        sigma_before: skills[i].sigma,
        mu_after: after[i].mu,
        sigma_after: after[i].sigma,
        ordinal: skillOrdinal(after[i]),
      }));
      for (const statement of rateGameSql(gameId, family, game.players, changes)) await tx.$executeRaw(statement);
      return true;
    }, TX_OPTIONS);
  }

  /** A leaderboard page: players with at least `minGames` rated games, highest ordinal first. */
  async leaderboard(args: { family: string; players: number; minGames: number; first: number; after?: string | null }): Promise<LeaderboardPage> {
    const family = parseFamily(args.family);
    const players = parsePlayerCount(args.players);
    const after = args.after ? decodeLeaderboardCursor(args.after) : null;
    const rows = await queryRows(this.reads, leaderboardSql({ family, players, minGames: args.minGames, after, limit: args.first + 1 }));
    const hasMore = rows.length > args.first;
    const items = hasMore ? rows.slice(0, args.first) : rows;
    const last = items.at(-1);
    return {
      family,
      players,
      minGames: args.minGames,
      entries: items.map((r) => ({
        player: { id: r.player_id, name: r.name, kind: r.kind },
        mu: r.mu,
        sigma: r.sigma,
        ordinal: r.ordinal,
        games: r.games,
        updatedAt: r.updated_at,
      })),
      hasMore,
      nextCursor: hasMore && last ? encodeLeaderboardCursor({ ordinal: last.ordinal, playerId: last.player_id }) : null,
    };
  }

  /** A player's rating changes, newest first, optionally of one family and player count. */
  async history(
    playerId: string,
    args: { family?: string | null; players?: number | null; first: number; after?: string | null },
  ): Promise<RatingHistoryPage> {
    const family = args.family === undefined || args.family === null ? null : parseFamily(args.family);
    const players = args.players === undefined || args.players === null ? null : parsePlayerCount(args.players);
    const after = args.after ? decodeCursor(args.after) : null;
    const rows = await queryRows(this.reads, ratingHistorySql({ playerId, family, players, after, limit: args.first + 1 }));
    const page = pageOf(rows, args.first, (r) => ({ at: r.created_at, id: r.game_id }));
    return {
      changes: page.items.map(
        (r): RatingChange => ({
          gameId: r.game_id,
          preset: r.preset,
          family: r.family,
          players: r.players,
          place: r.place,
          muBefore: r.mu_before,
          sigmaBefore: r.sigma_before,
          ordinalBefore: skillOrdinal({ mu: r.mu_before, sigma: r.sigma_before }),
          muAfter: r.mu_after,
          sigmaAfter: r.sigma_after,
          ordinalAfter: skillOrdinal({ mu: r.mu_after, sigma: r.sigma_after }),
          createdAt: r.created_at,
        }),
      ),
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    };
  }

  /** The rating history of the player named `name`. */
  async historyByName(name: string, args: { family?: string | null; players?: number | null; first: number; after?: string | null }): Promise<RatingHistoryPage> {
    return this.history(await this.playerIdOf(name), args);
  }

  /** A player's current ratings, contract before bidding, 3 players before 4. */
  async ratingsOf(playerId: string): Promise<Rating[]> {
    const rows = await queryRows(this.prisma, playerRatingsSql(playerId));
    return rows.map((r) => ({ family: r.family, players: r.players, mu: r.mu, sigma: r.sigma, ordinal: r.ordinal, games: r.games, updatedAt: r.updated_at }));
  }

  private async playerIdOf(name: string): Promise<string> {
    const found = await this.reads.player.findUnique({ where: { nameKey: name.toLowerCase() }, select: { id: true } });
    if (!found) throw notFound('Player');
    return found.id;
  }
}

/**
 * The players' rating rows in `family` and `players`, locked in player id order: missing ones are
 * first inserted at a newcomer's skill (in the same order, so two games inserting the same newcomer
 * queue on its key instead of crossing), then all are read FOR UPDATE.
 */
async function lockRatings(tx: Tx, family: FamilyValue, players: number, playerIds: string[]): Promise<Map<string, Skill>> {
  const fresh = newSkill();
  await tx.$executeRaw(insertNewRatingsSql(family, players, playerIds, { ...fresh, ordinal: skillOrdinal(fresh) }));
  const rows = await queryRows(tx, lockRatingsSql(family, players, playerIds));
  return new Map(rows.map((r) => [r.player_id, { mu: r.mu, sigma: r.sigma }]));
}

/** base64url of `ordinal|playerId`; a number's shortest decimal form reads back as the same float. */
export function encodeLeaderboardCursor(key: LeaderboardKey): string {
  return Buffer.from(`${key.ordinal}|${key.playerId}`).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function decodeLeaderboardCursor(cursor: string): LeaderboardKey {
  const [ordinal = '', playerId = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const value = Number(ordinal);
  if (rest.length > 0 || !UUID.test(playerId) || ordinal.trim() === '' || !Number.isFinite(value)) {
    throw badInput('after is not a valid cursor; pass the nextCursor of the previous page', { field: 'after' });
  }
  return { ordinal: value, playerId };
}
