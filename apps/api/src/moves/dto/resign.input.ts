import { Field, ID, InputType } from '@nestjs/graphql';
import { IsUUID } from 'class-validator';
import { onlyKeys, QuickChecked } from '../../common/input-validation.js';
import { MOVE_OPTIONS_FIELDS, MoveOptionsBody, validMoveOptions, withGameId } from './move-options.input.js';

const RESIGN_FIELDS = new Set<string>(MOVE_OPTIONS_FIELDS);

/** ResignBody's class-validator rules, for the quick way: true only of a body they accept as it is. */
function quickResignBody(input: Readonly<Record<string, unknown>>): boolean {
  return onlyKeys(input, RESIGN_FIELDS) && validMoveOptions(input);
}

/** The body of POST /api/v1/games/:id/resign: both fields optional, as for a move. */
@InputType({ isAbstract: true })
@QuickChecked(quickResignBody)
export class ResignBody extends MoveOptionsBody {}

@InputType({ description: 'Resign a game: it ends at once, the resigning seat placed last' })
@QuickChecked(withGameId(quickResignBody))
export class ResignInput extends ResignBody {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}
