import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { PageArgs } from '../../common/paging.js';
import { FEED_EVENT_TYPES, type FeedEventType } from '../../player-events/feed-events.js';
import { WebhookEventTypeEnum } from '../models/webhook.model.js';

const URL_HELP = 'https:// URL the events are POSTed to; it must resolve to public addresses only, and carry no credentials';
const TYPES_HELP = `The feed events to send, at least one of: ${FEED_EVENT_TYPES.join(', ')}`;
const TYPES_MESSAGE = `eventTypes may hold only ${FEED_EVENT_TYPES.join(', ')}`;

@InputType()
export class CreateWebhookEndpointInput {
  @Prop({ description: URL_HELP, example: 'https://bot.example.com/mizerka', api: { minLength: 1, maxLength: 2048 } })
  @IsString({ message: 'url must be a string' })
  @Length(1, 2048, { message: 'url must be 1 to 2048 characters long' })
  url!: string;

  @Prop(() => [WebhookEventTypeEnum], { enumRef: true, description: TYPES_HELP })
  @IsArray({ message: 'eventTypes must be a list' })
  @ArrayNotEmpty({ message: 'eventTypes must name at least one event type' })
  @ArrayMaxSize(FEED_EVENT_TYPES.length, { message: `eventTypes holds at most ${FEED_EVENT_TYPES.length} types` })
  @IsIn(FEED_EVENT_TYPES, { each: true, message: TYPES_MESSAGE })
  eventTypes!: FeedEventType[];

  @Prop(() => String, { optional: true, nullable: true, description: 'A note for the owner, up to 256 characters', api: { maxLength: 256 } })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @Length(0, 256, { message: 'description must be at most 256 characters long' })
  description?: string | null;
}

/** What to change; a field left out stays as it is. */
@InputType()
export class UpdateWebhookEndpointInput {
  @Prop(() => String, { optional: true, description: URL_HELP, api: { minLength: 1, maxLength: 2048 } })
  @IsOptional()
  @IsString({ message: 'url must be a string' })
  @Length(1, 2048, { message: 'url must be 1 to 2048 characters long' })
  url?: string | null;

  @Prop(() => [WebhookEventTypeEnum], { optional: true, enumRef: true, description: TYPES_HELP })
  @IsOptional()
  @IsArray({ message: 'eventTypes must be a list' })
  @ArrayNotEmpty({ message: 'eventTypes must name at least one event type' })
  @ArrayMaxSize(FEED_EVENT_TYPES.length, { message: `eventTypes holds at most ${FEED_EVENT_TYPES.length} types` })
  @IsIn(FEED_EVENT_TYPES, { each: true, message: TYPES_MESSAGE })
  eventTypes?: FeedEventType[] | null;

  @Prop(() => String, { optional: true, nullable: true, description: 'A note for the owner, up to 256 characters; null clears it', api: { maxLength: 256 } })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @Length(0, 256, { message: 'description must be at most 256 characters long' })
  description?: string | null;

  @Prop(() => Boolean, {
    optional: true,
    description: 'false stops deliveries; true starts them again with the events from now on, and clears the reason it was disabled',
  })
  @IsOptional()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean | null;
}

/** The default and the longest time the old secret still signs after a rotation (seconds). */
export const PREVIOUS_SECRET_DEFAULT_SECONDS = 24 * 3600;
export const PREVIOUS_SECRET_MAX_SECONDS = 7 * 24 * 3600;

@InputType()
export class RotateWebhookSecretInput {
  @Prop(() => Int, {
    optional: true,
    description: `How long the old secret still signs too, in seconds (a second signature in webhook-signature): 0 drops it at once; default ${PREVIOUS_SECRET_DEFAULT_SECONDS} (a day), at most ${PREVIOUS_SECRET_MAX_SECONDS} (a week)`,
    api: { minimum: 0, maximum: PREVIOUS_SECRET_MAX_SECONDS },
  })
  @IsOptional()
  @IsInt({ message: 'previousSecretValidSeconds must be a whole number of seconds' })
  @Min(0, { message: `previousSecretValidSeconds must be 0 to ${PREVIOUS_SECRET_MAX_SECONDS}` })
  @Max(PREVIOUS_SECRET_MAX_SECONDS, { message: `previousSecretValidSeconds must be 0 to ${PREVIOUS_SECRET_MAX_SECONDS}` })
  previousSecretValidSeconds?: number | null;
}

/** GraphQL passes every argument to the validation pipe, so the endpoint id is part of the args class. */
@ArgsType()
export class WebhookDeliveriesArgs extends PageArgs {
  @Field(() => ID)
  @IsUUID('all', { message: 'endpointId must be a valid id' })
  endpointId!: string;
}
