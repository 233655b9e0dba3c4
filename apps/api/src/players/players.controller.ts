import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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

@ApiTags('players')
@Controller()
export class PlayersController {
  constructor(private readonly players: PlayersService) {}

  @Public()
  @Post('players')
  @ApiCreatedResponse({ type: RegisterPayload, description: 'The player and its first API token (shown once)' })
  register(@Body() input: RegisterInput, @ClientAddress() address: string): Promise<RegisterPayload> {
    return this.players.register(input.name, input.bot ?? false, address);
  }

  @ApiBearerAuth()
  @Get('me')
  @ApiOkResponse({ type: Player })
  @RequireScope('read')
  me(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Player> {
    return this.players.get(caller.id);
  }

  @ApiBearerAuth()
  @Get('me/tokens')
  @ApiOkResponse({ type: ApiTokenPage, description: "The caller's API tokens, oldest first, by page" })
  @RequireScope('admin')
  tokens(@CurrentPlayer() caller: AuthenticatedPlayer, @Query() page: PageArgs): Promise<ApiTokenPage> {
    return this.players.listTokens(caller.id, page.first, page.after);
  }

  @ApiBearerAuth()
  @Post('me/tokens')
  @ApiCreatedResponse({ type: CreateApiTokenPayload })
  @RequireScope('admin')
  createToken(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: CreateApiTokenInput): Promise<CreateApiTokenPayload> {
    return this.players.createToken(caller.id, input);
  }

  @ApiBearerAuth()
  @Delete('me/tokens/:id')
  @HttpCode(200)
  @ApiOkResponse({ type: ApiToken, description: 'The revoked token' })
  @RequireScope('admin')
  revokeToken(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<ApiToken> {
    return this.players.revokeToken(caller.id, id);
  }
}
