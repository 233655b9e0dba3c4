import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { PAGE_MAX, PageArgs } from '../../common/paging.js';
import { GameStatusEnum, type GameStatusValue } from '../models/enums.js';

// One class per query for both transports: GraphQL args and REST query strings (hence @Type).

@ArgsType()
export class MyGamesArgs extends PageArgs {
  @Prop(() => GameStatusEnum, { defaultValue: 'active' })
  @IsOptional()
  @IsIn(Object.values(GameStatusEnum), { message: 'status must be active or finished' })
  status: GameStatusValue = 'active';
}

/**
 * The event log pages by seq, its own cursor: `after` the last seq received, `first` entries at
 * most (by default a full page: the log is read to catch up).
 */
@ArgsType()
export class EventsQuery {
  @Prop(() => Int, { defaultValue: PAGE_MAX, description: `Page size, 1 to ${PAGE_MAX}`, api: { minimum: 1, maximum: PAGE_MAX, default: PAGE_MAX } })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'first must be a whole number' })
  @Min(1, { message: `first must be 1 to ${PAGE_MAX}` })
  @Max(PAGE_MAX, { message: `first must be 1 to ${PAGE_MAX}` })
  first: number = PAGE_MAX;

  @Prop(() => Int, {
    defaultValue: 0,
    description: 'Entries with a greater seq; 0 = from the start',
    api: { minimum: 0 },
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'after must be a whole number' })
  @Min(0, { message: 'after must not be negative' })
  after: number = 0;
}

/**
 * GET /games/{id}/events: `first`, and `limit`, the name v1 gave it first. A client written
 * against v1 sends `limit`, so v1 keeps taking it (deprecated in the OpenAPI document); when
 * given, it is the page size.
 */
export class EventLogQuery extends EventsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_MAX, deprecated: true, description: 'The former name of `first`; when given, it wins' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: `limit must be 1 to ${PAGE_MAX}` })
  @Max(PAGE_MAX, { message: `limit must be 1 to ${PAGE_MAX}` })
  limit?: number;
}

/** GraphQL passes every argument to the validation pipe, so the game id is part of the args class. */
@ArgsType()
export class GameEventsArgs extends EventsQuery {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}
