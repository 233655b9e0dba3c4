import { GraphQLISODateTime, Int } from '@nestjs/graphql';
import type { Bid, Contract, EndReason, EventView, Suit } from '@mizerka/rules';
import { type Flattened, Model, Prop } from '../../common/model-field.js';
import {
  ActorEnum,
  type ActorValue,
  BidEnum,
  ContractEnum,
  EndReasonEnum,
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
@Model({ description: 'A rules event as the viewer may see it; `type` says which fields are set' })
export class GameEventView implements Flattened<EventView> {
  @Prop(() => Int, { description: 'The log entry this event belongs to' })
  seq!: number;

  @Prop(() => GameEventTypeEnum, { enumRef: true })
  type!: GameEventType;

  @Prop(() => Int, { optional: true, description: 'dealt, dealScored: the deal index' })
  deal?: number;

  @Prop(() => Int, { optional: true })
  dealer?: number;

  @Prop(() => [String], { optional: true, nullable: true, description: "dealt, handCompleted: the viewer's hand (null for a spectator)" })
  hand?: string[] | null;

  @Prop(() => [Int], { optional: true })
  handSizes?: number[];

  @Prop(() => Int, { optional: true })
  talonSize?: number;

  @Prop(() => Int, { optional: true, description: 'The seat that acted' })
  seat?: number;

  @Prop(() => ContractEnum, { optional: true })
  contract?: Contract;

  @Prop(() => Int, { optional: true, description: 'exchanged, talonTaken, discarded: how many cards' })
  count?: number;

  @Prop(() => [String], { optional: true, description: 'exchanged: the discards, for the seat itself only' })
  discards?: string[];

  @Prop(() => [String], { optional: true, description: 'exchanged: the cards drawn, for the seat itself only' })
  drawn?: string[];

  @Prop(() => BidEnum, { optional: true })
  bid?: Bid;

  @Prop(() => SuitEnum, { optional: true })
  suit?: Suit;

  @Prop(() => String, { optional: true, description: 'cardPlayed', example: 'AS' })
  card?: string;

  @Prop(() => [String], {
    optional: true,
    description: 'talonTaken, discarded: for the seat itself only; trickTaken: the trick in play order',
  })
  cards?: string[];

  @Prop(() => Int, { optional: true, description: 'trickTaken: the trick index in the deal' })
  trick?: number;

  @Prop(() => Int, { optional: true })
  leader?: number;

  @Prop(() => Int, { optional: true })
  winner?: number;

  @Prop(() => [Int], { optional: true, nullable: 'itemsAndList' })
  tricks?: (number | null)[];

  @Prop(() => [Int], { optional: true })
  scores?: number[];

  @Prop(() => [Int], { optional: true })
  totals?: number[];

  @Prop(() => [Int], { optional: true })
  winners?: number[];

  @Prop(() => EndReasonEnum, { optional: true, enumRef: true, description: 'gameEnded: resigned or forfeit (the seat is `seat`)' })
  reason?: EndReason;
}

@Model({ description: "One entry of the event log: a deal dealt, a move accepted, a game ended by resignation or forfeit, or a seat's player away on vacation or back" })
export class GameLogEntry {
  @Prop(() => Int)
  seq!: number;

  @Prop(() => LogEntryKindEnum, { enumRef: true })
  kind!: LogEntryKind;

  @Prop(() => Int)
  dealIndex!: number;

  @Prop(() => Int, { nullable: true, description: 'The seat that moved, resigned or forfeited; null for a deal' })
  seat!: number | null;

  @Prop(() => ActorEnum, { enumRef: true, description: "Who acted: the seat's player, the system (a deal, a time-out, a forfeit) or a bot" })
  actor!: ActorValue;

  @Prop(() => String, { nullable: true, description: 'Why, when not an ordinary move: resigned, timeout or forfeit' })
  cause!: string | null;

  @Prop(() => GraphQLISODateTime)
  createdAt!: Date;

  @Prop(() => GraphQLISODateTime, {
    nullable: true,
    description: 'In a timed game, the deadline this entry set for the seat to move next (its turn began at createdAt)',
  })
  deadline!: Date | null;

  @Prop(() => [GameEventView])
  events!: GameEventView[];

  @Prop(() => GraphQLISODateTime, {
    nullable: true,
    optional: true,
    description: "An 'away' entry: when the seat's player is back at the latest (their vacation's end); null otherwise",
  })
  awayUntil?: Date | null;
}

@Model({ description: 'The event log after a given seq, as the viewer may see it' })
export class GameEventLog {
  @Prop({ format: 'uuid' })
  gameId!: string;

  @Prop(() => Int, { description: 'The seq of the last entry of the whole log' })
  version!: number;

  @Prop(() => [GameLogEntry])
  entries!: GameLogEntry[];

  @Prop({ description: 'More entries follow the last one returned; ask again after its seq' })
  hasMore!: boolean;
}
