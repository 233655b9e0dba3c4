import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { StatsArgs } from './dto/profile.args.js';
import { HeadToHead, PlayerProfile, PlayerStats } from './models/profile.model.js';
import { ProfilesService } from './profiles.service.js';

@ApiTags('players')
@Controller()
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  @Public()
  @Get('players/:name')
  @ApiOkResponse({ type: PlayerProfile, description: "A player's public profile (name case aside): record per preset, ratings, recent games" })
  profile(@Param('name') name: string): Promise<PlayerProfile> {
    return this.profiles.profile(name);
  }

  @Public()
  @Get('players/:name/stats')
  @ApiOkResponse({ type: PlayerStats, description: "The player's statistics in one preset, from the deals of their finished games" })
  stats(@Param('name') name: string, @Query() args: StatsArgs): Promise<PlayerStats> {
    return this.profiles.statsByName(name, args.preset);
  }

  @Public()
  @Get('players/:name/head-to-head/:other')
  @ApiOkResponse({ type: HeadToHead, description: 'How the player fared against the other in the finished games they played together' })
  headToHead(@Param('name') name: string, @Param('other') other: string): Promise<HeadToHead> {
    return this.profiles.headToHead(name, other);
  }
}
