import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { EventStreams } from '../auth/event-streams.js';
import { Public } from '../auth/public.decorator.js';
import { Deprecated } from '../common/deprecated.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { EventLogQuery } from './dto/games.args.js';
import { LogStreamQuery, resumeSeq } from './dto/log-stream.args.js';
import { GamesService } from './games.service.js';
import { GameEventLog } from './models/event-view.model.js';
import { GameView } from './models/game.model.js';
import { GameRecordModel } from './models/record.model.js';
import { RequireScope } from '../auth/scopes.js';

@ApiTags('games')
@ApiBearerAuth()
@Controller('games')
export class GamesController {
  constructor(
    private readonly games: GamesService,
    private readonly streams: EventStreams,
  ) {}

  // GET /games (the caller's games, filtered) is served by the history module, which owns the filters.

  @Public()
  @Get(':id')
  @ApiOkResponse({ type: GameView, description: "The caller's seat view if seated, else the spectator view; no token needed" })
  view(@Param('id', ParseUuidPipe) id: string, @OptionalPlayer() viewer?: AuthenticatedPlayer): Promise<GameView> {
    return this.games.view(id, viewer);
  }

  @Public()
  @Get(':id/events')
  // `limit` was v1's first name of `first` (renamed inside v1, then taken back: CHANGELOG.md 1.0.0).
  @Deprecated({ parameter: 'limit', since: '2026-12-01', sunset: '2027-06-01', instead: 'first' })
  @ApiOkResponse({ type: GameEventLog, description: 'The event log after `after`, as the caller may see it' })
  events(
    @Param('id', ParseUuidPipe) id: string,
    @Query() query: EventLogQuery,
    @OptionalPlayer() viewer?: AuthenticatedPlayer,
  ): Promise<GameEventLog> {
    return this.games.events(id, viewer, query.after, query.limit ?? query.first);
  }

  @Get(':id/events/stream')
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this seq (wins over `after`)' })
  @ApiOkResponse({
    description:
      'Server-sent events: the log after `after`, then each entry as it is committed, as the caller may see it ' +
      '(like the gameLog subscription): `id: <seq>`, `event: <kind>`, `data: <GameLogEntry as JSON>`; ends after the ' +
      'last entry of a finished game, and answers 204 when a finished game has nothing after `after`. A `: ready` comment line ' +
      'says the stream follows (whatever is committed after it reaches the stream).',
  })
  @RequireScope('read')
  stream(
    @Param('id', ParseUuidPipe) id: string,
    @Query() query: LogStreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentPlayer() viewer: AuthenticatedPlayer,
    @Res() res: Response,
  ): Promise<void> {
    const after = resumeSeq(lastEventId, query.after);
    return this.streams.serve(
      res,
      viewer,
      (signal, started) => this.games.followStream(id, viewer, after, signal, started),
      (entry) => ({ id: String(entry.seq), event: entry.kind, data: entry }),
    );
  }

  @Public()
  @Get(':id/record')
  @ApiOkResponse({ type: GameRecordModel, description: 'The mizerka-record/1 document of a finished game; 403 while it is played' })
  record(@Param('id', ParseUuidPipe) id: string): Promise<GameRecordModel> {
    return this.games.record(id);
  }
}
