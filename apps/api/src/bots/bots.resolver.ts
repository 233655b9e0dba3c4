import { Args, ID, Int, Mutation, Resolver } from '@nestjs/graphql';
import type { BotLevel } from '@mizerka/bots';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { Lobby } from '../lobbies/models/lobby.model.js';
import { BotLevelEnum } from '../players/models/player-kind.enum.js';
import { BotsService } from './bots.service.js';

@Resolver()
export class BotsResolver {
  constructor(private readonly bots: BotsService) {}

  @Mutation(() => Lobby, {
    description: 'The host seats a server bot (at `seat`, else the lowest free one); the last seat taken starts the game. Remove it with removeFromLobby',
  })
  @RequireScope('play')
  addBot(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('lobbyId', { type: () => ID }, ParseUuidPipe) lobbyId: string,
    @Args('level', { type: () => BotLevelEnum }) level: BotLevel,
    @Args('seat', { type: () => Int, nullable: true }) seat?: number | null,
  ): Promise<Lobby> {
    return this.bots.addBot(caller.id, lobbyId, level, seat);
  }
}
