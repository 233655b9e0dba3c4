import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AccountsModule } from '../accounts/accounts.module.js';
import { EmailChannel } from './email-channel.js';
import { NoticeChannels } from './notice-channels.js';
import { NoticeRouter } from './notice-router.js';
import { NotificationSettingsService } from './notification-settings.service.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsResolver } from './notifications.resolver.js';
import { Presence, PresenceInterceptor } from './presence.js';

/**
 * Reaching the player who is away: their preferences, their presence, the routing of their feed
 * into notices, and the email channel. Other channels (Web Push) register in NoticeChannels.
 */
@Module({
  imports: [AccountsModule],
  controllers: [NotificationsController],
  providers: [
    NoticeChannels,
    Presence,
    { provide: APP_INTERCEPTOR, useClass: PresenceInterceptor },
    NoticeRouter,
    EmailChannel,
    NotificationSettingsService,
    NotificationsResolver,
  ],
  exports: [NoticeChannels, Presence, NoticeRouter],
})
export class NotificationsModule {}
