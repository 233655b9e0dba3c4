import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateApiTokenInput, RegisterInput } from './dto/player.inputs.js';
import { ApiToken, CreateApiTokenPayload, Player, RegisterPayload } from './models/player.model.js';
import { PlayersService } from './players.service.js';

@Resolver(() => Player)
export class PlayersResolver {
  constructor(private readonly players: PlayersService) {}

  @Public()
  @Mutation(() => RegisterPayload, { description: 'Create a player; returns its first API token (shown once)' })
  register(@Args('input') input: RegisterInput): Promise<RegisterPayload> {
    return this.players.register(input.name);
  }

  @Query(() => Player, { description: 'The caller' })
  me(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Player> {
    return this.players.get(caller.id);
  }

  @Query(() => [ApiToken], { description: "The caller's API tokens (never their secrets)" })
  myApiTokens(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<ApiToken[]> {
    return this.players.listTokens(caller.id);
  }

  @Mutation(() => CreateApiTokenPayload, { description: 'Create a further named API token (shown once)' })
  createApiToken(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('input') input: CreateApiTokenInput,
  ): Promise<CreateApiTokenPayload> {
    return this.players.createToken(caller.id, input.name);
  }

  @Mutation(() => ApiToken, { description: 'Revoke one of the caller’s API tokens' })
  revokeApiToken(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('id', { type: () => ID }, ParseUuidPipe) id: string,
  ): Promise<ApiToken> {
    return this.players.revokeToken(caller.id, id);
  }
}
