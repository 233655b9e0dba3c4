import { Module } from '@nestjs/common';
import { GamesModule } from '../games/index.js';
import { MovesModule } from '../moves/moves.module.js';
import { TournamentPlayersResolver } from './tournament-players.resolver.js';
import { TournamentsController } from './tournaments.controller.js';
import { TournamentsResolver } from './tournaments.resolver.js';
import { TournamentsService } from './tournaments.service.js';

/** Tournaments: round-robin and Swiss events whose tables are games; a consumer of game ends. */
@Module({
  imports: [GamesModule, MovesModule],
  controllers: [TournamentsController],
  providers: [TournamentsService, TournamentsResolver, TournamentPlayersResolver],
  exports: [TournamentsService],
})
export class TournamentsModule {}
