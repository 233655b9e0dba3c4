import { Module } from '@nestjs/common';
import { EventStreamsModule } from '../auth/event-streams.module.js';
import { GamesModule } from '../games/index.js';
import { MovesModule } from '../moves/moves.module.js';
import { TournamentBus, TournamentFollowers } from './tournament-followers.js';
import { TournamentPlayersResolver } from './tournament-players.resolver.js';
import { TournamentsController } from './tournaments.controller.js';
import { TournamentsResolver } from './tournaments.resolver.js';
import { TournamentsService } from './tournaments.service.js';

/** Tournaments: round-robin, Swiss, duplicate and arena events whose tables are games; a consumer of game ends. */
@Module({
  imports: [GamesModule, MovesModule, EventStreamsModule],
  controllers: [TournamentsController],
  providers: [TournamentsService, TournamentBus, TournamentFollowers, TournamentsResolver, TournamentPlayersResolver],
  exports: [TournamentsService],
})
export class TournamentsModule {}
