import { ID, Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';
import { GameStatusEnum, type GameStatusValue } from '../../games/index.js';
import { DealFacts, GameEndView, GamePlayer } from '../../games/index.js';

@Model({ description: 'A trick taken: its cards are public once played' })
export class TrickRecord {
  @Prop(() => Int, { description: 'From 0 within the deal' })
  index!: number;

  @Prop(() => Int)
  leader!: number;

  @Prop(() => [String], { description: 'In the order played, starting with the leader', example: ['AH', '2H', '9H'] })
  cards!: string[];

  @Prop(() => Int)
  winner!: number;
}

@Model({ description: 'One deal of a game as scored: what was played for, the tricks, the scores and the totals after it' })
export class DealHistory extends DealFacts {
  @Prop(() => [TrickRecord], { description: 'The tricks taken so far, in order' })
  tricks!: TrickRecord[];

  @Prop(() => [Int], { nullable: 'itemsAndList', description: 'Tricks taken per seat (null: sat out); null until the deal is over' })
  tricksTaken!: (number | null)[] | null;

  @Prop(() => [Int], { nullable: true, description: 'Per seat; null until the deal is over' })
  scores!: number[] | null;

  @Prop(() => [Int], { nullable: true, description: 'Totals per seat after this deal; null until the deal is over' })
  runningTotals!: number[] | null;
}

@Model({ description: 'The score sheet of a game: standings and the history of its deals' })
export class ScoreSheet {
  @Prop(() => ID)
  gameId!: string;

  @Prop(() => GameStatusEnum, { enumRef: true })
  status!: GameStatusValue;

  @Prop(() => [GamePlayer], {
    description:
      'By seat; place by total (ties share: 1, 1, 3), final once the game is over. A seat that resigned or forfeited is last, alone; the others are placed by their totals',
  })
  standings!: GamePlayer[];

  @Prop({ description: 'An archived game a player uploaded as a record: never played here, unrated' })
  imported!: boolean;

  @Prop(() => GameEndView, { nullable: true, description: 'Set when the game ended early: the seat that resigned or forfeited, and which' })
  end!: GameEndView | null;

  @Prop(() => [DealHistory])
  deals!: DealHistory[];
}
