import { Module } from '@nestjs/common';
import { GamesModule } from '../games/index.js';
import { GameCache } from './game-cache.js';
import { MovesController } from './moves.controller.js';
import { MovesResolver } from './moves.resolver.js';
import { MovesService } from './moves.service.js';

@Module({
  imports: [GamesModule],
  controllers: [MovesController],
  providers: [MovesService, MovesResolver, GameCache],
  exports: [MovesService],
})
export class MovesModule {}
