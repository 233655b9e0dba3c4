import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { PageArgs } from '../common/paging.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateWebhookEndpointInput, RotateWebhookSecretInput, UpdateWebhookEndpointInput } from './dto/webhook.inputs.js';
import { CreateWebhookEndpointPayload, RotateWebhookSecretPayload, WebhookDelivery, WebhookDeliveryPage, WebhookEndpoint, WebhookEndpointPage } from './models/webhook.model.js';
import { WebhooksService } from './webhooks.service.js';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('me/webhooks')
@RequireScope('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOkResponse({ type: WebhookEndpointPage, description: "The caller's webhook endpoints, oldest first, by page" })
  list(@CurrentPlayer() caller: AuthenticatedPlayer, @Query() page: PageArgs): Promise<WebhookEndpointPage> {
    return this.webhooks.list(caller.id, page.first, page.after);
  }

  @Post()
  @ApiCreatedResponse({ type: CreateWebhookEndpointPayload, description: 'The endpoint and its signing secret (shown once)' })
  create(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: CreateWebhookEndpointInput): Promise<CreateWebhookEndpointPayload> {
    return this.webhooks.create(caller.id, input);
  }

  @Get(':id')
  @ApiOkResponse({ type: WebhookEndpoint })
  get(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<WebhookEndpoint> {
    return this.webhooks.get(caller.id, id);
  }

  @Patch(':id')
  @ApiOkResponse({ type: WebhookEndpoint, description: 'The endpoint as changed' })
  update(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Body() input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpoint> {
    return this.webhooks.update(caller.id, id, input);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOkResponse({ type: RotateWebhookSecretPayload, description: 'The endpoint and its new signing secret (shown once)' })
  rotateSecret(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Body() input: RotateWebhookSecretInput,
  ): Promise<RotateWebhookSecretPayload> {
    return this.webhooks.rotateSecret(caller.id, id, input?.previousSecretValidSeconds);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookEndpoint, description: 'The deleted endpoint' })
  delete(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<WebhookEndpoint> {
    return this.webhooks.delete(caller.id, id);
  }

  @Get(':id/deliveries')
  @ApiOkResponse({ type: WebhookDeliveryPage, description: "The endpoint's deliveries, newest first, each with its attempts, by page" })
  deliveries(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Query() page: PageArgs,
  ): Promise<WebhookDeliveryPage> {
    return this.webhooks.deliveries(caller.id, id, page.first, page.after);
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookDelivery, description: 'The delivery, with a new attempt due now' })
  resend(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Param('deliveryId', ParseUuidPipe) deliveryId: string,
  ): Promise<WebhookDelivery> {
    return this.webhooks.resend(caller.id, id, deliveryId);
  }
}
