import { Injectable } from '@nestjs/common';
import type { NoticeChannel } from './notice.js';

/**
 * The channels this server can reach players on. A channel's module registers it at init
 * (onModuleInit), so that the notifications module never imports a channel: a server without
 * push configured simply has no push channel.
 */
@Injectable()
export class NoticeChannels {
  private readonly channels = new Map<NoticeChannel['name'], NoticeChannel>();

  register(channel: NoticeChannel): void {
    if (this.channels.has(channel.name)) throw new Error(`The notice channel ${channel.name} is registered twice`);
    this.channels.set(channel.name, channel);
  }

  get(name: NoticeChannel['name']): NoticeChannel | undefined {
    return this.channels.get(name);
  }

  names(): NoticeChannel['name'][] {
    return [...this.channels.keys()];
  }
}
