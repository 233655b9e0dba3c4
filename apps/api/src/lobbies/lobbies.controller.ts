import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateLobbyInput, JoinByCodeBody, JoinSeatBody, ListLobbiesArgs } from './dto/lobby.inputs.js';
import { LobbiesService } from './lobbies.service.js';
import { Lobby, LobbyPage } from './models/lobby.model.js';
import { RequireScope } from '../auth/scopes.js';

@ApiTags('lobbies')
@Controller()
export class LobbiesController {
  constructor(private readonly service: LobbiesService) {}

  @ApiBearerAuth()
  @Post('lobbies')
  @ApiCreatedResponse({ type: Lobby, description: 'The new lobby, with the caller seated as host' })
  @RequireScope('play')
  create(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: CreateLobbyInput): Promise<Lobby> {
    return this.service.create(caller.id, input);
  }

  @Public()
  @Get('lobbies')
  @ApiOkResponse({ type: LobbyPage, description: 'Open public lobbies, newest first' })
  list(@Query() args: ListLobbiesArgs): Promise<LobbyPage> {
    return this.service.list(args);
  }

  @Public()
  @Get('lobbies/by-code/:code')
  @ApiOkResponse({ type: Lobby })
  byCode(@Param('code') code: string): Promise<Lobby> {
    return this.service.getByCode(code);
  }

  @Public()
  @Get('lobbies/:id')
  @ApiOkResponse({ type: Lobby, description: 'An unlisted lobby only for its members' })
  get(@Param('id', ParseUuidPipe) id: string, @OptionalPlayer() caller: AuthenticatedPlayer | undefined): Promise<Lobby> {
    return this.service.get(id, caller?.id);
  }

  @ApiBearerAuth()
  @Post('lobbies/join-by-code')
  @HttpCode(200)
  @ApiOkResponse({ type: Lobby, description: 'The lobby after the join; the last seat taken starts the game' })
  @RequireScope('play')
  joinByCode(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() body: JoinByCodeBody): Promise<Lobby> {
    return this.service.join(caller.id, { inviteCode: body.inviteCode, seat: body.seat });
  }

  @ApiBearerAuth()
  @Post('lobbies/:id/join')
  @HttpCode(200)
  @ApiOkResponse({ type: Lobby, description: 'The lobby after the join; the last seat taken starts the game' })
  @RequireScope('play')
  join(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Body() body: JoinSeatBody,
  ): Promise<Lobby> {
    return this.service.join(caller.id, { lobbyId: id, seat: body?.seat });
  }

  @ApiBearerAuth()
  @Post('lobbies/:id/leave')
  @HttpCode(200)
  @ApiOkResponse({ type: Lobby, description: 'The lobby after leaving it' })
  @RequireScope('play')
  leave(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<Lobby> {
    return this.service.leave(caller.id, id);
  }

  @ApiBearerAuth()
  @Delete('lobbies/:id/players/:playerId')
  @HttpCode(200)
  @ApiOkResponse({ type: Lobby, description: 'The lobby without that player' })
  @RequireScope('play')
  remove(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Param('playerId', ParseUuidPipe) playerId: string,
  ): Promise<Lobby> {
    return this.service.remove(caller.id, id, playerId);
  }

  @ApiBearerAuth()
  @Post('lobbies/:id/start')
  @HttpCode(200)
  @ApiOkResponse({ type: Lobby, description: 'The started lobby, with its game id' })
  @RequireScope('play')
  start(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<Lobby> {
    return this.service.start(caller.id, id);
  }

  @ApiBearerAuth()
  @Post('games/:id/play-again')
  @ApiCreatedResponse({ type: Lobby, description: 'The rematch lobby (the same one for every player who asks)' })
  @RequireScope('play')
  playAgain(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<Lobby> {
    return this.service.playAgain(caller.id, id);
  }
}
