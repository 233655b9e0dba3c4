import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { PageArgs } from '../common/paging.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateTournamentInput, ListTournamentsArgs } from './dto/tournament.inputs.js';
import { TournamentPage, TournamentRoundView, TournamentStanding, TournamentView } from './models/tournament.model.js';
import { TournamentsService } from './tournaments.service.js';

@Resolver(() => TournamentView)
export class TournamentsResolver {
  constructor(private readonly service: TournamentsService) {}

  @Public()
  @Query(() => TournamentPage, { description: 'Public tournaments, newest first; featured: true for the featured events only' })
  tournaments(@Args() args: ListTournamentsArgs): Promise<TournamentPage> {
    return this.service.list(args);
  }

  @Public()
  @Query(() => TournamentView, { description: 'A tournament; an invite one only for its creator and players' })
  tournament(@Args('id', { type: () => ID }, ParseUuidPipe) id: string, @OptionalPlayer() caller: AuthenticatedPlayer | undefined): Promise<TournamentView> {
    return this.service.get(id, caller?.id);
  }

  @Public()
  @Query(() => [TournamentStanding], { description: 'The standings, from the games counted so far' })
  async tournamentStandings(@Args('id', { type: () => ID }, ParseUuidPipe) id: string, @OptionalPlayer() caller: AuthenticatedPlayer | undefined): Promise<TournamentStanding[]> {
    return (await this.service.get(id, caller?.id)).standings;
  }

  @Public()
  @Query(() => [TournamentRoundView], { description: 'The rounds so far with their tables and games' })
  tournamentRounds(@Args('id', { type: () => ID }, ParseUuidPipe) id: string, @OptionalPlayer() caller: AuthenticatedPlayer | undefined): Promise<TournamentRoundView[]> {
    return this.service.rounds(id, caller?.id);
  }

  @Query(() => TournamentPage, { description: 'The tournaments you entered, newest first' })
  @RequireScope('read')
  myTournaments(@CurrentPlayer() caller: AuthenticatedPlayer, @Args() args: PageArgs): Promise<TournamentPage> {
    return this.service.ofPlayer(caller.id, args.first, args.after);
  }

  @Mutation(() => TournamentView, { description: 'Create a tournament, open for joining (you are not entered: join it to play); an invite one answers its code once' })
  @RequireScope('play')
  createTournament(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: CreateTournamentInput): Promise<TournamentView> {
    return this.service.create(caller, input);
  }

  @Mutation(() => TournamentView, { description: 'Enter an open tournament (an invite one with its code)' })
  @RequireScope('play')
  joinTournament(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('id', { type: () => ID }, ParseUuidPipe) id: string,
    @Args('inviteCode', { type: () => String, nullable: true }) inviteCode?: string | null,
  ): Promise<TournamentView> {
    return this.service.join(caller.id, id, inviteCode);
  }

  @Mutation(() => TournamentView, { description: 'Withdraw: before the start your entry goes; during it your remaining games are forfeited' })
  @RequireScope('play')
  withdrawFromTournament(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<TournamentView> {
    return this.service.withdraw(caller.id, id);
  }
}
