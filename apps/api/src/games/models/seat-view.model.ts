import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Bid, Contract, Phase, Suit } from '../../../../../libs/rules/src/index.js';
import { BidEnum, ContractEnum, FamilyEnum, type FamilyValue, MoveKindEnum, PhaseEnum, SuitEnum } from './enums.js';

// Output types mirroring the rules' SeatView (libs/rules view()). They only carry what view()
// returned for the viewer; nothing here is computed from the raw state.

const CARD = { example: 'AS', description: 'rank then suit: 2-9 T J Q K A, C D H S' };

@ObjectType({ description: 'What the seat to move may do; sets of cards, not enumerated subsets' })
export class LegalMovesView {
  @Field(() => MoveKindEnum)
  @ApiProperty({ enum: Object.values(MoveKindEnum), enumName: 'MoveKind' })
  kind!: string;

  @Field(() => Int)
  @ApiProperty()
  seat!: number;

  @Field(() => [ContractEnum], { nullable: true, description: 'contract: the contracts the chooser may choose' })
  @ApiProperty({ enum: Object.values(ContractEnum), isArray: true, required: false })
  contracts?: Contract[];

  @Field(() => [String], { nullable: true, description: 'exchange / discard: the cards that may be discarded; play: the cards that may be played' })
  @ApiProperty({ type: [String], required: false, example: ['AS', '7H'] })
  cards?: string[];

  @Field(() => Int, { nullable: true, description: 'exchange: discard any 0..maxDiscards distinct cards' })
  @ApiProperty({ required: false })
  maxDiscards?: number;

  @Field(() => Int, { nullable: true, description: 'discard: exactly this many cards' })
  @ApiProperty({ required: false })
  count?: number;

  @Field(() => [BidEnum], { nullable: true })
  @ApiProperty({ enum: Object.values(BidEnum), isArray: true, required: false })
  bids?: Bid[];

  @Field(() => [SuitEnum], { nullable: true })
  @ApiProperty({ enum: Object.values(SuitEnum), isArray: true, required: false })
  suits?: Suit[];
}

@ObjectType()
export class PlayedCard {
  @Field(() => Int)
  @ApiProperty()
  seat!: number;

  @Field()
  @ApiProperty(CARD)
  card!: string;
}

@ObjectType({ description: 'A trick being played (no winner yet) or the last one taken' })
export class TrickView {
  @Field(() => Int)
  @ApiProperty()
  leader!: number;

  @Field(() => [PlayedCard], { description: 'In the order played, starting with the leader' })
  @ApiProperty({ type: [PlayedCard] })
  cards!: PlayedCard[];

  @Field(() => Int, { nullable: true })
  @ApiProperty({ required: false })
  winner?: number;
}

@ObjectType({ description: 'The result of a finished deal' })
export class DealScoreView {
  @Field(() => Int)
  @ApiProperty()
  deal!: number;

  @Field(() => Int)
  @ApiProperty()
  dealer!: number;

  @Field(() => [Int], { nullable: 'items', description: 'Per seat; null for a seat that sat the deal out' })
  @ApiProperty({ type: [Number], nullable: true })
  tricks!: (number | null)[];

  @Field(() => [Int])
  @ApiProperty({ type: [Number] })
  scores!: number[];

  @Field(() => ContractEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(ContractEnum), nullable: true, required: false })
  contract?: Contract | null;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ nullable: true, required: false })
  declarer?: number | null;

  @Field(() => BidEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(BidEnum), nullable: true, required: false })
  bid?: Bid | null;

  @Field(() => SuitEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(SuitEnum), nullable: true, required: false })
  trump?: Suit | null;
}

@ObjectType({ description: 'The table as one seat (or a spectator) may see it: the only source of cards in a game view' })
export class SeatView {
  @Field(() => FamilyEnum)
  @ApiProperty({ enum: Object.values(FamilyEnum) })
  family!: FamilyValue;

  @Field()
  @ApiProperty({ example: 'short' })
  preset!: string;

  @Field(() => Int)
  @ApiProperty({ example: 3 })
  players!: number;

  @Field(() => PhaseEnum)
  @ApiProperty({ enum: Object.values(PhaseEnum) })
  phase!: Phase;

  @Field(() => Int, { description: 'Index of the deal being played, from 0' })
  @ApiProperty()
  deal!: number;

  @Field(() => Int)
  @ApiProperty()
  dealer!: number;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: Number, nullable: true })
  toMove!: number | null;

  @Field(() => Int, { nullable: true, description: 'The seat this view is for; null for a spectator' })
  @ApiProperty({ type: Number, nullable: true })
  viewer!: number | null;

  @Field(() => [String], { nullable: true, description: "The viewer's hand (first 6 cards only before the contract is chosen)" })
  @ApiProperty({ type: [String], nullable: true })
  hand!: string[] | null;

  @Field(() => [String], { nullable: true, description: "The viewer's own discards this deal" })
  @ApiProperty({ type: [String], nullable: true })
  discards!: string[] | null;

  @Field(() => [Int])
  @ApiProperty({ type: [Number] })
  handSizes!: number[];

  @Field(() => LegalMovesView, { nullable: true, description: 'Only when the viewer is to move' })
  @ApiProperty({ type: LegalMovesView, nullable: true })
  legalMoves!: LegalMovesView | null;

  @Field(() => Int)
  @ApiProperty()
  talonSize!: number;

  @Field(() => ContractEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(ContractEnum), nullable: true })
  contract!: Contract | null;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: Number, nullable: true })
  chooser!: number | null;

  @Field(() => [[ContractEnum]], { description: 'Contract family: per seat, the contracts not chosen yet' })
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string', enum: Object.values(ContractEnum) } } })
  contractsLeft!: Contract[][];

  @Field(() => [Int], { nullable: 'items', description: 'Contract family: cards exchanged per seat; null = not yet' })
  @ApiProperty({ type: [Number], nullable: true })
  exchanged!: (number | null)[];

  @Field(() => [BidEnum], { nullable: 'items', description: 'Bidding family: per seat; null = not yet' })
  @ApiProperty({ enum: Object.values(BidEnum), isArray: true, nullable: true })
  bids!: (Bid | null)[];

  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: Number, nullable: true })
  declarer!: number | null;

  @Field(() => BidEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(BidEnum), nullable: true })
  bid!: Bid | null;

  @Field(() => SuitEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(SuitEnum), nullable: true })
  trump!: Suit | null;

  @Field(() => [Int])
  @ApiProperty({ type: [Number] })
  activeSeats!: number[];

  @Field(() => TrickView, { nullable: true })
  @ApiProperty({ type: TrickView, nullable: true })
  currentTrick!: TrickView | null;

  @Field(() => TrickView, { nullable: true })
  @ApiProperty({ type: TrickView, nullable: true })
  lastTrick!: TrickView | null;

  @Field(() => [Int], { nullable: 'items', description: 'Tricks taken this deal, per seat' })
  @ApiProperty({ type: [Number], nullable: true })
  tricks!: (number | null)[];

  @Field(() => [DealScoreView])
  @ApiProperty({ type: [DealScoreView] })
  dealScores!: DealScoreView[];

  @Field(() => [Int])
  @ApiProperty({ type: [Number] })
  totals!: number[];

  @Field()
  @ApiProperty()
  over!: boolean;

  @Field(() => [Int])
  @ApiProperty({ type: [Number] })
  winners!: number[];
}
