import { ArgsType } from '@nestjs/graphql';
import { IsOptional, IsString, Length } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { PageArgs } from '../../common/paging.js';

/** `myTurn` / `GET /me/turns`: the usual page arguments. */
@ArgsType()
export class MyTurnArgs extends PageArgs {}

/** `GET /me/events`: where to resume (the Last-Event-ID header wins over `after`). */
export class FeedStreamQuery {
  @Prop(() => String, {
    optional: true,
    description: 'The id of the last event received from this feed (any other id is 400); omitted (and no Last-Event-ID): only events from now on',
    example: '7312-1045',
  })
  @IsOptional()
  @IsString({ message: 'after must be an event id' })
  @Length(1, 64, { message: 'after must be an event id' })
  after?: string;
}
