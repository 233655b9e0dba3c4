import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { PlayersController } from './players.controller.js';
import { PlayersResolver } from './players.resolver.js';
import { PlayersService } from './players.service.js';

@Module({
  imports: [RateLimitModule],
  controllers: [PlayersController],
  providers: [PlayersService, PlayersResolver],
  exports: [PlayersService],
})
export class PlayersModule {}
