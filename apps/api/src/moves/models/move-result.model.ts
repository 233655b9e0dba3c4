import { GraphQLISODateTime, ID, Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';
import { GameEventView } from '../../games/index.js';
import { GameStatusEnum, type GameStatusValue } from '../../games/index.js';
import { SeatView } from '../../games/index.js';

@Model({ description: 'An accepted move: the new version, what it made happen (as the mover sees it), and the game' })
export class MoveResult {
  @Prop(() => ID)
  gameId!: string;

  @Prop(() => Int, { description: 'The game version after the move (and after the next deal, if one was dealt)' })
  version!: number;

  @Prop(() => [GameEventView])
  events!: GameEventView[];

  @Prop(() => GameStatusEnum, { enumRef: true })
  status!: GameStatusValue;

  @Prop(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the seat to move now must have moved (its move clock); null when untimed or the game is over',
  })
  deadline!: Date | null;

  @Prop(() => SeatView, { description: "The table as the mover now sees it (the game's full view: query game)" })
  game!: SeatView;
}
