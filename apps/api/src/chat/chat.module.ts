import { Module } from '@nestjs/common';
import { EventStreamsModule } from '../auth/event-streams.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ChatBus } from './chat-bus.js';
import { ChatFollowers } from './chat-followers.js';
import { ChatController } from './chat.controller.js';
import { ChatResolver } from './chat.resolver.js';
import { ChatService } from './chat.service.js';

/** Table talk of games and lobbies: rooms, live delivery, mutes, blocks and the report queue. */
@Module({
  imports: [EventStreamsModule, RateLimitModule],
  controllers: [ChatController],
  providers: [ChatService, ChatResolver, ChatBus, ChatFollowers],
  exports: [ChatService],
})
export class ChatModule {}
