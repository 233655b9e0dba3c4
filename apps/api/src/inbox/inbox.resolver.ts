import { Args, Context, Query, Resolver, Subscription } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import type { GraphQLContext } from '../auth/request-context.js';
import { RequireScope } from '../auth/scopes.js';
import type { FeedEvent } from '../player-events/feed.js';
import { MyTurnArgs } from './dto/inbox.args.js';
import { InboxService } from './inbox.service.js';
import { FeedEventModel } from './models/feed-event.model.js';
import { TurnToPlayPage } from './models/turn.model.js';

@Resolver()
@RequireScope('read')
export class InboxResolver {
  constructor(private readonly inbox: InboxService) {}

  @Query(() => TurnToPlayPage, { description: "The caller's games waiting for their move, soonest deadline first (untimed last), by page" })
  myTurn(@CurrentPlayer() caller: AuthenticatedPlayer, @Args() args: MyTurnArgs): Promise<TurnToPlayPage> {
    return this.inbox.myTurn(caller, args.first, args.after);
  }

  @Subscription(() => FeedEventModel, {
    description:
      "The caller's feed: the events after `after` (the id of an event received from this feed; any other is BAD_INPUT), or " +
      'without it only those from now on, then each one as it is ' +
      'committed. Reconnect with the last id received to resume, with neither gap nor duplicate.',
    resolve: (event: FeedEvent) => event,
  })
  async myEvents(
    @Args('after', { type: () => String, nullable: true }) after: string | null,
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Context() context: GraphQLContext,
  ): Promise<AsyncIterableIterator<FeedEvent>> {
    // The socket's signal: the stream ends at once when its socket closes or its token is revoked.
    return this.inbox.follow(caller, await this.inbox.resumeFrom(caller, undefined, after), context.signal);
  }
}
