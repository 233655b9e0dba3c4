import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer, OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { badInput, DomainError } from '../common/errors.js';
import { clientAddress } from '../rate-limit/rate-limiter.js';
import { ExportQuery, type GamesFilterQuery, MyGamesQuery, PlayerGamesQuery } from './dto/history.args.js';
import { ExportService } from './history-export.js';
import { HistoryService, type GamesFilter } from './history.service.js';
import { GameHistoryPage, ImportedGame, MyGamesPage } from './models/history.model.js';

@ApiTags('history')
@ApiBearerAuth()
@Controller()
export class HistoryController {
  constructor(
    private readonly history: HistoryService,
    private readonly exports: ExportService,
  ) {}

  @Public()
  @Get('players/:name/games')
  @ApiOkResponse({ type: GameHistoryPage, description: "A player's games newest first, filtered, by page (the GraphQL `games` connection's cursors)" })
  games(
    @Param('name') name: string,
    @Query() query: PlayerGamesQuery,
    @OptionalPlayer() caller?: AuthenticatedPlayer,
  ): Promise<GameHistoryPage> {
    return this.history.page(filterOf(name, query), query.first, query.after, caller);
  }

  @Get('games')
  @ApiOkResponse({ type: MyGamesPage, description: "The caller's games, newest first, filtered (active ones unless `status` says otherwise), by page" })
  @RequireScope('read')
  mine(@CurrentPlayer() caller: AuthenticatedPlayer, @Query() query: MyGamesQuery): Promise<MyGamesPage> {
    const filter = filterOf(null, query);
    return this.history.mine(caller, filter, query.first, query.after);
  }

  @Public()
  @Get('players/:name/games/export')
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({
    description:
      "A player's finished games, newest first, filtered: one mizerka-record/1 document per line (NDJSON), streamed; " +
      'replay each with `npx mizerka replay`. Games in progress are left out: their records would reveal the decks. ' +
      'A client that reads nothing for EXPORT_IDLE_SECONDS is cut off; one more export than EXPORT_MAX_PER_IP open from an ' +
      'address, or EXPORT_MAX_PER_PLAYER by a signed-in caller, is 429 RATE_LIMITED.',
  })
  async export(
    @Param('name') name: string,
    @Query() query: ExportQuery,
    @Req() req: Request,
    @Res() res: Response,
    @OptionalPlayer() caller?: AuthenticatedPlayer,
  ): Promise<void> {
    // Table talk is the seats' own: only a player exporting their own games gets it.
    if (query.includeChat && caller?.name.toLowerCase() !== name.toLowerCase()) {
      throw new DomainError('FORBIDDEN', "includeChat: only a player's own export (signed in as them) carries the table talk", { field: 'includeChat' });
    }
    const slot = this.exports.admit(clientAddress(req.ip), caller);
    try {
      // Errors (an unknown name, a bad filter) must come before the first line: resolve the filter first.
      const q = await this.history.query(filterOf(name, query), null, caller);
      res.status(200).setHeader('content-type', 'application/x-ndjson; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.flushHeaders();
      try {
        await this.exports.stream(q, query.limit, res, query.seeds, query.includeChat);
      } catch {
        // The status is sent: a failure can only cut the stream short, which the client sees.
        res.destroy();
      }
    } finally {
      slot.close();
    }
  }

  @Post('games/import')
  @HttpCode(201)
  @ApiBody({ description: 'A mizerka-record/1 document of a finished game', schema: { type: 'object' } })
  @ApiQuery({ name: 'seat', required: false, type: Number, description: 'Your seat; default: the seat the record names you at' })
  @ApiCreatedResponse({ type: ImportedGame, description: 'The archived game made from the record' })
  @RequireScope('play')
  import(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() record: unknown, @Query('seat') seat?: string): Promise<ImportedGame> {
    let seatNumber: number | null = null;
    if (seat !== undefined) {
      seatNumber = Number(seat);
      if (!/^\d$/.test(seat)) throw badInput('seat must be a seat number, 0 to 3', { field: 'seat' });
    }
    return this.history.import(caller, record, seatNumber);
  }
}

/** The REST filter: the path's player first, then `with`. */
function filterOf(name: string | null, query: GamesFilterQuery): GamesFilter {
  const others = query.with ? query.with.split(',').map((n) => n.trim()).filter((n) => n.length > 0) : [];
  return {
    players: name === null ? others : [name, ...others],
    preset: query.preset,
    family: query.family,
    playerCount: query.playerCount,
    status: query.status,
    rated: query.rated,
    imported: query.imported,
    from: query.from,
    to: query.to,
    result: query.result,
    place: query.place,
  };
}
