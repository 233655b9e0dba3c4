import { Args, Query, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/public.decorator.js';
import { LeaderboardArgs } from './dto/rating.args.js';
import { LeaderboardPage } from './models/rating.model.js';
import { RatingsService } from './ratings.service.js';

@Resolver(() => LeaderboardPage)
export class RatingsResolver {
  constructor(private readonly ratings: RatingsService) {}

  @Public()
  @Query(() => LeaderboardPage, { description: 'Players by rating in one family and player count, highest ordinal (mu - 3 sigma) first' })
  leaderboard(@Args() args: LeaderboardArgs): Promise<LeaderboardPage> {
    return this.ratings.leaderboard(args);
  }
}
