import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { badInput } from '../common/errors.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { MoveBody } from './dto/make-move.input.js';
import { ResignBody } from './dto/resign.input.js';
import { MoveResult } from './models/move-result.model.js';
import { MovesService } from './moves.service.js';
import { RequireScope } from '../auth/scopes.js';

@ApiTags('games')
@ApiBearerAuth()
@Controller('games')
export class MovesController {
  constructor(private readonly moves: MovesService) {}

  @Post(':id/moves')
  @HttpCode(200)
  @ApiHeader({ name: 'idempotency-key', required: false, description: 'Idempotency-Key: the same as idempotencyKey in the body' })
  @ApiOkResponse({ type: MoveResult, description: 'The move was accepted (or had been, under the same idempotency key)' })
  @RequireScope('play')
  makeMove(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Body() body: MoveBody,
    @Headers('idempotency-key') headerKey?: string,
  ): Promise<MoveResult> {
    return this.moves.makeMove(caller, id, { ...body, idempotencyKey: idempotencyKey(body.idempotencyKey, headerKey) });
  }

  @Post(':id/resign')
  @HttpCode(200)
  @ApiHeader({ name: 'idempotency-key', required: false, description: 'Idempotency-Key: the same as idempotencyKey in the body' })
  @ApiOkResponse({
    type: MoveResult,
    description: 'The caller resigned: the game is over, the caller placed last and the others by their totals',
  })
  @RequireScope('play')
  resign(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Param('id', ParseUuidPipe) id: string,
    @Body() body: ResignBody,
    @Headers('idempotency-key') headerKey?: string,
  ): Promise<MoveResult> {
    return this.moves.resign(caller, id, { ...body, idempotencyKey: idempotencyKey(body.idempotencyKey, headerKey) });
  }
}

/** The key from the body or the Idempotency-Key header, which must agree when both are sent. */
function idempotencyKey(inBody: string | undefined, header: string | undefined): string | undefined {
  if (header !== undefined && (header.length < 1 || header.length > 128)) {
    throw badInput('Idempotency-Key must be 1 to 128 characters long', { field: 'Idempotency-Key' });
  }
  if (header !== undefined && inBody !== undefined && header !== inBody) {
    throw badInput('The Idempotency-Key header and idempotencyKey in the body differ', { field: 'idempotencyKey' });
  }
  return inBody ?? header;
}
