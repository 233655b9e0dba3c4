import { Field, ID, InputType } from '@nestjs/graphql';
import { IsUUID, isUUID } from 'class-validator';
import { QuickChecked } from '../../common/input-validation.js';
import { MoveOptionsBody, quickResignBody } from './move-options.input.js';

/** The body of POST /api/v1/games/:id/resign: both fields optional, as for a move. */
@InputType({ isAbstract: true })
@QuickChecked(quickResignBody)
export class ResignBody extends MoveOptionsBody {}

@InputType({ description: 'Resign a game: it ends at once, the resigning seat placed last' })
@QuickChecked(({ gameId, ...body }) => isUUID(gameId, 'all') && quickResignBody(body))
export class ResignInput extends ResignBody {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}
