import { Global, Module } from '@nestjs/common';
import { PlayerEventsService } from './player-events.service.js';
import { PlayerFeedBus } from './player-feed-bus.js';

/** Players' feeds: written by games, lobbies, moves and clocks; read by the inbox and webhooks. */
@Global()
@Module({ providers: [PlayerEventsService, PlayerFeedBus], exports: [PlayerEventsService, PlayerFeedBus] })
export class PlayerEventsModule {}
