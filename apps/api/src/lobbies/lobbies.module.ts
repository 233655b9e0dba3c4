import { Module } from '@nestjs/common';
import { GamesModule } from '../games/index.js';
import { LobbiesController } from './lobbies.controller.js';
import { LobbiesResolver } from './lobbies.resolver.js';
import { LobbiesService } from './lobbies.service.js';

@Module({
  imports: [GamesModule],
  controllers: [LobbiesController],
  providers: [LobbiesService, LobbiesResolver],
  exports: [LobbiesService],
})
export class LobbiesModule {}
