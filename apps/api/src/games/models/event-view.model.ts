import { Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Bid, Contract, Suit } from '../../../../../libs/rules/src/index.js';
import {
  BidEnum,
  ContractEnum,
  GameEventTypeEnum,
  type GameEventType,
  LogEntryKindEnum,
  type LogEntryKind,
  SuitEnum,
} from './enums.js';

/**
 * One rules event as a viewer may see it (the rules' eventView), flattened: `type` says which
 * fields are set. Another seat's private cards never appear: exchanges, talons and discards of
 * others come as counts.
 */
@ObjectType({ description: 'A rules event as the viewer may see it; `type` says which fields are set' })
export class GameEventView {
  @Field(() => Int, { description: 'The log entry this event belongs to' })
  @ApiProperty()
  seq!: number;

  @Field(() => GameEventTypeEnum)
  @ApiProperty({ enum: Object.values(GameEventTypeEnum), enumName: 'GameEventType' })
  type!: GameEventType;

  @Field(() => Int, { nullable: true, description: 'dealt, dealScored: the deal index' })
  @ApiProperty({ required: false })
  deal?: number;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ required: false })
  dealer?: number;

  @Field(() => [String], { nullable: true, description: "dealt, handCompleted: the viewer's hand (null for a spectator)" })
  @ApiProperty({ type: [String], nullable: true, required: false })
  hand?: string[] | null;

  @Field(() => [Int], { nullable: true })
  @ApiProperty({ type: [Number], required: false })
  handSizes?: number[];

  @Field(() => Int, { nullable: true })
  @ApiProperty({ required: false })
  talonSize?: number;

  @Field(() => Int, { nullable: true, description: 'The seat that acted' })
  @ApiProperty({ required: false })
  seat?: number;

  @Field(() => ContractEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(ContractEnum), required: false })
  contract?: Contract;

  @Field(() => Int, { nullable: true, description: 'exchanged, talonTaken, discarded: how many cards' })
  @ApiProperty({ required: false })
  count?: number;

  @Field(() => [String], { nullable: true, description: 'exchanged: the discards, for the seat itself only' })
  @ApiProperty({ type: [String], required: false })
  discards?: string[];

  @Field(() => [String], { nullable: true, description: 'exchanged: the cards drawn, for the seat itself only' })
  @ApiProperty({ type: [String], required: false })
  drawn?: string[];

  @Field(() => BidEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(BidEnum), required: false })
  bid?: Bid;

  @Field(() => SuitEnum, { nullable: true })
  @ApiProperty({ enum: Object.values(SuitEnum), required: false })
  suit?: Suit;

  @Field(() => String, { nullable: true, description: 'cardPlayed' })
  @ApiProperty({ required: false, example: 'AS' })
  card?: string;

  @Field(() => [String], {
    nullable: true,
    description: 'talonTaken, discarded: for the seat itself only; trickTaken: the trick in play order',
  })
  @ApiProperty({ type: [String], required: false })
  cards?: string[];

  @Field(() => Int, { nullable: true, description: 'trickTaken: the trick index in the deal' })
  @ApiProperty({ required: false })
  trick?: number;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ required: false })
  leader?: number;

  @Field(() => Int, { nullable: true })
  @ApiProperty({ required: false })
  winner?: number;

  @Field(() => [Int], { nullable: 'itemsAndList' })
  @ApiProperty({ type: [Number], nullable: true, required: false })
  tricks?: (number | null)[];

  @Field(() => [Int], { nullable: true })
  @ApiProperty({ type: [Number], required: false })
  scores?: number[];

  @Field(() => [Int], { nullable: true })
  @ApiProperty({ type: [Number], required: false })
  totals?: number[];

  @Field(() => [Int], { nullable: true })
  @ApiProperty({ type: [Number], required: false })
  winners?: number[];
}

@ObjectType({ description: 'One entry of the event log: a deal dealt or a move accepted' })
export class GameLogEntry {
  @Field(() => Int)
  @ApiProperty()
  seq!: number;

  @Field(() => LogEntryKindEnum)
  @ApiProperty({ enum: Object.values(LogEntryKindEnum), enumName: 'LogEntryKind' })
  kind!: LogEntryKind;

  @Field(() => Int)
  @ApiProperty()
  dealIndex!: number;

  @Field(() => Int, { nullable: true, description: 'The seat that moved; null for a deal' })
  @ApiProperty({ type: Number, nullable: true })
  seat!: number | null;

  @Field(() => GraphQLISODateTime)
  @ApiProperty()
  createdAt!: Date;

  @Field(() => [GameEventView])
  @ApiProperty({ type: [GameEventView] })
  events!: GameEventView[];
}

@ObjectType({ description: 'The event log after a given seq, as the viewer may see it' })
export class GameEventLog {
  @Field()
  @ApiProperty({ format: 'uuid' })
  gameId!: string;

  @Field(() => Int, { description: 'The seq of the last entry of the whole log' })
  @ApiProperty()
  version!: number;

  @Field(() => [GameLogEntry])
  @ApiProperty({ type: [GameLogEntry] })
  entries!: GameLogEntry[];

  @Field({ description: 'More entries follow the last one returned; ask again after its seq' })
  @ApiProperty()
  hasMore!: boolean;
}
