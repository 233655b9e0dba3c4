import { Args, Context, ID, Int, Query, Resolver, Subscription } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import type { GraphQLContext } from '../auth/request-context.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { GameEventsArgs, MyGamesArgs } from './dto/games.args.js';
import { GamesService } from './games.service.js';
import { GameEventLog, GameLogEntry } from './models/event-view.model.js';
import { GamePage, GameView } from './models/game.model.js';
import { GameRecordModel } from './models/record.model.js';
import { RequireScope } from '../auth/scopes.js';

@Resolver(() => GameView)
export class GamesResolver {
  constructor(private readonly games: GamesService) {}

  @Public()
  @Query(() => GameView, { description: "A game: the caller's seat view if seated, else the spectator view (no token needed)" })
  game(@Args('id', { type: () => ID }, ParseUuidPipe) id: string, @OptionalPlayer() viewer?: AuthenticatedPlayer): Promise<GameView> {
    return this.games.view(id, viewer);
  }

  @Query(() => GamePage, { description: "The caller's games, newest first, by page" })
  @RequireScope('read')
  myGames(@CurrentPlayer() caller: AuthenticatedPlayer, @Args() args: MyGamesArgs): Promise<GamePage> {
    return this.games.myGames(caller, args.status, args.first, args.after);
  }

  @Public()
  @Query(() => GameEventLog, { description: 'The event log after a seq, as the caller may see it' })
  gameEvents(@Args() args: GameEventsArgs, @OptionalPlayer() viewer?: AuthenticatedPlayer): Promise<GameEventLog> {
    return this.games.events(args.gameId.toLowerCase(), viewer, args.after, args.first);
  }

  @Public()
  @Query(() => GameRecordModel, { description: 'The mizerka-record/1 of a finished game (FORBIDDEN while it is being played)' })
  gameRecord(@Args('gameId', { type: () => ID }, ParseUuidPipe) gameId: string): Promise<GameRecordModel> {
    return this.games.record(gameId);
  }

  @Subscription(() => GameLogEntry, {
    description:
      'The event log after `after` (0: from the start), then each entry as it is committed, as the caller may see it; ' +
      'ends after the last entry of a finished game. Reconnect with the last seq received to resume.',
    resolve: (entry: GameLogEntry) => entry,
  })
  @RequireScope('read')
  gameLog(
    @Args('gameId', { type: () => ID }, ParseUuidPipe) gameId: string,
    @Args('after', { type: () => Int, defaultValue: 0 }) after: number,
    @CurrentPlayer() viewer: AuthenticatedPlayer,
    @Context() context: GraphQLContext,
  ): AsyncIterableIterator<GameLogEntry> {
    // The socket's signal: the stream ends at once when its socket closes or its token is revoked.
    return this.games.follow(gameId, viewer, Math.max(0, after), context.signal);
  }
}
