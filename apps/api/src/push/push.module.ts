import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { PushChannel } from './push-channel.js';
import { PushController } from './push.controller.js';
import { PushResolver } from './push.resolver.js';
import { PushService } from './push.service.js';
import { VapidKeys } from './vapid-keys.js';

/**
 * Web Push: the server's VAPID keys, the browsers players are notified on, and the `push` notice
 * channel (registered with NoticeChannels at init), whose sends go out as webhooks do (WebhookTransport).
 */
@Module({
  imports: [NotificationsModule, WebhooksModule],
  controllers: [PushController],
  providers: [VapidKeys, PushService, PushResolver, PushChannel],
  exports: [PushService, PushChannel],
})
export class PushModule {}
