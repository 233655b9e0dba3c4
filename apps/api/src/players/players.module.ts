import { Module } from '@nestjs/common';
import { PlayersController } from './players.controller.js';
import { PlayersResolver } from './players.resolver.js';
import { PlayersService } from './players.service.js';

@Module({
  controllers: [PlayersController],
  providers: [PlayersService, PlayersResolver],
  exports: [PlayersService],
})
export class PlayersModule {}
