import { GraphQLISODateTime, ID, Int } from '@nestjs/graphql';
import { Model, Prop, registerEnum } from '../../common/model-field.js';
import { FEED_EVENT_TYPES, type FeedEventType } from '../../player-events/feed-events.js';

export const WebhookEventTypeEnum = Object.fromEntries(FEED_EVENT_TYPES.map((t) => [t, t])) as { [T in FeedEventType]: T };
registerEnum(WebhookEventTypeEnum, {
  name: 'WebhookEventType',
  description: "A type of the player's feed an endpoint may ask for (the `type` of a delivery's body)",
});

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';
export const WebhookDeliveryStatusEnum = { pending: 'pending', delivered: 'delivered', failed: 'failed' } as const satisfies Record<
  WebhookDeliveryStatus,
  WebhookDeliveryStatus
>;
registerEnum(WebhookDeliveryStatusEnum, {
  name: 'WebhookDeliveryStatus',
  description: 'pending: an attempt is due (see nextAttemptAt); delivered: answered with a 2xx; failed: every attempt of the retry schedule failed',
});

@Model({ description: "One of the caller's webhook endpoints; its signing secret is shown only when it is made" })
export class WebhookEndpoint {
  @Prop(() => ID)
  id!: string;

  @Prop({ description: 'Where deliveries are POSTed', example: 'https://bot.example.com/mizerka' })
  url!: string;

  @Prop(() => String, { nullable: true })
  description!: string | null;

  @Prop(() => [WebhookEventTypeEnum], { enumRef: true, description: 'The feed events sent to it' })
  eventTypes!: FeedEventType[];

  @Prop({ description: 'Whether new events are delivered to it' })
  enabled!: boolean;

  @Prop(() => String, { nullable: true, description: 'Why it was disabled (by its owner, or after failing for too long)' })
  disabledReason!: string | null;

  @Prop(() => GraphQLISODateTime, { nullable: true })
  disabledAt!: Date | null;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'Since when every delivery has failed; null after a success' })
  failingSince!: Date | null;

  @Prop(() => GraphQLISODateTime, {
    nullable: true,
    description: 'After a rotation of the secret, until when the old one still signs too (a second signature); null when it does not',
  })
  previousSecretExpiresAt!: Date | null;

  @Prop(() => GraphQLISODateTime)
  createdAt!: Date;

  @Prop(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@Model({ description: "A page of the caller's webhook endpoints, oldest first" })
export class WebhookEndpointPage {
  @Prop(() => [WebhookEndpoint])
  endpoints!: WebhookEndpoint[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More endpoints follow this page' })
  hasMore!: boolean;
}

@Model()
export class CreateWebhookEndpointPayload {
  @Prop(() => WebhookEndpoint)
  endpoint!: WebhookEndpoint;

  @Prop({
    description: 'The signing secret (Standard Webhooks); store it now, it is never shown again',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

@Model()
export class RotateWebhookSecretPayload {
  @Prop(() => WebhookEndpoint)
  endpoint!: WebhookEndpoint;

  @Prop({
    description: 'The new signing secret (Standard Webhooks); store it now, it is never shown again',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

@Model({ description: 'One attempt to deliver' })
export class WebhookAttempt {
  @Prop(() => Int, { description: '1 for the first attempt' })
  attempt!: number;

  @Prop(() => GraphQLISODateTime)
  at!: Date;

  @Prop(() => Int, { nullable: true, description: 'The HTTP status answered; null when none came (refused, timed out, no connection)' })
  statusCode!: number | null;

  @Prop(() => Int)
  durationMs!: number;

  @Prop(() => String, { nullable: true, description: 'Why it failed; null when it succeeded' })
  error!: string | null;
}

@Model({ description: 'One feed event sent to one endpoint, with its attempts' })
export class WebhookDelivery {
  @Prop(() => ID, { description: 'The `webhook-id` header: the same on every attempt, for de-duplication' })
  id!: string;

  @Prop({ description: 'The feed event delivered (`data.eventId` of the body)', example: '7312-1045' })
  eventId!: string;

  @Prop(() => WebhookEventTypeEnum, { enumRef: true })
  type!: FeedEventType;

  @Prop(() => WebhookDeliveryStatusEnum, { enumRef: true })
  status!: WebhookDeliveryStatus;

  @Prop(() => Int, { description: 'Attempts made so far' })
  attempts!: number;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When the next attempt is due; null when none is' })
  nextAttemptAt!: Date | null;

  @Prop(() => GraphQLISODateTime)
  createdAt!: Date;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When it was delivered or given up' })
  finishedAt!: Date | null;

  @Prop({ description: 'The JSON body POSTed (and signed), exactly as sent' })
  body!: string;

  @Prop(() => [WebhookAttempt], { description: 'Its attempts, first to last' })
  attemptLog!: WebhookAttempt[];
}

@Model({ description: 'A page of deliveries of an endpoint, newest first' })
export class WebhookDeliveryPage {
  @Prop(() => [WebhookDelivery])
  deliveries!: WebhookDelivery[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More deliveries follow this page' })
  hasMore!: boolean;
}
