import { GraphQLISODateTime, ID, Int } from '@nestjs/graphql';
import type { Bid, Contract, RuleOptions, Suit } from '@mizerka/rules';
import { Model, Prop } from '../../common/model-field.js';
import { BotLevelEnum, PlayerKindEnum, type PlayerKindValue } from '../../players/models/player-kind.enum.js';
import { BidEnum, ContractEnum, GameStatusEnum, type GameStatusValue, SuitEnum } from './enums.js';
import { SeatView } from './seat-view.model.js';
import { GameClockModel } from './time-control.model.js';

@Model('GameRuleOptions', { description: 'Rule options as the game was started with (normalised)' })
export class RuleOptionsModel implements RuleOptions {
  @Prop(() => String, {
    optional: true,
    description: 'contract family: "reversed" (default) or "same"',
    api: { enum: ['reversed', 'same'] },
  })
  mizerkaQuotas?: 'reversed' | 'same';

  @Prop(() => Int, { optional: true, description: 'bidding family: the total that ends the game' })
  target?: number;

  @Prop(() => Boolean, { optional: true, description: 'bidding family: allow double misère' })
  doubleMisere?: boolean;
}

@Model({ description: 'A seated player with their running total; place once the game is over (1 may be shared)' })
export class GamePlayer {
  @Prop(() => Int)
  seat!: number;

  @Prop(() => ID, { nullable: true, description: "Null for a seat of an imported game that is a name from its record, not a player here" })
  playerId!: string | null;

  @Prop({ example: 'ala' })
  name!: string;

  @Prop(() => PlayerKindEnum, { enumRef: true, description: 'human or bot' })
  kind!: PlayerKindValue;

  @Prop(() => BotLevelEnum, { nullable: true, enumRef: true, description: "A server bot's level; null for a person or a bot account" })
  botLevel!: string | null;

  @Prop(() => Int)
  total!: number;

  @Prop(() => Int, { nullable: true, description: 'Standing among the players (ties share a place: 1, 1, 3)' })
  place!: number | null;
}

/** What every public account of a deal says: who dealt, the hashed seed, what was played for. */
@Model({ isAbstract: true })
export abstract class DealFacts {
  @Prop(() => Int)
  index!: number;

  @Prop(() => Int)
  dealer!: number;

  @Prop({ description: 'SHA-256 (hex) of the seed, public from the start of the deal' })
  seedHash!: string;

  @Prop(() => ContractEnum, { nullable: true })
  contract!: Contract | null;

  @Prop(() => Int, { nullable: true })
  declarer!: number | null;

  @Prop(() => BidEnum, { nullable: true })
  bid!: Bid | null;

  @Prop(() => SuitEnum, { nullable: true })
  trump!: Suit | null;

  @Prop()
  finished!: boolean;
}

@Model({ description: 'The public facts of one deal; the seed only once the game is over' })
export class DealInfo extends DealFacts {
  @Prop(() => String, { nullable: true, description: 'The 32-hex-digit seed of the shuffle; null until the game is over' })
  seed!: string | null;

  @Prop(() => [Int], { nullable: 'itemsAndList', description: 'Tricks per seat once the deal is over' })
  tricks!: (number | null)[] | null;

  @Prop(() => [Int], { nullable: true, description: 'Scores per seat once the deal is over' })
  scores!: number[] | null;
}

@Model('Game', { description: 'A game as the caller may see it: their seat view if seated, else the spectator view' })
export class GameView {
  @Prop(() => ID)
  id!: string;

  @Prop(() => GameStatusEnum, { enumRef: true })
  status!: GameStatusValue;

  @Prop(() => Int, { description: 'The seq of the last entry of the event log; send it back as expectedVersion' })
  version!: number;

  @Prop({ example: 'short' })
  preset!: string;

  @Prop(() => RuleOptionsModel)
  options!: RuleOptionsModel;

  @Prop(() => Int)
  firstDealer!: number;

  @Prop(() => Int, { nullable: true, description: "The caller's seat; null for a spectator" })
  mySeat!: number | null;

  @Prop(() => [GamePlayer])
  players!: GamePlayer[];

  @Prop({ description: 'An archived game a player uploaded as a record: never played here, unrated' })
  imported!: boolean;

  @Prop(() => [DealInfo])
  deals!: DealInfo[];

  @Prop(() => SeatView)
  view!: SeatView;

  @Prop(() => GameClockModel, { nullable: true, description: 'The move clock; null for an untimed game' })
  clock!: GameClockModel | null;

  @Prop({ optional: true, description: "Whether a seat's vacation stops this game's clock (false: it keeps running, as in a tournament)" })
  vacationAllowed?: boolean;

  @Prop(() => [GraphQLISODateTime], {
    optional: true,
    nullable: 'items',
    description: 'By seat: when its player is back from vacation at the latest, while they are away; null for a seat whose player is here',
    // A list of date-times that may hold nulls: said on its items, as the answers are checked against it.
    api: { type: 'array', items: { type: 'string', format: 'date-time', nullable: true } },
  })
  awayUntil?: (Date | null)[];

  @Prop(() => [Int], { description: 'Winning seats; empty until the game is over' })
  winners!: number[];

  @Prop(() => GraphQLISODateTime)
  createdAt!: Date;

  @Prop(() => GraphQLISODateTime)
  updatedAt!: Date;

  @Prop(() => GraphQLISODateTime, { nullable: true })
  finishedAt!: Date | null;
}

@Model({ description: 'One of the caller’s games, in a list' })
export class GameSummary {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'short' })
  preset!: string;

  @Prop(() => GameStatusEnum, { enumRef: true })
  status!: GameStatusValue;

  @Prop(() => Int)
  version!: number;

  @Prop(() => Int, { nullable: true })
  toMove!: number | null;

  @Prop(() => Int)
  mySeat!: number;

  @Prop({ description: 'Whether the caller holds the seat to move' })
  myTurn!: boolean;

  @Prop(() => [GamePlayer])
  players!: GamePlayer[];

  @Prop(() => GraphQLISODateTime)
  createdAt!: Date;

  @Prop(() => GraphQLISODateTime)
  updatedAt!: Date;

  @Prop(() => GraphQLISODateTime, { nullable: true })
  finishedAt!: Date | null;
}

@Model()
export class GamePage {
  @Prop(() => [GameSummary])
  items!: GameSummary[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More games follow this page' })
  hasMore!: boolean;
}
