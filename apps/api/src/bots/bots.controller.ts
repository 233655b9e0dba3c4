import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { Lobby } from '../lobbies/models/lobby.model.js';
import { BotsService } from './bots.service.js';
import { AddBotBody } from './dto/add-bot.body.js';

@ApiTags('lobbies')
@Controller()
export class BotsController {
  constructor(private readonly bots: BotsService) {}

  @ApiBearerAuth()
  @Post('lobbies/:id/bots')
  @HttpCode(200)
  @ApiOkResponse({
    type: Lobby,
    description: 'The lobby with a server bot seated (host only); the last seat taken starts the game. Remove it with DELETE /lobbies/{id}/players/{playerId}',
  })
  @RequireScope('play')
  addBot(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string, @Body() body: AddBotBody): Promise<Lobby> {
    return this.bots.addBot(caller.id, id, body.level, body.seat);
  }
}
