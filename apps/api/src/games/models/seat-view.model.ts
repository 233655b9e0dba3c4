import { Int } from '@nestjs/graphql';
import type {
  Bid,
  Contract,
  DealScoreView as RulesDealScoreView,
  EndReason,
  GameEnd,
  LegalMovesView as RulesLegalMovesView,
  Phase,
  Preset,
  SeatView as RulesSeatView,
  Suit,
  TrickView as RulesTrickView,
} from '@mizerka/rules';
import { type Flattened, Model, Prop } from '../../common/model-field.js';
import { BidEnum, ContractEnum, EndReasonEnum, FamilyEnum, type FamilyValue, type MoveKind, MoveKindEnum, PhaseEnum, SuitEnum } from './enums.js';

// Output types mirroring the rules' SeatView (libs/rules view()). They only carry what view()
// returned for the viewer; nothing here is computed from the raw state.

type RulesPlayedCard = RulesTrickView['cards'][number];

const CARD = { example: 'AS', description: 'rank then suit: 2-9 T J Q K A, C D H S' };

/** The rules' LegalMovesView union, flattened (its `count` is the literal 2 there). */
@Model({ description: 'What the seat to move may do; sets of cards, not enumerated subsets' })
export class LegalMovesView implements Omit<Flattened<RulesLegalMovesView>, 'count'> {
  @Prop(() => MoveKindEnum, { enumRef: true })
  kind!: MoveKind;

  @Prop(() => Int)
  seat!: number;

  @Prop(() => [ContractEnum], { optional: true, description: 'contract: the contracts the chooser may choose' })
  contracts?: Contract[];

  @Prop(() => [String], {
    optional: true,
    description: 'exchange / discard: the cards that may be discarded; play: the cards that may be played',
    example: ['AS', '7H'],
  })
  cards?: string[];

  @Prop(() => Int, { optional: true, description: 'exchange: discard any 0..maxDiscards distinct cards' })
  maxDiscards?: number;

  @Prop(() => Int, { optional: true, description: 'discard: exactly this many cards' })
  count?: number;

  @Prop(() => [BidEnum], { optional: true })
  bids?: Bid[];

  @Prop(() => [SuitEnum], { optional: true })
  suits?: Suit[];
}

@Model()
export class PlayedCard implements RulesPlayedCard {
  @Prop(() => Int)
  seat!: number;

  @Prop(CARD)
  card!: string;
}

@Model({ description: 'A trick being played (no winner yet) or the last one taken' })
export class TrickView implements RulesTrickView {
  @Prop(() => Int)
  leader!: number;

  @Prop(() => [PlayedCard], { description: 'In the order played, starting with the leader' })
  cards!: PlayedCard[];

  @Prop(() => Int, { optional: true })
  winner?: number;
}

@Model({ description: 'The result of a finished deal' })
export class DealScoreView implements RulesDealScoreView {
  @Prop(() => Int)
  deal!: number;

  @Prop(() => Int)
  dealer!: number;

  @Prop(() => [Int], { nullable: 'items', description: 'Per seat; null for a seat that sat the deal out' })
  tricks!: (number | null)[];

  @Prop(() => [Int])
  scores!: number[];

  @Prop(() => ContractEnum, { optional: true, nullable: true })
  contract?: Contract | null;

  @Prop(() => Int, { optional: true, nullable: true })
  declarer?: number | null;

  @Prop(() => BidEnum, { optional: true, nullable: true })
  bid?: Bid | null;

  @Prop(() => SuitEnum, { optional: true, nullable: true })
  trump?: Suit | null;
}

@Model({ description: 'How a game ended early: the seat that resigned or forfeited' })
export class GameEndView implements GameEnd {
  @Prop(() => Int)
  seat!: number;

  @Prop(() => EndReasonEnum, { enumRef: true })
  reason!: EndReason;
}

/** The rules' SeatView; legalMoves and lastTrick are the flattened classes above. */
@Model({ description: 'The table as one seat (or a spectator) may see it: the only source of cards in a game view' })
export class SeatView implements Omit<RulesSeatView, 'legalMoves' | 'lastTrick'> {
  @Prop(() => FamilyEnum)
  family!: FamilyValue;

  @Prop(() => String, { example: 'short' })
  preset!: Preset;

  @Prop(() => Int, { example: 3 })
  players!: number;

  @Prop(() => PhaseEnum)
  phase!: Phase;

  @Prop(() => Int, { description: 'Index of the deal being played, from 0' })
  deal!: number;

  @Prop(() => Int)
  dealer!: number;

  @Prop(() => Int, { nullable: true })
  toMove!: number | null;

  @Prop(() => Int, { nullable: true, description: 'The seat this view is for; null for a spectator' })
  viewer!: number | null;

  @Prop(() => [String], { nullable: true, description: "The viewer's hand (first 6 cards only before the contract is chosen)" })
  hand!: string[] | null;

  @Prop(() => [String], { nullable: true, description: "The viewer's own discards this deal" })
  discards!: string[] | null;

  @Prop(() => [Int])
  handSizes!: number[];

  @Prop(() => LegalMovesView, { nullable: true, description: 'Only when the viewer is to move' })
  legalMoves!: LegalMovesView | null;

  @Prop(() => Int)
  talonSize!: number;

  @Prop(() => ContractEnum, { nullable: true })
  contract!: Contract | null;

  @Prop(() => Int, { nullable: true })
  chooser!: number | null;

  @Prop(() => [[ContractEnum]], { description: 'Contract family: per seat, the contracts not chosen yet' })
  contractsLeft!: Contract[][];

  @Prop(() => [Int], { nullable: 'items', description: 'Contract family: cards exchanged per seat; null = not yet' })
  exchanged!: (number | null)[];

  @Prop(() => [BidEnum], { nullable: 'items', description: 'Bidding family: per seat; null = not yet' })
  bids!: (Bid | null)[];

  @Prop(() => Int, { nullable: true })
  declarer!: number | null;

  @Prop(() => BidEnum, { nullable: true })
  bid!: Bid | null;

  @Prop(() => SuitEnum, { nullable: true })
  trump!: Suit | null;

  @Prop(() => [Int])
  activeSeats!: number[];

  @Prop(() => TrickView, { nullable: true })
  currentTrick!: TrickView | null;

  @Prop(() => TrickView, { nullable: true })
  lastTrick!: TrickView | null;

  @Prop(() => [Int], { nullable: 'items', description: 'Tricks taken this deal, per seat' })
  tricks!: (number | null)[];

  @Prop(() => [DealScoreView])
  dealScores!: DealScoreView[];

  @Prop(() => [Int])
  totals!: number[];

  @Prop()
  over!: boolean;

  @Prop(() => GameEndView, { nullable: true, description: 'Set when the game ended early: who resigned or forfeited' })
  end!: GameEndView | null;

  @Prop(() => [Int])
  winners!: number[];
}
