import { Int } from '@nestjs/graphql';
import type { GameRecord, Preset, RecordMove } from '@mizerka/rules';
import { Model, Prop } from '../../common/model-field.js';
import { RuleOptionsModel } from './game.model.js';
import { GameEndView } from './seat-view.model.js';

// mizerka-record/1 (docs/rules.md, "The game record") as typed output. REST returns the very document.

type RulesRecordDeal = GameRecord['deals'][number];
type RulesRecordRules = GameRecord['rules'];

@Model('RecordMove', { description: 'A move in record form: the seat and exactly one of the other fields' })
export class RecordMoveModel implements RecordMove {
  @Prop(() => Int)
  seat!: number;

  @Prop(() => String, { optional: true, example: 'hearts' })
  contract?: string;

  @Prop(() => [String], { optional: true })
  exchange?: string[];

  @Prop(() => String, { optional: true, example: 'double-misere' })
  bid?: string;

  @Prop(() => [String], { optional: true })
  discard?: string[];

  @Prop(() => String, { optional: true })
  trump?: string;

  @Prop(() => String, { optional: true, example: 'AH' })
  play?: string;
}

@Model()
export class RecordDeal implements RulesRecordDeal {
  @Prop(() => [String], { description: 'The whole deck in dealing order' })
  deck!: string[];

  @Prop(() => [RecordMoveModel])
  moves!: RecordMoveModel[];
}

@Model()
export class RecordRules implements RulesRecordRules {
  @Prop(() => String, { example: 'classic' })
  preset!: Preset;

  @Prop(() => RuleOptionsModel)
  options!: RuleOptionsModel;
}

@Model('GameRecord', { description: 'A finished game as a mizerka-record/1 document' })
export class GameRecordModel implements GameRecord {
  @Prop(() => String, { description: 'Always "mizerka-record/1"', example: 'mizerka-record/1' })
  format!: GameRecord['format'];

  @Prop(() => RecordRules)
  rules!: RecordRules;

  @Prop(() => Int)
  firstDealer!: number;

  @Prop(() => [String])
  players!: string[];

  @Prop(() => [String], {
    optional: true,
    nullable: 'itemsAndList',
    description: 'By seat, when a computer player sat at the table: null for a person, else the bot level (random, basic, strong) or "account" for a bot account',
  })
  bots?: (string | null)[];

  @Prop(() => [RecordDeal])
  deals!: RecordDeal[];

  @Prop(() => GameEndView, { optional: true, description: 'Present when the game ended early by resignation or forfeit' })
  end?: GameEndView;
}
