import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { EVENTS_PAGE_MAX } from '../limits.js';
import { GameStatusEnum, type GameStatusValue } from '../models/enums.js';

// One class per query for both transports: GraphQL args and REST query strings (hence @Type).

@ArgsType()
export class MyGamesArgs {
  @Prop(() => GameStatusEnum, { defaultValue: 'active' })
  @IsOptional()
  @IsIn(Object.values(GameStatusEnum), { message: 'status must be active or finished' })
  status: GameStatusValue = 'active';

  @Prop(() => Int, { defaultValue: 20, api: { minimum: 1, maximum: 100 } })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;

  @Prop(() => Int, { defaultValue: 0, api: { minimum: 0 } })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset: number = 0;
}

@ArgsType()
export class EventsQuery {
  @Prop(() => Int, { defaultValue: 0, description: 'Entries with a greater seq; 0 = from the start', api: { minimum: 0 } })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after: number = 0;

  @Prop(() => Int, { defaultValue: EVENTS_PAGE_MAX, api: { minimum: 1, maximum: EVENTS_PAGE_MAX } })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(EVENTS_PAGE_MAX)
  limit: number = EVENTS_PAGE_MAX;
}

/** GraphQL passes every argument to the validation pipe, so the game id is part of the args class. */
@ArgsType()
export class GameEventsArgs extends EventsQuery {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}
