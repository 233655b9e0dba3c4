import { Module } from '@nestjs/common';
import { GamesModule } from '../games/index.js';
import { MovesModule } from '../moves/moves.module.js';
import { ClocksService } from './clocks.service.js';

/** Move clocks: the jobs that fire at a turn's deadline and act for an absent seat. */
@Module({ imports: [GamesModule, MovesModule], providers: [ClocksService], exports: [ClocksService] })
export class ClocksModule {}
