import { Module } from '@nestjs/common';
import { GameLogBus } from './game-log-bus.js';
import { GameStore } from './game-store.js';
import { GamesController } from './games.controller.js';
import { GamesResolver } from './games.resolver.js';
import { GamesService } from './games.service.js';

@Module({
  controllers: [GamesController],
  providers: [GamesService, GamesResolver, GameLogBus, GameStore],
  exports: [GamesService, GameLogBus, GameStore],
})
export class GamesModule {}
