import { ArgsType, Field, GraphQLISODateTime, InputType, Int } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { DateTimeInput } from '../../common/date-time.js';
import { PAGE_DEFAULT, PAGE_MAX, PageArgs } from '../../common/paging.js';
import { Prop } from '../../common/model-field.js';
import { FAMILIES, FAMILY_QUOTED, FAMILY_WORDS, PLAYER_COUNT_WORDS, PLAYER_COUNTS } from '../../games/index.js';
import { GameResultEnum, HistoryStatusEnum, type GameResultValue } from '../models/history.model.js';
import type { HistoryStatus } from '../history.sql.js';

/** A table has at most four seats: naming more can match nothing. */
export const MAX_PLAYERS_NAMED = 4;
/** The most records one export streams. */
export const EXPORT_MAX = 10_000;

const STATUSES = Object.values(HistoryStatusEnum);
const RESULTS = Object.values(GameResultEnum);
const bool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** GraphQL's GameFilter. */
@InputType('GameFilter')
export class GameFilterInput {
  @Prop(() => [String], { optional: true, description: `Names; games with all of them at the table (at most ${MAX_PLAYERS_NAMED})` })
  @IsOptional()
  @IsArray({ message: 'players must be a list of names' })
  @ArrayMaxSize(MAX_PLAYERS_NAMED, { message: `players names at most ${MAX_PLAYERS_NAMED} players` })
  @IsString({ each: true, message: 'players must be a list of names' })
  @Length(1, 32, { each: true, message: 'players: each name is 1 to 32 characters long' })
  players?: string[] | null;

  @Prop(() => String, { optional: true, example: 'classic' })
  @IsOptional()
  @IsString()
  @Length(1, 32, { message: 'preset must be 1 to 32 characters long' })
  preset?: string | null;

  @Prop(() => String, { optional: true, description: FAMILY_WORDS })
  @IsOptional()
  @IsString()
  @Length(1, 16, { message: `family must be ${FAMILY_QUOTED}` })
  family?: string | null;

  @Prop(() => Int, { optional: true, description: PLAYER_COUNT_WORDS })
  @IsOptional()
  @IsInt({ message: `playerCount must be ${PLAYER_COUNT_WORDS}` })
  playerCount?: number | null;

  @Prop(() => HistoryStatusEnum, { optional: true })
  @IsOptional()
  @IsIn(STATUSES, { message: 'status must be active, finished or forfeited' })
  status?: HistoryStatus | null;

  @Prop(() => Boolean, { optional: true })
  @IsOptional()
  @IsBoolean({ message: 'rated must be true or false' })
  rated?: boolean | null;

  @Prop(() => Boolean, { optional: true })
  @IsOptional()
  @IsBoolean({ message: 'imported must be true or false' })
  imported?: boolean | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Games created at or after this time' })
  @IsOptional()
  @DateTimeInput('from')
  from?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Games created before this time' })
  @IsOptional()
  @DateTimeInput('to')
  to?: Date | null;

  @Prop(() => GameResultEnum, { optional: true, description: 'Of the first named player, else of the caller' })
  @IsOptional()
  @IsIn(RESULTS, { message: 'result must be WON or LOST' })
  result?: GameResultValue | null;

  @Prop(() => Int, { optional: true, description: 'Final place of the first named player, else of the caller' })
  @IsOptional()
  @IsInt({ message: 'place must be 1 to 4' })
  place?: number | null;
}

@ArgsType()
export class GamesArgs extends PageArgs {
  @Field(() => GameFilterInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => GameFilterInput)
  filter?: GameFilterInput | null;
}

/** The REST filter: query parameters; the player whose games these are is in the path. */
export class GamesFilterQuery {
  @ApiPropertyOptional({ description: `Other names, comma-separated: games with all of them at the table too` })
  @IsOptional()
  @IsString()
  @Length(1, 4 * 33, { message: 'with lists at most three names' })
  with?: string;

  @ApiPropertyOptional({ example: 'classic' })
  @IsOptional()
  @IsString()
  @Length(1, 32, { message: 'preset must be 1 to 32 characters long' })
  preset?: string;

  @ApiPropertyOptional({ enum: [...FAMILIES] })
  @IsOptional()
  @IsString()
  @Length(1, 16, { message: `family must be ${FAMILY_QUOTED}` })
  family?: string;

  @ApiPropertyOptional({ enum: [...PLAYER_COUNTS] })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `playerCount must be ${PLAYER_COUNT_WORDS}` })
  playerCount?: number;

  @ApiPropertyOptional({ enum: STATUSES })
  @IsOptional()
  @IsIn(STATUSES, { message: 'status must be active, finished or forfeited' })
  status?: HistoryStatus;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(bool)
  @IsBoolean({ message: 'rated must be true or false' })
  rated?: boolean;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(bool)
  @IsBoolean({ message: 'imported must be true or false' })
  imported?: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'Games created at or after this time' })
  @IsOptional()
  @DateTimeInput('from')
  from?: Date;

  @ApiPropertyOptional({ format: 'date-time', description: 'Games created before this time' })
  @IsOptional()
  @DateTimeInput('to')
  to?: Date;

  @ApiPropertyOptional({ enum: RESULTS, description: "The named player's result" })
  @IsOptional()
  @IsIn(RESULTS, { message: 'result must be WON or LOST' })
  result?: GameResultValue;

  @ApiPropertyOptional({ minimum: 1, maximum: 4 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'place must be 1 to 4' })
  place?: number;
}

export class PlayerGamesQuery extends GamesFilterQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'first must be a whole number' })
  @Min(1, { message: `first must be 1 to ${PAGE_MAX}` })
  @Max(PAGE_MAX, { message: `first must be 1 to ${PAGE_MAX}` })
  first: number = PAGE_DEFAULT;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page' })
  @IsOptional()
  @IsString({ message: 'after must be a cursor string' })
  @Length(1, 200, { message: 'after is not a valid cursor' })
  after?: string;
}

export class ExportQuery extends GamesFilterQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: EXPORT_MAX, default: EXPORT_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: `limit must be 1 to ${EXPORT_MAX}` })
  @Max(EXPORT_MAX, { message: `limit must be 1 to ${EXPORT_MAX}` })
  limit: number = EXPORT_MAX;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'Each line `{ gameId, seeds: [{ seed, seedHash }] by deal, record }` instead of the bare record, to check the commitments ' +
      '(a record has no room for seeds; an imported deal has no seed: null)',
  })
  @IsOptional()
  @Transform(bool)
  @IsBoolean({ message: 'seeds must be true or false' })
  seeds: boolean = false;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'Each line `{ gameId, createdAt, chat: [{ seq, author, body, at }], record }` (with `seeds` too when asked): the talk of ' +
      "the game's players' room, oldest first, at most 1000 messages a game. Only in an export of one's own games (signed in " +
      "as the player named); never the spectators' room",
  })
  @IsOptional()
  @Transform(bool)
  @IsBoolean({ message: 'includeChat must be true or false' })
  includeChat: boolean = false;
}

/** GET /games: the caller's games; `status` keeps the default it had before the filters came (active). */
export class MyGamesQuery extends PlayerGamesQuery {
  @ApiPropertyOptional({ enum: STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(STATUSES, { message: 'status must be active, finished or forfeited' })
  override status?: HistoryStatus = 'active';
}
