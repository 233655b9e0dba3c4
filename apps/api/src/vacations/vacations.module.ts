import { Module } from '@nestjs/common';
import { GamesModule } from '../games/index.js';
import { VacationsController } from './vacations.controller.js';
import { VacationsResolver } from './vacations.resolver.js';
import { VacationsService } from './vacations.service.js';

/** Vacations: a player away has their clocks stopped in the games that allow it, within a yearly allowance. */
@Module({
  imports: [GamesModule],
  controllers: [VacationsController],
  providers: [VacationsService, VacationsResolver],
  exports: [VacationsService],
})
export class VacationsModule {}
