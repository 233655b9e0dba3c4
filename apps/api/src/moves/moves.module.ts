import { Module } from '@nestjs/common';
import { GamesModule } from '../games/games.module.js';
import { MovesController } from './moves.controller.js';
import { MovesResolver } from './moves.resolver.js';
import { MovesService } from './moves.service.js';

@Module({
  imports: [GamesModule],
  controllers: [MovesController],
  providers: [MovesService, MovesResolver],
  exports: [MovesService],
})
export class MovesModule {}
