import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { PageArgs } from '../common/paging.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateApiTokenInput, RegisterInput } from './dto/player.inputs.js';
import { ApiToken, ApiTokenPage, CreateApiTokenPayload, Player, RegisterPayload } from './models/player.model.js';
import { PlayersService } from './players.service.js';
import { ClientAddress } from '../rate-limit/client-address.decorator.js';
import { RequireScope } from '../auth/scopes.js';

@Resolver(() => Player)
export class PlayersResolver {
  constructor(private readonly players: PlayersService) {}

  @Public()
  @Mutation(() => RegisterPayload, { description: 'Create a player; returns its first API token (shown once)' })
  register(@Args('input') input: RegisterInput, @ClientAddress() address: string): Promise<RegisterPayload> {
    return this.players.register(input.name, input.bot ?? false, address);
  }

  @Query(() => Player, { description: 'The caller' })
  @RequireScope('read')
  me(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Player> {
    return this.players.get(caller.id);
  }

  @Query(() => ApiTokenPage, { description: "The caller's API tokens (never their secrets), oldest first, by page" })
  @RequireScope('admin')
  myApiTokens(@CurrentPlayer() caller: AuthenticatedPlayer, @Args() page: PageArgs): Promise<ApiTokenPage> {
    return this.players.listTokens(caller.id, page.first, page.after);
  }

  @Mutation(() => CreateApiTokenPayload, { description: 'Create a further named API token (shown once)' })
  @RequireScope('admin')
  createApiToken(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('input') input: CreateApiTokenInput,
  ): Promise<CreateApiTokenPayload> {
    return this.players.createToken(caller.id, input);
  }

  @Mutation(() => ApiToken, { description: 'Revoke one of the caller’s API tokens' })
  @RequireScope('admin')
  revokeApiToken(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('id', { type: () => ID }, ParseUuidPipe) id: string,
  ): Promise<ApiToken> {
    return this.players.revokeToken(caller.id, id);
  }
}
