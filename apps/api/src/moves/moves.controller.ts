import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { badInput } from '../common/errors.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { MoveBody } from './dto/make-move.input.js';
import { MoveResult } from './models/move-result.model.js';
import { MovesService } from './moves.service.js';

@ApiTags('games')
@ApiBearerAuth()
@Controller('games')
export class MovesController {
  constructor(private readonly moves: MovesService) {}

  @Post(':id/moves')
  @HttpCode(200)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Same as idempotencyKey in the body' })
  @ApiOkResponse({ type: MoveResult, description: 'The move was accepted (or had been, under the same idempotency key)' })
  makeMove(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Body() body: MoveBody,
    @Headers('idempotency-key') headerKey?: string,
  ): Promise<MoveResult> {
    if (headerKey !== undefined && (headerKey.length < 1 || headerKey.length > 128)) {
      throw badInput('Idempotency-Key must be 1 to 128 characters long');
    }
    if (headerKey !== undefined && body.idempotencyKey !== undefined && headerKey !== body.idempotencyKey) {
      throw badInput('The Idempotency-Key header and idempotencyKey in the body differ');
    }
    return this.moves.makeMove(caller, id, { ...body, idempotencyKey: body.idempotencyKey ?? headerKey });
  }
}
