import { Module } from '@nestjs/common';
import { NoticeChannels } from './notice-channels.js';

/**
 * Notices for players who are away, and the channels that carry them. (The push branch's minimal
 * form: the registry the channels' modules fill. The notifications branch's module replaces it.)
 */
@Module({ providers: [NoticeChannels], exports: [NoticeChannels] })
export class NotificationsModule {}
