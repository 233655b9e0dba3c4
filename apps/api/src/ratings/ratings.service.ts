import { Injectable, Logger } from '@nestjs/common';
import { placesOf } from '@mizerka/rules';
import { badInput, notFound } from '../common/errors.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { Prisma } from '../generated/prisma/client.js';
import { familyOf, parseFamily, parsePlayerCount, type FamilyValue } from '../games/index.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import type { PlayerKindValue } from '../players/models/player-kind.enum.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { LeaderboardPage, Rating, RatingChange, RatingHistoryPage } from './models/rating.model.js';
import { newSkill, rateTable, skillOrdinal, type Skill } from './rating-math.js';
import { leaderboardSql, type LeaderboardKey, playerRatingsSql, ratingHistorySql } from './ratings.sql.js';

type Tx = Prisma.TransactionClient;

// Rating a game waits for its players' rating rows while another game of theirs is being rated.
const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

interface SeatRow {
  seat: number;
  player_id: string;
  place: number | null;
}

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

  constructor(private readonly prisma: PrismaService) {}

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
      const claimed = await tx.$queryRaw<{ preset: string; players: number; totals: number[]; end_seat: number | null }[]>`
        UPDATE games SET rated_at = now()
         WHERE id = ${gameId}::uuid AND rated AND rated_at IS NULL AND status = 'finished' AND imported_by IS NULL
        RETURNING preset, players, totals, end_seat`;
      if (claimed.length === 0) return false;
      const game = claimed[0];
      const family = familyOf(game.preset);
      if (family === null) {
        // A preset the rules no longer know cannot be rated; the claim stands so that no retry loops on it.
        this.log.error(`game ${gameId} has the unknown preset ${game.preset}; it is not rated`);
        return false;
      }
      const seats = await tx.$queryRaw<SeatRow[]>`
        SELECT seat, player_id::text AS player_id, place FROM game_seats WHERE game_id = ${gameId}::uuid ORDER BY seat`;
      // The places were written with the game's end; should one be missing, the rules give them again.
      const fallback = placesOf(game.totals, game.end_seat);
      const places = seats.map((s) => s.place ?? fallback[s.seat]);
      const before = await lockRatings(tx, family, game.players, seats.map((s) => s.player_id));
      const skills = seats.map((s) => before.get(s.player_id)!);
      const after = rateTable(skills, places);
      const rows = seats.map((s, i) => ({
        player_id: s.player_id,
        place: places[i],
        mu_before: skills[i].mu,
        sigma_before: skills[i].sigma,
        mu_after: after[i].mu,
        sigma_after: after[i].sigma,
        ordinal: skillOrdinal(after[i]),
      }));
      const json = JSON.stringify(rows);
      await tx.$executeRaw`
        INSERT INTO rating_changes (game_id, player_id, family, players, place, mu_before, sigma_before, mu_after, sigma_after)
        SELECT ${gameId}::uuid, v.player_id, ${family}::varchar, ${game.players}::smallint, v.place,
               v.mu_before, v.sigma_before, v.mu_after, v.sigma_after
          FROM json_to_recordset(${json}::json)
               AS v(player_id uuid, place smallint, mu_before float8, sigma_before float8, mu_after float8, sigma_after float8)`;
      await tx.$executeRaw`
        UPDATE ratings r SET mu = v.mu_after, sigma = v.sigma_after, ordinal = v.ordinal, games = r.games + 1, updated_at = now()
          FROM json_to_recordset(${json}::json) AS v(player_id uuid, mu_after float8, sigma_after float8, ordinal float8)
         WHERE r.player_id = v.player_id AND r.family = ${family}::varchar AND r.players = ${game.players}::smallint`;
      return true;
    }, TX_OPTIONS);
  }

  /** A leaderboard page: players with at least `minGames` rated games, highest ordinal first. */
  async leaderboard(args: { family: string; players: number; minGames: number; first: number; after?: string | null }): Promise<LeaderboardPage> {
    const family = parseFamily(args.family);
    const players = parsePlayerCount(args.players);
    const after = args.after ? decodeLeaderboardCursor(args.after) : null;
    const rows = await this.prisma.$queryRaw<
      { player_id: string; name: string; kind: PlayerKindValue; mu: number; sigma: number; ordinal: number; games: number; updated_at: Date }[]
    >(leaderboardSql({ family, players, minGames: args.minGames, after, limit: args.first + 1 }));
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
    const rows = await this.prisma.$queryRaw<
      {
        game_id: string;
        preset: string;
        family: string;
        players: number;
        place: number;
        mu_before: number;
        sigma_before: number;
        mu_after: number;
        sigma_after: number;
        created_at: Date;
      }[]
    >(ratingHistorySql({ playerId, family, players, after, limit: args.first + 1 }));
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
    const rows = await this.prisma.$queryRaw<
      { family: string; players: number; mu: number; sigma: number; ordinal: number; games: number; updated_at: Date }[]
    >(playerRatingsSql(playerId));
    return rows.map((r) => ({ family: r.family, players: r.players, mu: r.mu, sigma: r.sigma, ordinal: r.ordinal, games: r.games, updatedAt: r.updated_at }));
  }

  private async playerIdOf(name: string): Promise<string> {
    const found = await this.prisma.player.findUnique({ where: { nameKey: name.toLowerCase() }, select: { id: true } });
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
  await tx.$executeRaw`
    INSERT INTO ratings (player_id, family, players, mu, sigma, ordinal, games)
    SELECT id, ${family}::varchar, ${players}::smallint, ${fresh.mu}::float8, ${fresh.sigma}::float8, ${skillOrdinal(fresh)}::float8, 0
      FROM unnest(${playerIds}::uuid[]) AS id ORDER BY id
    ON CONFLICT (player_id, family, players) DO NOTHING`;
  const rows = await tx.$queryRaw<{ player_id: string; mu: number; sigma: number }[]>`
    SELECT player_id::text AS player_id, mu, sigma FROM ratings
     WHERE player_id = ANY(${playerIds}::uuid[]) AND family = ${family}::varchar AND players = ${players}::smallint
     ORDER BY player_id FOR UPDATE`;
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
