import { GraphQLISODateTime, ID, Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';
import { GameLogEntry, GamePlayer } from '../../games/index.js';

@Model({ description: 'An active game where it is the caller\'s move' })
export class TurnToPlay {
  @Prop(() => ID)
  gameId!: string;

  @Prop({ example: 'classic' })
  preset!: string;

  @Prop(() => Int, { description: "The caller's seat, the one to move" })
  seat!: number;

  @Prop(() => Int, { description: 'The game version; pass it as expectedVersion with the move' })
  version!: number;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When the move is due; null in an untimed game' })
  deadline!: Date | null;

  @Prop(() => [GamePlayer], { description: 'The other players, with their running totals' })
  opponents!: GamePlayer[];

  @Prop(() => GameLogEntry, {
    nullable: true,
    description: "The last entry of the log that is not a deal, as the caller's seat may see it; null before the first move",
  })
  lastMove!: GameLogEntry | null;
}

@Model({ description: 'Games waiting for the caller, soonest deadline first (untimed last)' })
export class TurnToPlayPage {
  @Prop(() => [TurnToPlay])
  items!: TurnToPlay[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More games follow this page' })
  hasMore!: boolean;
}
