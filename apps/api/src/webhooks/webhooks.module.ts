import { Module } from '@nestjs/common';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookTransport } from './webhook-transport.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksResolver } from './webhooks.resolver.js';
import { WebhooksService } from './webhooks.service.js';

/** Signed webhooks (Standard Webhooks): players' endpoints, the fan-out of their feeds, and delivery with retries. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksResolver, WebhookTransport, WebhookDispatcher, WebhookSender],
  exports: [WebhooksService, WebhookDispatcher, WebhookTransport],
})
export class WebhooksModule {}
