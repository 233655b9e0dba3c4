import { Args, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { JSONScalar } from '../common/json.scalar.js';
import { GamesArgs } from './dto/history.args.js';
import { HistoryService } from './history.service.js';
import { GameConnection, ImportedGame } from './models/history.model.js';

@Resolver()
export class HistoryResolver {
  constructor(private readonly history: HistoryService) {}

  @Public()
  @Query(() => GameConnection, {
    description:
      'Games newest first (createdAt, then id), by page: all of them, or those with every named player at the table, ' +
      'filtered; the cursor keeps a page in place while games finish. No token needed, except for result/place of the caller.',
  })
  games(@Args() args: GamesArgs, @OptionalPlayer() caller?: AuthenticatedPlayer): Promise<GameConnection> {
    return this.history.connection(args.filter ?? {}, args.first, args.after, caller);
  }

  @Mutation(() => ImportedGame, {
    description:
      'Upload a finished game’s mizerka-record/1 as an archived game of yours: unrated, marked imported. ' +
      'You hold `seat` (default: the seat the record names you at); the other seats are names only.',
  })
  @RequireScope('play')
  importGame(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('record', { type: () => JSONScalar }) record: unknown,
    @Args('seat', { type: () => Int, nullable: true }) seat?: number | null,
  ): Promise<ImportedGame> {
    return this.history.import(caller, record, seat);
  }
}
