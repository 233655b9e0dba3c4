import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { GameStatusEnum, type GameStatusValue } from '../../games/models/enums.js';
import { DealFacts, GamePlayer } from '../../games/models/game.model.js';

@ObjectType({ description: 'A trick taken: its cards are public once played' })
export class TrickRecord {
  @Field(() => Int, { description: 'From 0 within the deal' })
  @ApiProperty()
  index!: number;

  @Field(() => Int)
  @ApiProperty()
  leader!: number;

  @Field(() => [String], { description: 'In the order played, starting with the leader' })
  @ApiProperty({ type: [String], example: ['AH', '2H', '9H'] })
  cards!: string[];

  @Field(() => Int)
  @ApiProperty()
  winner!: number;
}

@ObjectType({ description: 'One deal of a game as scored: what was played for, the tricks, the scores and the totals after it' })
export class DealHistory extends DealFacts {
  @Field(() => [TrickRecord], { description: 'The tricks taken so far, in order' })
  @ApiProperty({ type: [TrickRecord] })
  tricks!: TrickRecord[];

  @Field(() => [Int], { nullable: 'itemsAndList', description: 'Tricks taken per seat (null: sat out); null until the deal is over' })
  @ApiProperty({ type: [Number], nullable: true })
  tricksTaken!: (number | null)[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per seat; null until the deal is over' })
  @ApiProperty({ type: [Number], nullable: true })
  scores!: number[] | null;

  @Field(() => [Int], { nullable: true, description: 'Totals per seat after this deal; null until the deal is over' })
  @ApiProperty({ type: [Number], nullable: true })
  runningTotals!: number[] | null;
}

@ObjectType({ description: 'The score sheet of a game: standings and the history of its deals' })
export class ScoreSheet {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  gameId!: string;

  @Field(() => GameStatusEnum)
  @ApiProperty({ enum: Object.values(GameStatusEnum), enumName: 'GameStatus' })
  status!: GameStatusValue;

  @Field(() => [GamePlayer], { description: 'By seat; place by total (ties share: 1, 1, 3), final once the game is over' })
  @ApiProperty({ type: [GamePlayer] })
  standings!: GamePlayer[];

  @Field(() => [DealHistory])
  @ApiProperty({ type: [DealHistory] })
  deals!: DealHistory[];
}
