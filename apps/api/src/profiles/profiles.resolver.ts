import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/public.decorator.js';
import { RatingHistoryArgs } from '../ratings/dto/rating.args.js';
import { RatingHistoryPage } from '../ratings/models/rating.model.js';
import { RatingsService } from '../ratings/ratings.service.js';
import { HeadToHeadArgs, StatsArgs } from './dto/profile.args.js';
import { HeadToHead, PlayerProfile, PlayerStats } from './models/profile.model.js';
import { ProfilesService } from './profiles.service.js';

@Resolver(() => PlayerProfile)
export class ProfilesResolver {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly ratings: RatingsService,
  ) {}

  @Public()
  @Query(() => PlayerProfile, { description: "A player's public profile by name (case aside): record per preset, ratings, recent games" })
  player(@Args('name') name: string): Promise<PlayerProfile> {
    return this.profiles.profile(name);
  }

  @Public()
  @ResolveField(() => PlayerStats, { description: "The player's statistics in one preset, from the deals of their finished games" })
  stats(@Parent() profile: PlayerProfile, @Args() args: StatsArgs): Promise<PlayerStats> {
    return this.profiles.stats(profile.id, args.preset);
  }

  @Public()
  @ResolveField(() => HeadToHead, { description: 'How the player fared against another in the finished games they played together' })
  headToHead(@Parent() profile: PlayerProfile, @Args() args: HeadToHeadArgs): Promise<HeadToHead> {
    return this.profiles.headToHead(profile.name, args.other);
  }

  @Public()
  @ResolveField(() => RatingHistoryPage, { description: "The player's rating changes, newest first, by page" })
  ratingHistory(@Parent() profile: PlayerProfile, @Args() args: RatingHistoryArgs): Promise<RatingHistoryPage> {
    return this.ratings.history(profile.id, args);
  }
}
