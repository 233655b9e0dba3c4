import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { RuleOptionsModel } from './game.model.js';

// mizerka-record/1 (RULES.md, last section) as typed output. REST returns the very document.

@ObjectType('RecordMove', { description: 'A move in record form: the seat and exactly one of the other fields' })
export class RecordMoveModel {
  @Field(() => Int)
  @ApiProperty()
  seat!: number;

  @Field(() => String, { nullable: true })
  @ApiProperty({ required: false, example: 'hearts' })
  contract?: string;

  @Field(() => [String], { nullable: true })
  @ApiProperty({ type: [String], required: false })
  exchange?: string[];

  @Field(() => String, { nullable: true })
  @ApiProperty({ required: false, example: 'double-misere' })
  bid?: string;

  @Field(() => [String], { nullable: true })
  @ApiProperty({ type: [String], required: false })
  discard?: string[];

  @Field(() => String, { nullable: true })
  @ApiProperty({ required: false })
  trump?: string;

  @Field(() => String, { nullable: true })
  @ApiProperty({ required: false, example: 'AH' })
  play?: string;
}

@ObjectType()
export class RecordDeal {
  @Field(() => [String], { description: 'The whole deck in dealing order' })
  @ApiProperty({ type: [String] })
  deck!: string[];

  @Field(() => [RecordMoveModel])
  @ApiProperty({ type: [RecordMoveModel] })
  moves!: RecordMoveModel[];
}

@ObjectType()
export class RecordRules {
  @Field()
  @ApiProperty({ example: 'classic' })
  preset!: string;

  @Field(() => RuleOptionsModel)
  @ApiProperty({ type: RuleOptionsModel })
  options!: RuleOptionsModel;
}

@ObjectType('GameRecord', { description: 'A finished game as a mizerka-record/1 document' })
export class GameRecordModel {
  @Field({ description: 'Always "mizerka-record/1"' })
  @ApiProperty({ example: 'mizerka-record/1' })
  format!: string;

  @Field(() => RecordRules)
  @ApiProperty({ type: RecordRules })
  rules!: RecordRules;

  @Field(() => Int)
  @ApiProperty()
  firstDealer!: number;

  @Field(() => [String])
  @ApiProperty({ type: [String] })
  players!: string[];

  @Field(() => [RecordDeal])
  @ApiProperty({ type: [RecordDeal] })
  deals!: RecordDeal[];
}
