import { Float, ID, Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';
import { FAMILIES, FAMILY_WORDS } from '../../games/index.js';
import { BotLevelEnum, PlayerKindEnum, type PlayerKindValue } from '../../players/models/player-kind.enum.js';
import { Rating } from '../../ratings/models/rating.model.js';


@Model({ description: "A player's record in one preset, over their finished games" })
export class PresetRecord {
  @Prop({ example: 'classic' })
  preset!: string;

  @Prop(() => Int, { description: 'Finished games played' })
  games!: number;

  @Prop(() => Int, { description: 'Games in first place (shared first place counts)' })
  wins!: number;

  @Prop(() => Float, { description: 'Mean place (1 is first)', example: 1.8 })
  averagePlace!: number;

  @Prop(() => Int, { description: 'Scored deals the player took part in (a bidding-4 dealer sits one out)' })
  deals!: number;

  @Prop(() => Float, { nullable: true, description: "Mean of the player's deal scores; null without a scored deal" })
  averageScorePerDeal!: number | null;
}

@Model({ description: 'A seat of a game in a summary' })
export class ProfileGameSeat {
  @Prop(() => Int)
  seat!: number;

  @Prop(() => ID)
  playerId!: string;

  @Prop()
  name!: string;

  @Prop(() => PlayerKindEnum, { enumRef: true, description: 'human or bot' })
  kind!: PlayerKindValue;

  @Prop(() => Int, { description: 'Points so far (the sum of the finished deals)' })
  total!: number;

  @Prop(() => Int, { nullable: true, description: 'Final place; null while the game is played' })
  place!: number | null;
}

@Model({ description: 'A game in brief: its table and result, never a card' })
export class ProfileGame {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'classic' })
  preset!: string;

  @Prop(() => Int)
  players!: number;

  @Prop({ description: 'active or finished', api: { enum: ['active', 'finished'] } })
  status!: string;

  @Prop({ description: "Whether it changes (changed) its players' ratings" })
  rated!: boolean;

  @Prop(() => Int, { description: "The profile's player's seat" })
  seat!: number;

  @Prop(() => [ProfileGameSeat], { description: 'Every seat, in seat order' })
  seats!: ProfileGameSeat[];

  @Prop(() => String, { nullable: true, description: 'For a game that ended early: resigned or forfeit' })
  endReason!: string | null;

  @Prop(() => Int, { nullable: true, description: 'For a game that ended early: the seat that resigned or forfeited' })
  endSeat!: number | null;

  @Prop()
  createdAt!: Date;

  @Prop(() => Date, { nullable: true })
  finishedAt!: Date | null;
}

@Model({ description: "A player's public profile: record per preset, ratings, recent games" })
export class PlayerProfile {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'ala' })
  name!: string;

  @Prop(() => PlayerKindEnum, { enumRef: true, description: 'human or bot' })
  kind!: PlayerKindValue;

  @Prop(() => BotLevelEnum, { nullable: true, enumRef: true, description: "A server bot's level; null for a person and for a bot account played through the API" })
  botLevel!: string | null;

  @Prop()
  createdAt!: Date;

  @Prop({ description: 'The last use of any of their API tokens, or the last start or end of a game of theirs, whichever is later' })
  lastActiveAt!: Date;

  @Prop(() => Int, { description: 'Finished games played, all presets' })
  games!: number;

  @Prop(() => [PresetRecord], { description: 'Per preset played, in preset order' })
  presets!: PresetRecord[];

  @Prop(() => [Rating], { description: 'Current rating per family and player count played rated' })
  ratings!: Rating[];

  @Prop(() => [ProfileGame], { description: 'The latest games, newest first (active ones too)' })
  recentGames!: ProfileGame[];
}

@Model({ description: 'Contract family: one contract as the player met it' })
export class ContractStat {
  @Prop({ example: 'hearts' })
  contract!: string;

  @Prop(() => Int, { description: 'Deals of this contract the player played' })
  deals!: number;

  @Prop(() => Int, {
    description: 'Of those, deals where the player met their quota: at least the quota in tricks (suit, notrumps), at most it (mizerka), so a score of 0 or more',
  })
  quotaMet!: number;

  @Prop(() => Int, { description: 'Of those, deals where the player took exactly their quota (score 0)' })
  quotaExact!: number;

  @Prop(() => Float, { nullable: true, description: "The player's mean score in these deals; null without one" })
  averageScore!: number | null;

  @Prop(() => Int, { description: 'Deals where the player was the chooser and chose this contract' })
  chosen!: number;

  @Prop(() => Int, { description: 'Of the chosen ones, deals where the chooser met their quota' })
  chosenQuotaMet!: number;

  @Prop(() => Float, { nullable: true, description: "The chooser's mean score in the chosen ones; null without one" })
  chosenAverageScore!: number | null;
}

@Model({ description: 'Bidding family: one bid, from one side of the table' })
export class BidSide {
  @Prop(() => Int, { description: 'Deals played on this side with this bid' })
  deals!: number;

  @Prop(() => Int, { description: "Deals the declarer made (the declarer's score 0 or more: play took 5 tricks or more, misère none)" })
  made!: number;

  @Prop(() => Int, { description: 'Deals the declarer failed (a negative declarer score, paid half to each defender)' })
  failed!: number;

  @Prop(() => Float, { nullable: true, description: "The player's own mean score on this side; null without a deal" })
  averageScore!: number | null;
}

@Model({ description: 'Bidding family: one bid as the player met it, as declarer and as defender' })
export class BidStat {
  @Prop({ description: 'play, misere or double-misere', example: 'play' })
  bid!: string;

  @Prop(() => BidSide)
  asDeclarer!: BidSide;

  @Prop(() => BidSide)
  asDefender!: BidSide;
}

@Model({ description: "A player's statistics in one preset, from the deals of their finished games" })
export class PlayerStats {
  @Prop({ example: 'classic' })
  preset!: string;

  @Prop({ description: FAMILY_WORDS, api: { enum: [...FAMILIES] } })
  family!: string;

  @Prop(() => Int, { description: 'Finished games of this preset' })
  games!: number;

  @Prop(() => [ContractStat], { description: "Contract family: every contract of the preset, in the rules' order; [] for bidding" })
  contracts!: ContractStat[];

  @Prop(() => [BidStat], { description: 'Bidding family: play, misère (and double misère when met); [] for contract' })
  bids!: BidStat[];
}

@Model({ description: 'Two players in the finished games they played together, in one preset or all' })
export class HeadToHeadRecord {
  @Prop(() => String, { nullable: true, description: 'The preset; null for all presets together' })
  preset!: string | null;

  @Prop(() => Int)
  games!: number;

  @Prop(() => Int, { description: 'Games where the player placed above the other' })
  higher!: number;

  @Prop(() => Int, { description: 'Games where the other placed above the player' })
  lower!: number;

  @Prop(() => Int, { description: 'Games where they shared a place' })
  ties!: number;
}

@Model({ description: 'Head-to-head: how two players fared in the finished games they played together' })
export class HeadToHead {
  @Prop()
  player!: string;

  @Prop()
  other!: string;

  @Prop(() => HeadToHeadRecord, { description: 'All presets together' })
  total!: HeadToHeadRecord;

  @Prop(() => [HeadToHeadRecord], { description: 'Per preset played together' })
  presets!: HeadToHeadRecord[];

  @Prop(() => Date, { nullable: true, description: 'When their latest game together ended' })
  lastPlayedAt!: Date | null;
}
