import { Module } from '@nestjs/common';
import { EventStreamsModule } from '../auth/event-streams.module.js';
import { GameFollowers } from './game-followers.js';
import { GameLogBus } from './game-log-bus.js';
import { GameLogReader } from './game-log.js';
import { GameStore } from './game-store.js';
import { GamesController } from './games.controller.js';
import { GamesResolver } from './games.resolver.js';
import { GamesService } from './games.service.js';

@Module({
  imports: [EventStreamsModule],
  controllers: [GamesController],
  providers: [GamesService, GamesResolver, GameLogBus, GameFollowers, GameStore, GameLogReader],
  exports: [GamesService, GameLogBus, GameFollowers, GameStore, GameLogReader],
})
export class GamesModule {}
