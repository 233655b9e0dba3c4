import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { GamesModule } from '../games/index.js';
import { LobbiesModule } from '../lobbies/lobbies.module.js';
import { MovesModule } from '../moves/moves.module.js';
import { BOT_THINKER, BotThinkerPool } from './bot-thinkers.js';
import { BotsController } from './bots.controller.js';
import { BotsResolver } from './bots.resolver.js';
import { BotsService } from './bots.service.js';

/** Server bots: seated by a lobby's host, moved by durable jobs through the move path. */
@Module({
  imports: [GamesModule, LobbiesModule, MovesModule],
  controllers: [BotsController],
  providers: [
    BotsService,
    BotsResolver,
    {
      provide: BOT_THINKER,
      useFactory: (config: ConfigService<AppConfig, true>) => new BotThinkerPool({ threads: config.get('botThreads', { infer: true }) }),
      inject: [ConfigService],
    },
  ],
  exports: [BotsService],
})
export class BotsModule {}
