import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { EventStreams } from '../auth/event-streams.js';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { PageArgs } from '../common/paging.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { CreateTournamentInput, JoinTournamentBody, ListTournamentsArgs } from './dto/tournament.inputs.js';
import { TournamentPage, TournamentRoundView, TournamentStanding, TournamentView } from './models/tournament.model.js';
import { TournamentsService } from './tournaments.service.js';

@ApiTags('tournaments')
@Controller()
export class TournamentsController {
  constructor(
    private readonly service: TournamentsService,
    private readonly streams: EventStreams,
  ) {}

  @ApiBearerAuth()
  @Get('tournaments/:id/stream')
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      'Server-sent events: the tournament now, then again after each change (a join, a round, a counted game, the end): ' +
      '`id: <ms of the change>`, `event: tournament`, `data: <TournamentView as JSON>`; ends once it is finished or cancelled. ' +
      'A `: ready` comment says the stream follows.',
  })
  @RequireScope('read')
  stream(@Param('id', ParseUuidPipe) id: string, @CurrentPlayer() caller: AuthenticatedPlayer, @Res() res: Response): Promise<void> {
    return this.streams.serve(
      res,
      caller,
      (signal, started) => this.service.followStream(id, caller.id, signal, started),
      (change) => ({ id: String(change.at), event: 'tournament', data: change.view }),
    );
  }

  @ApiBearerAuth()
  @Post('tournaments')
  @ApiCreatedResponse({ type: TournamentView, description: 'The new tournament, open for joining; an invite one with its code (answered this once)' })
  @RequireScope('play')
  create(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: CreateTournamentInput): Promise<TournamentView> {
    return this.service.create(caller, input);
  }

  @Public()
  @Get('tournaments')
  @ApiOkResponse({ type: TournamentPage, description: 'Public tournaments, newest first; featured=true for the featured events only' })
  list(@Query() args: ListTournamentsArgs): Promise<TournamentPage> {
    return this.service.list(args);
  }

  @ApiBearerAuth()
  @Get('me/tournaments')
  @ApiOkResponse({ type: TournamentPage, description: 'The tournaments you entered, newest first' })
  @RequireScope('read')
  mine(@CurrentPlayer() caller: AuthenticatedPlayer, @Query() args: PageArgs): Promise<TournamentPage> {
    return this.service.ofPlayer(caller.id, args.first, args.after);
  }

  @Public()
  @Get('tournaments/:id')
  @ApiOkResponse({ type: TournamentView, description: 'An invite tournament only for its creator and players' })
  get(@Param('id', ParseUuidPipe) id: string, @OptionalPlayer() caller: AuthenticatedPlayer | undefined): Promise<TournamentView> {
    return this.service.get(id, caller?.id);
  }

  @Public()
  @Get('tournaments/:id/standings')
  @ApiOkResponse({ type: TournamentStanding, isArray: true, description: 'The standings, from the games counted so far' })
  async standings(@Param('id', ParseUuidPipe) id: string, @OptionalPlayer() caller: AuthenticatedPlayer | undefined): Promise<TournamentStanding[]> {
    return (await this.service.get(id, caller?.id)).standings;
  }

  @Public()
  @Get('tournaments/:id/rounds')
  @ApiOkResponse({ type: TournamentRoundView, isArray: true, description: 'The rounds so far with their tables and games' })
  rounds(@Param('id', ParseUuidPipe) id: string, @OptionalPlayer() caller: AuthenticatedPlayer | undefined): Promise<TournamentRoundView[]> {
    return this.service.rounds(id, caller?.id);
  }

  @ApiBearerAuth()
  @Post('tournaments/:id/join')
  @HttpCode(200)
  @ApiOkResponse({ type: TournamentView, description: 'The tournament after the join (reaching minPlayers starts one without a start time)' })
  @RequireScope('play')
  join(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string, @Body() body: JoinTournamentBody): Promise<TournamentView> {
    return this.service.join(caller.id, id, body?.inviteCode);
  }

  @ApiBearerAuth()
  @Post('tournaments/:id/withdraw')
  @HttpCode(200)
  @ApiOkResponse({ type: TournamentView, description: 'The tournament after the withdrawal' })
  @RequireScope('play')
  withdraw(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<TournamentView> {
    return this.service.withdraw(caller.id, id);
  }
}
