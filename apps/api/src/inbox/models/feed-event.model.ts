import { Field, GraphQLISODateTime, ID, Int } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { Model, Prop, registerEnum } from '../../common/model-field.js';
import { FEED_EVENT_TYPES, type FeedEventType } from '../../player-events/feed-events.js';

export const FeedEventTypeEnum = Object.fromEntries(FEED_EVENT_TYPES.map((t) => [t, t])) as { [T in FeedEventType]: T };
registerEnum(FeedEventTypeEnum, { name: 'FeedEventType', description: "What happened: a feed event's `type` says which payload it carries" });

/** An event's payload: always a JSON object, output only. */
export const JSONObjectScalar = new GraphQLScalarType({
  name: 'JSONObject',
  description: 'A JSON object (output only)',
  serialize: (value) => value,
  parseValue: () => {
    throw new GraphQLError('JSONObject is an output type');
  },
  parseLiteral: (ast) => {
    throw new GraphQLError(`JSONObject is an output type (got a ${ast.kind === Kind.OBJECT ? 'literal object' : ast.kind})`);
  },
});

@Model('FeedEvent', { description: "One event of the caller's feed; resume after its `id`" })
export class FeedEventModel {
  @Prop({ description: 'Opaque, ordered; pass as `after` (or Last-Event-ID) to resume after this event', example: '7312-1045' })
  id!: string;

  @Prop(() => FeedEventTypeEnum, { enumRef: true })
  type!: FeedEventType;

  @Prop(() => ID, { nullable: true })
  gameId!: string | null;

  @Prop(() => ID, { nullable: true })
  lobbyId!: string | null;

  @Prop(() => Int, { nullable: true, description: "The game's log seq that caused it" })
  seq!: number | null;

  @Field(() => JSONObjectScalar, { description: 'What happened, by type (ids, seq, deadline, standings); never a card' })
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What happened, by type (ids, seq, deadline, standings); never a card' })
  payload!: Record<string, unknown>;

  @Prop(() => GraphQLISODateTime)
  createdAt!: Date;
}
