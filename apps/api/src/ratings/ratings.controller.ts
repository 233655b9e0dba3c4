import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { badInput } from '../common/errors.js';
import { FAMILIES, PLAYER_COUNT_WORDS, PLAYER_COUNTS } from '../games/index.js';
import { LeaderboardPageArgs, RatingHistoryArgs } from './dto/rating.args.js';
import { LeaderboardPage, RatingHistoryPage } from './models/rating.model.js';
import { RatingsService } from './ratings.service.js';

@ApiTags('ratings')
@Controller()
export class RatingsController {
  constructor(private readonly ratings: RatingsService) {}

  @Public()
  @Get('leaderboards/:family/:players')
  @ApiParam({ name: 'family', enum: [...FAMILIES] })
  @ApiParam({ name: 'players', enum: [...PLAYER_COUNTS] })
  @ApiOkResponse({ type: LeaderboardPage, description: 'Players by rating, highest ordinal (mu - 3 sigma) first, by page' })
  leaderboard(@Param('family') family: string, @Param('players') players: string, @Query() page: LeaderboardPageArgs): Promise<LeaderboardPage> {
    if (!/^\d{1,2}$/.test(players)) throw badInput(`players must be ${PLAYER_COUNT_WORDS}`, { field: 'players' });
    return this.ratings.leaderboard({ ...page, family, players: Number(players) });
  }

  @Public()
  @Get('players/:name/ratings/history')
  @ApiOkResponse({ type: RatingHistoryPage, description: "The player's rating changes, newest first, by page" })
  history(@Param('name') name: string, @Query() args: RatingHistoryArgs): Promise<RatingHistoryPage> {
    return this.ratings.historyByName(name, args);
  }
}
