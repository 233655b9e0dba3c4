import { Args, Mutation, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { MakeMoveInput } from './dto/make-move.input.js';
import { ResignInput } from './dto/resign.input.js';
import { MoveResult } from './models/move-result.model.js';
import { MovesService } from './moves.service.js';
import { RequireScope } from '../auth/scopes.js';

@Resolver(() => MoveResult)
export class MovesResolver {
  constructor(private readonly moves: MovesService) {}

  @Mutation(() => MoveResult, {
    description:
      'Make a move in a game where the caller holds the seat to move. NOT_YOUR_TURN, ILLEGAL_MOVE (extensions.rule), ' +
      'CONFLICT (extensions.version) when expectedVersion is stale or another move got in first.',
  })
  @RequireScope('play')
  makeMove(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: MakeMoveInput): Promise<MoveResult> {
    const { gameId, ...move } = input;
    return this.moves.makeMove(caller, gameId.toLowerCase(), move);
  }

  @Mutation(() => MoveResult, {
    description:
      'Resign a game where the caller holds a seat, whoever is to move: the game ends at once, the deal in progress ' +
      'is abandoned, the caller is placed last and the others by their totals. ILLEGAL_MOVE (rule game-over) when it is over.',
  })
  @RequireScope('play')
  resign(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: ResignInput): Promise<MoveResult> {
    const { gameId, ...options } = input;
    return this.moves.resign(caller, gameId.toLowerCase(), options);
  }
}
