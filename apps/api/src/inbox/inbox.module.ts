import { Module } from '@nestjs/common';
import { EventStreamsModule } from '../auth/event-streams.module.js';
import { InboxController } from './inbox.controller.js';
import { InboxResolver } from './inbox.resolver.js';
import { InboxService } from './inbox.service.js';
import { PlayerFollowers } from './player-followers.js';

/** The correspondence inbox: games waiting for the caller's move, and the caller's feed as a live stream. */
@Module({
  imports: [EventStreamsModule],
  controllers: [InboxController],
  providers: [InboxService, InboxResolver, PlayerFollowers],
  exports: [InboxService, PlayerFollowers],
})
export class InboxModule {}
