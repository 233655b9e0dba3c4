import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { PageArgs } from '../common/paging.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { RefreshSessionInput } from './dto/session.inputs.js';
import { Session, SessionPage, SessionTokens } from './models/session.model.js';
import { SessionsService } from './sessions.service.js';

@Resolver(() => Session)
export class SessionsResolver {
  constructor(private readonly sessions: SessionsService) {}

  @Public()
  @Mutation(() => SessionTokens, { description: 'Trade a refresh token for the next access and refresh tokens; a second use of one ends its session' })
  refreshSession(@Args('input') input: RefreshSessionInput): Promise<SessionTokens> {
    return this.sessions.refresh(input.refreshToken);
  }

  @Query(() => SessionPage, { description: "The caller's signed-in sessions, most recently used first, by page" })
  @RequireScope('admin')
  mySessions(@CurrentPlayer() caller: AuthenticatedPlayer, @Args() page: PageArgs): Promise<SessionPage> {
    return this.sessions.list(caller, page.first, page.after);
  }

  @Mutation(() => Session, { description: 'End one of the caller’s sessions: its tokens stop working at once' })
  @RequireScope('admin')
  revokeSession(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<Session> {
    return this.sessions.revoke(caller, id);
  }

  @Mutation(() => Session, { description: "End the caller's own session (a session's access token only)" })
  @RequireScope('read')
  signOut(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Session> {
    return this.sessions.signOut(caller);
  }
}
