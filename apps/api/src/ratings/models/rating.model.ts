import { Float, ID, Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';
import { FAMILIES, FAMILY_WORDS, PLAYER_COUNT_WORDS } from '../../games/index.js';
import { PlayerKindEnum, type PlayerKindValue } from '../../players/models/player-kind.enum.js';

const FAMILY = { description: FAMILY_WORDS, example: 'contract', api: { enum: [...FAMILIES] } };

@Model({ description: "A player's rating in one family and player count (OpenSkill Plackett-Luce)" })
export class Rating {
  @Prop(FAMILY)
  family!: string;

  @Prop(() => Int, { description: `Table size: ${PLAYER_COUNT_WORDS}`, example: 3 })
  players!: number;

  @Prop(() => Float, { description: 'Estimated skill', example: 27.4 })
  mu!: number;

  @Prop(() => Float, { description: 'Uncertainty of mu; shrinks with every rated game', example: 6.1 })
  sigma!: number;

  @Prop(() => Float, { description: 'mu - 3 sigma: what leaderboards sort by', example: 9.1 })
  ordinal!: number;

  @Prop(() => Int, { description: 'Rated games played in this family and player count' })
  games!: number;

  @Prop()
  updatedAt!: Date;
}

@Model({ description: 'What one rated game did to a rating' })
export class RatingChange {
  @Prop(() => ID)
  gameId!: string;

  @Prop({ example: 'classic' })
  preset!: string;

  @Prop(FAMILY)
  family!: string;

  @Prop(() => Int)
  players!: number;

  @Prop(() => Int, { description: 'The place the player took (1 is first; equal totals share a place; resigning or forfeiting is last)' })
  place!: number;

  @Prop(() => Float)
  muBefore!: number;

  @Prop(() => Float)
  sigmaBefore!: number;

  @Prop(() => Float)
  ordinalBefore!: number;

  @Prop(() => Float)
  muAfter!: number;

  @Prop(() => Float)
  sigmaAfter!: number;

  @Prop(() => Float)
  ordinalAfter!: number;

  @Prop({ description: 'When the rating changed (shortly after the game ended)' })
  createdAt!: Date;
}

@Model({ description: "A page of a player's rating changes, newest first" })
export class RatingHistoryPage {
  @Prop(() => [RatingChange])
  changes!: RatingChange[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More changes follow this page' })
  hasMore!: boolean;
}

@Model({ description: 'A player as leaderboards show them' })
export class RatedPlayer {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'ala' })
  name!: string;

  @Prop(() => PlayerKindEnum, { enumRef: true, description: 'human or bot' })
  kind!: PlayerKindValue;
}

@Model({ description: 'One row of a leaderboard' })
export class LeaderboardEntry {
  @Prop(() => RatedPlayer)
  player!: RatedPlayer;

  @Prop(() => Float)
  mu!: number;

  @Prop(() => Float)
  sigma!: number;

  @Prop(() => Float, { description: 'mu - 3 sigma, the sort key' })
  ordinal!: number;

  @Prop(() => Int)
  games!: number;

  @Prop()
  updatedAt!: Date;
}

@Model({ description: 'A page of a leaderboard, highest ordinal first' })
export class LeaderboardPage {
  @Prop(FAMILY)
  family!: string;

  @Prop(() => Int)
  players!: number;

  @Prop(() => Int, { description: 'Rated games a player needs to be listed' })
  minGames!: number;

  @Prop(() => [LeaderboardEntry])
  entries!: LeaderboardEntry[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More entries follow this page' })
  hasMore!: boolean;
}
