import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { GameEventView } from '../../games/models/event-view.model.js';
import { GameStatusEnum, type GameStatusValue } from '../../games/models/enums.js';
import { SeatView } from '../../games/models/seat-view.model.js';

@ObjectType({ description: 'An accepted move: the new version, what it made happen (as the mover sees it), and the game' })
export class MoveResult {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  gameId!: string;

  @Field(() => Int, { description: 'The game version after the move (and after the next deal, if one was dealt)' })
  @ApiProperty()
  version!: number;

  @Field(() => [GameEventView])
  @ApiProperty({ type: [GameEventView] })
  events!: GameEventView[];

  @Field(() => GameStatusEnum)
  @ApiProperty({ enum: Object.values(GameStatusEnum), enumName: 'GameStatus' })
  status!: GameStatusValue;

  @Field(() => SeatView, { description: "The table as the mover now sees it (the game's full view: query game)" })
  @ApiProperty({ type: SeatView })
  game!: SeatView;
}
