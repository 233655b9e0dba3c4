import { Module } from '@nestjs/common';
import { MovesController } from './moves.controller.js';
import { MovesResolver } from './moves.resolver.js';
import { MovesService } from './moves.service.js';

@Module({
  controllers: [MovesController],
  providers: [MovesService, MovesResolver],
  exports: [MovesService],
})
export class MovesModule {}
