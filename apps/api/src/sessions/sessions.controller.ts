import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { PageArgs } from '../common/paging.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { RefreshSessionInput } from './dto/session.inputs.js';
import { Session, SessionPage, SessionTokens } from './models/session.model.js';
import { SessionsService } from './sessions.service.js';

@ApiTags('sessions')
@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Public()
  @Post('sessions/refresh')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionTokens, description: 'The next access and refresh tokens; the refresh token sent is used up' })
  refresh(@Body() input: RefreshSessionInput): Promise<SessionTokens> {
    return this.sessions.refresh(input.refreshToken);
  }

  @ApiBearerAuth()
  @Get('me/sessions')
  @ApiOkResponse({ type: SessionPage, description: "The caller's signed-in sessions, most recently used first, by page" })
  @RequireScope('admin')
  list(@CurrentPlayer() caller: AuthenticatedPlayer, @Query() page: PageArgs): Promise<SessionPage> {
    return this.sessions.list(caller, page.first, page.after);
  }

  @ApiBearerAuth()
  @Delete('me/sessions/:id')
  @HttpCode(200)
  @ApiOkResponse({ type: Session, description: 'The ended session: its tokens stop working at once, its live connections close' })
  @RequireScope('admin')
  revoke(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<Session> {
    return this.sessions.revoke(caller, id);
  }

  @ApiBearerAuth()
  @Post('me/sign-out')
  @HttpCode(200)
  @ApiOkResponse({ type: Session, description: "Ends the caller's own session (a session's access token only)" })
  @RequireScope('read')
  signOut(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Session> {
    return this.sessions.signOut(caller);
  }
}
