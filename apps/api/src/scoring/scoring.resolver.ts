import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { ScoreSheet } from './models/scoring.model.js';
import { ScoringService } from './scoring.service.js';

@Resolver(() => ScoreSheet)
export class ScoringResolver {
  constructor(private readonly scoring: ScoringService) {}

  @Public()
  @Query(() => ScoreSheet, { description: 'Standings and the deal-by-deal history (tricks, scores, running totals) of a game' })
  scoreSheet(@Args('gameId', { type: () => ID }, ParseUuidPipe) gameId: string, @OptionalPlayer() viewer?: AuthenticatedPlayer): Promise<ScoreSheet> {
    return this.scoring.scoreSheet(gameId, viewer?.id ?? null);
  }
}
