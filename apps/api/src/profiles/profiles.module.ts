import { Module } from '@nestjs/common';
import { RatingsModule } from '../ratings/ratings.module.js';
import { PlayerStatsService } from './player-stats.service.js';
import { ProfilesController } from './profiles.controller.js';
import { ProfilesResolver } from './profiles.resolver.js';
import { ProfilesService } from './profiles.service.js';

/** Public player profiles, per-preset statistics (kept per player by an outbox consumer) and head-to-head records. */
@Module({
  imports: [RatingsModule],
  controllers: [ProfilesController],
  providers: [ProfilesService, ProfilesResolver, PlayerStatsService],
  exports: [PlayerStatsService],
})
export class ProfilesModule {}
