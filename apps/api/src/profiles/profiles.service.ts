import { Injectable } from '@nestjs/common';
import { makeRules, PRESETS } from '@mizerka/rules';
import { badInput, notFound } from '../common/errors.js';
import { queryRows, type RowOf } from '../common/sql-query.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { RatingsService } from '../ratings/ratings.service.js';
import type { BidSide, BidStat, ContractStat, HeadToHead, HeadToHeadRecord, PlayerProfile, PlayerStats, PresetRecord, ProfileGame } from './models/profile.model.js';
import {
  biddingStatsSql,
  contractStatsSql,
  gamesOfPresetSql,
  headToHeadSql,
  presetRecordsSql,
  profileSql,
  recentGamesSql,
} from './profiles.sql.js';

/** Games a profile lists under recentGames. */
export const RECENT_GAMES = 5;
const NAME_MAX = 32;

type PlayerRow = RowOf<typeof profileSql>;

/**
 * Player profiles, per-preset statistics and head-to-head records: records and statistics read the
 * players' aggregates (player_stats, kept by PlayerStatsService), head-to-head their finished games.
 */
@Injectable()
export class ProfilesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly ratings: RatingsService,
  ) {}

  async profile(name: string): Promise<PlayerProfile> {
    const player = await this.player(name);
    const [records, ratings, recent] = await Promise.all([
      queryRows(this.prisma, presetRecordsSql(player.id)),
      this.ratings.ratingsOf(player.id),
      queryRows(this.prisma, recentGamesSql(player.id, RECENT_GAMES)),
    ]);
    const presets = records
      .sort((a, b) => presetOrder(a.preset) - presetOrder(b.preset))
      .map(
        (r): PresetRecord => ({
          preset: r.preset,
          games: r.games,
          wins: r.wins,
          averagePlace: r.average_place,
          deals: r.deals,
          averageScorePerDeal: r.deals > 0 ? r.score / r.deals : null,
        }),
      );
    return {
      id: player.id,
      name: player.name,
      kind: player.kind,
      botLevel: player.bot_level,
      createdAt: player.created_at,
      lastActiveAt: player.last_active_at,
      games: presets.reduce((sum, p) => sum + p.games, 0),
      presets,
      ratings,
      recentGames: recent.map(
        (g): ProfileGame => ({
          id: g.id,
          preset: g.preset,
          players: g.players,
          status: g.status,
          rated: g.rated,
          seat: g.seat,
          seats: g.seats,
          endSeat: g.end_seat,
          endReason: g.end_reason,
          createdAt: g.created_at,
          finishedAt: g.finished_at,
        }),
      ),
    };
  }

  /** The statistics of the player named `name` in `preset`. */
  async statsByName(name: string, preset: string): Promise<PlayerStats> {
    return this.stats((await this.player(name)).id, preset);
  }

  async stats(playerId: string, preset: string): Promise<PlayerStats> {
    const rules = makeRules(preset);
    if (!rules.ok) throw badInput(`preset must be one of ${PRESETS.join(', ')}`, { field: 'preset' });
    const { family, contracts } = rules.value;
    const gamesOf = queryRows(this.prisma, gamesOfPresetSql(playerId, preset)).then(([r]) => r.games);
    if (family === 'contract') {
      const [games, rows] = await Promise.all([
        gamesOf,
        queryRows(this.prisma, contractStatsSql(playerId, preset)),
      ]);
      const byContract = new Map(rows.map((r) => [r.contract, r]));
      const stats = contracts.map((contract): ContractStat => {
        const r = byContract.get(contract);
        return {
          contract,
          deals: r?.deals ?? 0,
          quotaMet: r?.quota_met ?? 0,
          quotaExact: r?.quota_exact ?? 0,
          averageScore: r?.average_score ?? null,
          chosen: r?.chosen ?? 0,
          chosenQuotaMet: r?.chosen_quota_met ?? 0,
          chosenAverageScore: r?.chosen_average_score ?? null,
        };
      });
      return { preset, family, games, contracts: stats, bids: [] };
    }
    const [games, rows] = await Promise.all([
      gamesOf,
      queryRows(this.prisma, biddingStatsSql(playerId, preset)),
    ]);
    const side = (bid: string, declarer: boolean): BidSide => {
      const r = rows.find((x) => x.bid === bid && x.declarer === declarer);
      return { deals: r?.deals ?? 0, made: r?.made ?? 0, failed: r?.failed ?? 0, averageScore: r?.average_score ?? null };
    };
    const bids = ['play', 'misere', 'double-misere'].filter((bid) => bid !== 'double-misere' || rows.some((r) => r.bid === bid));
    return { preset, family, games, contracts: [], bids: bids.map((bid): BidStat => ({ bid, asDeclarer: side(bid, true), asDefender: side(bid, false) })) };
  }

  /** How the player named `name` fared against `other` in the finished games they played together. */
  async headToHead(name: string, other: string): Promise<HeadToHead> {
    const [a, b] = await Promise.all([this.player(name), this.player(other, 'other')]);
    if (a.id === b.id) throw badInput('other must be another player', { field: 'other' });
    const rows = await queryRows(this.prisma, headToHeadSql(a.id, b.id));
    const presets = rows
      .sort((x, y) => presetOrder(x.preset) - presetOrder(y.preset))
      .map((r): HeadToHeadRecord => ({ preset: r.preset, games: r.games, higher: r.higher, lower: r.lower, ties: r.ties }));
    const sum = (key: 'games' | 'higher' | 'lower' | 'ties') => presets.reduce((s, p) => s + p[key], 0);
    const last = rows.map((r) => r.last_played_at).filter((d): d is Date => d !== null).sort((x, y) => y.getTime() - x.getTime())[0] ?? null;
    return {
      player: a.name,
      other: b.name,
      total: { preset: null, games: sum('games'), higher: sum('higher'), lower: sum('lower'), ties: sum('ties') },
      presets,
      lastPlayedAt: last,
    };
  }

  /** The player by name, case aside; NOT_FOUND otherwise (`what` names it in the message). */
  async player(name: string, what = 'Player'): Promise<PlayerRow> {
    if (name.length === 0 || name.length > NAME_MAX) throw notFound(what === 'other' ? 'The other player' : what);
    const [row] = await queryRows(this.prisma, profileSql(name.toLowerCase()));
    if (!row) throw notFound(what === 'other' ? 'The other player' : what);
    return row;
  }
}

function presetOrder(preset: string): number {
  const i = (PRESETS as readonly string[]).indexOf(preset);
  return i < 0 ? PRESETS.length : i;
}
