import { Module } from '@nestjs/common';
import { GamesModule } from '../games/index.js';
import { LobbiesModule } from '../lobbies/lobbies.module.js';
import { MovesModule } from '../moves/moves.module.js';
import { BotsController } from './bots.controller.js';
import { BotsResolver } from './bots.resolver.js';
import { BotsService } from './bots.service.js';

/** Server bots: seated by a lobby's host, moved by durable jobs through the move path. */
@Module({
  imports: [GamesModule, LobbiesModule, MovesModule],
  controllers: [BotsController],
  providers: [BotsService, BotsResolver],
  exports: [BotsService],
})
export class BotsModule {}
