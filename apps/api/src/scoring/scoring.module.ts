import { Module } from '@nestjs/common';
import { ScoringController } from './scoring.controller.js';
import { ScoringResolver } from './scoring.resolver.js';
import { ScoringService } from './scoring.service.js';

@Module({
  controllers: [ScoringController],
  providers: [ScoringService, ScoringResolver],
  exports: [ScoringService],
})
export class ScoringModule {}
