import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateLobbyInput, JoinLobbyInput, ListLobbiesArgs } from './dto/lobby.inputs.js';
import { LobbiesService } from './lobbies.service.js';
import { Lobby, LobbyPage } from './models/lobby.model.js';
import { RequireScope } from '../auth/scopes.js';

@Resolver(() => Lobby)
export class LobbiesResolver {
  constructor(private readonly service: LobbiesService) {}

  @Public()
  @Query(() => LobbyPage, { description: 'Open public lobbies, newest first' })
  lobbies(@Args() args: ListLobbiesArgs): Promise<LobbyPage> {
    return this.service.list(args);
  }

  @Public()
  @Query(() => Lobby, { description: 'A lobby by id; an unlisted one only for its members' })
  lobby(
    @Args('id', { type: () => ID }, ParseUuidPipe) id: string,
    @OptionalPlayer() caller: AuthenticatedPlayer | undefined,
  ): Promise<Lobby> {
    return this.service.get(id, caller?.id);
  }

  @Public()
  @Query(() => Lobby, { description: 'A lobby by its invite code (public or unlisted)' })
  lobbyByInviteCode(@Args('code') code: string): Promise<Lobby> {
    return this.service.getByCode(code);
  }

  @Mutation(() => Lobby, { description: 'Open a lobby for a preset; the caller is its host and takes a seat' })
  @RequireScope('play')
  createLobby(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: CreateLobbyInput): Promise<Lobby> {
    return this.service.create(caller.id, input);
  }

  @Mutation(() => Lobby, { description: 'Take a seat, by lobby id or invite code; the last seat taken starts the game' })
  @RequireScope('play')
  joinLobby(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: JoinLobbyInput): Promise<Lobby> {
    return this.service.join(caller.id, input);
  }

  @Mutation(() => Lobby, { description: 'Give up your seat before the game starts' })
  @RequireScope('play')
  leaveLobby(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('lobbyId', { type: () => ID }, ParseUuidPipe) lobbyId: string,
  ): Promise<Lobby> {
    return this.service.leave(caller.id, lobbyId);
  }

  @Mutation(() => Lobby, { description: 'The host removes a player before the game starts' })
  @RequireScope('play')
  removeFromLobby(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('lobbyId', { type: () => ID }, ParseUuidPipe) lobbyId: string,
    @Args('playerId', { type: () => ID }, ParseUuidPipe) playerId: string,
  ): Promise<Lobby> {
    return this.service.remove(caller.id, lobbyId, playerId);
  }

  @Mutation(() => Lobby, { description: 'The host starts the game of a full lobby (a full lobby also starts by itself)' })
  @RequireScope('play')
  startLobby(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('lobbyId', { type: () => ID }, ParseUuidPipe) lobbyId: string,
  ): Promise<Lobby> {
    return this.service.start(caller.id, lobbyId);
  }

  @Mutation(() => Lobby, {
    description: 'A new lobby for the players of a finished game, in the same seats; its game starts at once',
  })
  @RequireScope('play')
  playAgain(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('gameId', { type: () => ID }, ParseUuidPipe) gameId: string,
  ): Promise<Lobby> {
    return this.service.playAgain(caller.id, gameId);
  }
}
