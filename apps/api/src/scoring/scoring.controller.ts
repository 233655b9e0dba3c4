import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { OptionalPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { ScoreSheet } from './models/scoring.model.js';
import { ScoringService } from './scoring.service.js';

@ApiTags('games')
@Controller('games')
export class ScoringController {
  constructor(private readonly scoring: ScoringService) {}

  @Public()
  @Get(':id/deals')
  @ApiOkResponse({ type: ScoreSheet, description: 'Standings and the deal-by-deal history of a game' })
  deals(@Param('id', ParseUuidPipe) id: string, @OptionalPlayer() viewer?: AuthenticatedPlayer): Promise<ScoreSheet> {
    return this.scoring.scoreSheet(id, viewer?.id ?? null);
  }
}
