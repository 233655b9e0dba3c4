import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateOAuthAppInput } from './dto/oauth.inputs.js';
import { AuthorizedApp, OAuthApp, OAuthAuthorizationRequest, OAuthDecision } from './models/oauth.model.js';
import { OAuthService } from './oauth.service.js';

/**
 * Apps, consent and grants. Everything here needs `admin`: only the person, signed in (or with
 * their own full token), manages apps and answers an app — never another app, which `admin` never is.
 */
@Resolver()
@RequireScope('admin')
export class OAuthResolver {
  constructor(private readonly oauth: OAuthService) {}

  @Mutation(() => OAuthApp, { description: 'Register a third-party app (OAuth 2 public client, PKCE): its client_id is in the answer' })
  createOAuthApp(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: CreateOAuthAppInput): Promise<OAuthApp> {
    return this.oauth.createApp(caller, input);
  }

  @Query(() => [OAuthApp], { description: 'The apps the caller registered' })
  myOAuthApps(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<OAuthApp[]> {
    return this.oauth.myApps(caller);
  }

  @Mutation(() => OAuthApp, { description: 'Delete one of the caller’s apps: every access granted to it ends at once' })
  deleteOAuthApp(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('clientId') clientId: string): Promise<OAuthApp> {
    return this.oauth.deleteApp(caller, clientId);
  }

  @Query(() => OAuthAuthorizationRequest, { description: 'An app’s pending request for access, for the consent page' })
  oauthAuthorizationRequest(@Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<OAuthAuthorizationRequest> {
    return this.oauth.request(id);
  }

  @Mutation(() => OAuthDecision, { description: 'Give the app what it asked for: the browser goes to redirectTo (with a one-time code)' })
  approveOAuthRequest(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<OAuthDecision> {
    return this.oauth.approve(caller, id);
  }

  @Mutation(() => OAuthDecision, { description: 'Refuse the app: the browser goes to redirectTo (error=access_denied)' })
  denyOAuthRequest(@Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<OAuthDecision> {
    return this.oauth.deny(id);
  }

  @Query(() => [AuthorizedApp], { description: 'The apps the caller has given access to' })
  myAuthorizedApps(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<AuthorizedApp[]> {
    return this.oauth.authorizedApps(caller);
  }

  @Mutation(() => AuthorizedApp, { description: 'Take an app’s access away: its tokens stop working at once' })
  revokeAppAuthorization(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('clientId') clientId: string): Promise<AuthorizedApp> {
    return this.oauth.revokeAuthorization(caller, clientId);
  }
}
