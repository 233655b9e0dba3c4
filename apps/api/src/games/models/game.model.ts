import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Bid, Contract, Suit } from '../../../../../libs/rules/src/index.js';
import { BidEnum, ContractEnum, GameStatusEnum, type GameStatusValue, SuitEnum } from './enums.js';
import { SeatView } from './seat-view.model.js';

@ObjectType('GameRuleOptions', { description: 'Rule options as the game was started with (normalised)' })
export class RuleOptionsModel {
  @Field(() => String, { nullable: true, description: 'contract family: "reversed" (default) or "same"' })
  @ApiProperty({ enum: ['reversed', 'same'], required: false })
  mizerkaQuotas?: 'reversed' | 'same';

  @Field(() => Int, { nullable: true, description: 'bidding family: the total that ends the game' })
  @ApiProperty({ required: false })
  target?: number;

  @Field(() => Boolean, { nullable: true, description: 'bidding family: allow double misère' })
  @ApiProperty({ required: false })
  doubleMisere?: boolean;
}

@ObjectType({ description: 'A seated player with their running total; place once the game is over (1 may be shared)' })
export class GamePlayer {
  @Field(() => Int)
  @ApiProperty()
  seat!: number;

  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  playerId!: string;

  @Field()
  @ApiProperty({ example: 'ala' })
  name!: string;

  @Field(() => Int)
  @ApiProperty()
  total!: number;

  @Field(() => Int, { nullable: true, description: 'Standing among the players (ties share a place: 1, 1, 3)' })
  @ApiProperty({ type: Number, nullable: true })
  place!: number | null;
}

/** What every public account of a deal says: who dealt, the hashed seed, what was played for. */
@ObjectType({ isAbstract: true })
export abstract class DealFacts {
  @Field(() => Int)
  @ApiProperty()
  index!: number;

  @Field(() => Int)
  @ApiProperty()
  dealer!: number;

  @Field({ description: 'SHA-256 (hex) of the seed, public from the start of the deal' })
  @ApiProperty()
  seedHash!: string;

  @Field(() => ContractEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(ContractEnum), nullable: true })
  contract!: Contract | null;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: Number, nullable: true })
  declarer!: number | null;

  @Field(() => BidEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(BidEnum), nullable: true })
  bid!: Bid | null;

  @Field(() => SuitEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(SuitEnum), nullable: true })
  trump!: Suit | null;

  @Field()
  @ApiProperty()
  finished!: boolean;
}

@ObjectType({ description: 'The public facts of one deal; the seed only once the game is over' })
export class DealInfo extends DealFacts {
  @Field(() => String, { nullable: true, description: 'The 32-hex-digit seed of the shuffle; null until the game is over' })
  @ApiProperty({ type: String, nullable: true })
  seed!: string | null;

  @Field(() => [Int], { nullable: 'itemsAndList', description: 'Tricks per seat once the deal is over' })
  @ApiProperty({ type: [Number], nullable: true })
  tricks!: (number | null)[] | null;

  @Field(() => [Int], { nullable: true, description: 'Scores per seat once the deal is over' })
  @ApiProperty({ type: [Number], nullable: true })
  scores!: number[] | null;
}

@ObjectType('Game', { description: 'A game as the caller may see it: their seat view if seated, else the spectator view' })
export class GameView {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field(() => GameStatusEnum)
  @ApiProperty({ enum: Object.values(GameStatusEnum), enumName: 'GameStatus' })
  status!: GameStatusValue;

  @Field(() => Int, { description: 'The seq of the last entry of the event log; send it back as expectedVersion' })
  @ApiProperty()
  version!: number;

  @Field()
  @ApiProperty({ example: 'short' })
  preset!: string;

  @Field(() => RuleOptionsModel)
  @ApiProperty({ type: RuleOptionsModel })
  options!: RuleOptionsModel;

  @Field(() => Int)
  @ApiProperty()
  firstDealer!: number;

  @Field(() => Int, { nullable: true, description: "The caller's seat; null for a spectator" })
  @ApiProperty({ type: Number, nullable: true })
  mySeat!: number | null;

  @Field(() => [GamePlayer])
  @ApiProperty({ type: [GamePlayer] })
  players!: GamePlayer[];

  @Field(() => [DealInfo])
  @ApiProperty({ type: [DealInfo] })
  deals!: DealInfo[];

  @Field(() => SeatView)
  @ApiProperty({ type: SeatView })
  view!: SeatView;

  @Field(() => [Int], { description: 'Winning seats; empty until the game is over' })
  @ApiProperty({ type: [Number] })
  winners!: number[];

  @Field(() => GraphQLISODateTime)
  @ApiProperty()
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  @ApiProperty()
  updatedAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  @ApiProperty({ type: Date, nullable: true })
  finishedAt!: Date | null;
}

@ObjectType({ description: 'One of the caller’s games, in a list' })
export class GameSummary {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field()
  @ApiProperty({ example: 'short' })
  preset!: string;

  @Field(() => GameStatusEnum)
  @ApiProperty({ enum: Object.values(GameStatusEnum), enumName: 'GameStatus' })
  status!: GameStatusValue;

  @Field(() => Int)
  @ApiProperty()
  version!: number;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: Number, nullable: true })
  toMove!: number | null;

  @Field(() => Int)
  @ApiProperty()
  mySeat!: number;

  @Field({ description: 'Whether the caller holds the seat to move' })
  @ApiProperty()
  myTurn!: boolean;

  @Field(() => [GamePlayer])
  @ApiProperty({ type: [GamePlayer] })
  players!: GamePlayer[];

  @Field(() => GraphQLISODateTime)
  @ApiProperty()
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  @ApiProperty()
  updatedAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  @ApiProperty({ type: Date, nullable: true })
  finishedAt!: Date | null;
}

@ObjectType()
export class GamePage {
  @Field(() => [GameSummary])
  @ApiProperty({ type: [GameSummary] })
  items!: GameSummary[];

  @Field(() => Int, { nullable: true, description: 'The offset of the next page; null on the last page' })
  @ApiProperty({ type: Number, nullable: true })
  nextOffset!: number | null;
}
