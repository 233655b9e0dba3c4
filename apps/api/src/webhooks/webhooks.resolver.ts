import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { PageArgs } from '../common/paging.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateWebhookEndpointInput, RotateWebhookSecretInput, UpdateWebhookEndpointInput, WebhookDeliveriesArgs } from './dto/webhook.inputs.js';
import { CreateWebhookEndpointPayload, RotateWebhookSecretPayload, WebhookDelivery, WebhookDeliveryPage, WebhookEndpoint, WebhookEndpointPage } from './models/webhook.model.js';
import { WebhooksService } from './webhooks.service.js';

@Resolver()
@RequireScope('webhooks')
export class WebhooksResolver {
  constructor(private readonly webhooks: WebhooksService) {}

  @Query(() => WebhookEndpointPage, { description: "The caller's webhook endpoints, oldest first, by page" })
  myWebhookEndpoints(@CurrentPlayer() caller: AuthenticatedPlayer, @Args() page: PageArgs): Promise<WebhookEndpointPage> {
    return this.webhooks.list(caller.id, page.first, page.after);
  }

  @Query(() => WebhookEndpoint, { description: "One of the caller's webhook endpoints" })
  webhookEndpoint(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<WebhookEndpoint> {
    return this.webhooks.get(caller.id, id);
  }

  @Query(() => WebhookDeliveryPage, { description: "An endpoint's deliveries, newest first, each with its attempts, by page" })
  webhookDeliveries(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args() args: WebhookDeliveriesArgs,
  ): Promise<WebhookDeliveryPage> {
    return this.webhooks.deliveries(caller.id, args.endpointId.toLowerCase(), args.first, args.after);
  }

  @Mutation(() => CreateWebhookEndpointPayload, { description: 'Create a webhook endpoint; returns its signing secret (shown once)' })
  createWebhookEndpoint(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('input') input: CreateWebhookEndpointInput,
  ): Promise<CreateWebhookEndpointPayload> {
    return this.webhooks.create(caller.id, input);
  }

  @Mutation(() => WebhookEndpoint, { description: 'Change a webhook endpoint (its URL, event types, description, or whether it is enabled)' })
  updateWebhookEndpoint(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('id', { type: () => ID }, ParseUuidPipe) id: string,
    @Args('input') input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpoint> {
    return this.webhooks.update(caller.id, id, input);
  }

  @Mutation(() => RotateWebhookSecretPayload, {
    description: 'Give a webhook endpoint a new signing secret (shown once); the old one still signs too for a while (see the input)',
  })
  rotateWebhookSecret(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('id', { type: () => ID }, ParseUuidPipe) id: string,
    @Args('input', { type: () => RotateWebhookSecretInput, nullable: true }) input?: RotateWebhookSecretInput | null,
  ): Promise<RotateWebhookSecretPayload> {
    return this.webhooks.rotateSecret(caller.id, id, input?.previousSecretValidSeconds);
  }

  @Mutation(() => WebhookEndpoint, { description: 'Delete a webhook endpoint and its delivery log' })
  deleteWebhookEndpoint(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<WebhookEndpoint> {
    return this.webhooks.delete(caller.id, id);
  }

  @Mutation(() => WebhookDelivery, { description: 'Send a delivery again now, whatever its status' })
  resendWebhookDelivery(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('endpointId', { type: () => ID }, ParseUuidPipe) endpointId: string,
    @Args('deliveryId', { type: () => ID }, ParseUuidPipe) deliveryId: string,
  ): Promise<WebhookDelivery> {
    return this.webhooks.resend(caller.id, endpointId, deliveryId);
  }
}
