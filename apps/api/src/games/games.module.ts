import { Module } from '@nestjs/common';
import { GamesController } from './games.controller.js';
import { GamesResolver } from './games.resolver.js';
import { GamesService } from './games.service.js';

@Module({
  controllers: [GamesController],
  providers: [GamesService, GamesResolver],
  exports: [GamesService],
})
export class GamesModule {}
