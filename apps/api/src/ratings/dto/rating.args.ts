import { ArgsType, Int } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { FAMILY_QUOTED, FAMILY_WORDS, PLAYER_COUNT_WORDS } from '../../games/index.js';
import { PageArgs } from '../../common/paging.js';

/** Rated games a player needs before a leaderboard lists them, unless the request says otherwise. */
export const MIN_GAMES_DEFAULT = 5;
export const MIN_GAMES_MAX = 10_000;

/** A leaderboard's page and threshold: REST query parameters (family and players are in the path). */
@ArgsType()
export class LeaderboardPageArgs extends PageArgs {
  @Prop(() => Int, {
    defaultValue: MIN_GAMES_DEFAULT,
    description: `Rated games a player needs to be listed, 0 to ${MIN_GAMES_MAX}`,
    api: { minimum: 0, maximum: MIN_GAMES_MAX, default: MIN_GAMES_DEFAULT },
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'minGames must be a whole number' })
  @Min(0, { message: `minGames must be 0 to ${MIN_GAMES_MAX}` })
  @Max(MIN_GAMES_MAX, { message: `minGames must be 0 to ${MIN_GAMES_MAX}` })
  minGames: number = MIN_GAMES_DEFAULT;
}

/** GraphQL `leaderboard(family, players, first, after, minGames)`. */
@ArgsType()
export class LeaderboardArgs extends LeaderboardPageArgs {
  @Prop({ description: FAMILY_WORDS, example: 'contract' })
  @IsString({ message: `family must be ${FAMILY_QUOTED}` })
  @Length(1, 16, { message: `family must be ${FAMILY_QUOTED}` })
  family!: string;

  @Prop(() => Int, { description: `Table size: ${PLAYER_COUNT_WORDS}`, example: 3 })
  @Type(() => Number)
  @IsInt({ message: `players must be ${PLAYER_COUNT_WORDS}` })
  players!: number;
}

/** A rating history's filter and page: GraphQL arguments and REST query parameters alike. */
@ArgsType()
export class RatingHistoryArgs extends PageArgs {
  @Prop({ optional: true, description: `Only this family: ${FAMILY_WORDS}`, example: 'contract' })
  @IsOptional()
  @IsString({ message: `family must be ${FAMILY_QUOTED}` })
  @Length(1, 16, { message: `family must be ${FAMILY_QUOTED}` })
  family?: string;

  @Prop(() => Int, { optional: true, description: `Only tables of this size: ${PLAYER_COUNT_WORDS}` })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `players must be ${PLAYER_COUNT_WORDS}` })
  players?: number;
}
