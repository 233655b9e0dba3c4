import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { EventStreams } from '../auth/event-streams.js';
import { RequireScope } from '../auth/scopes.js';
import { FeedStreamQuery, MyTurnArgs } from './dto/inbox.args.js';
import { feedEventData, InboxService } from './inbox.service.js';
import { TurnToPlayPage } from './models/turn.model.js';

@ApiTags('inbox')
@ApiBearerAuth()
@Controller('me')
@RequireScope('read')
export class InboxController {
  constructor(
    private readonly inbox: InboxService,
    private readonly streams: EventStreams,
  ) {}

  @Get('turns')
  @ApiOkResponse({ type: TurnToPlayPage, description: "The caller's games waiting for their move, soonest deadline first (untimed last), by page" })
  turns(@CurrentPlayer() caller: AuthenticatedPlayer, @Query() query: MyTurnArgs): Promise<TurnToPlayPage> {
    return this.inbox.myTurn(caller, query.first, query.after);
  }

  @Get('events')
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id, one received from this feed (wins over `after`; any other id is 400)' })
  @ApiOkResponse({
    description:
      "Server-sent events: the caller's feed after the given id (else from now on), then each event as it is committed. " +
      'Each event is `id: <event id>`, `event: <type>`, `data: <FeedEvent as JSON>`; a `: ready` comment line says the stream follows ' +
      '(whatever is committed after it reaches the stream), and a `: keep-alive` comment line keeps an idle stream alive.',
  })
  events(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Query() query: FeedStreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    return this.streams.serve(
      res,
      caller,
      // Inside the stream's admission (its caps) and before its headers: a refused id is a 400.
      async (signal, started) => this.inbox.follow(caller, await this.inbox.resumeFrom(caller, lastEventId, query.after), signal, started),
      (event) => ({ id: event.id, event: event.type, data: feedEventData(event) }),
    );
  }
}
