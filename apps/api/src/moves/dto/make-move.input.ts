import { Field, ID, InputType } from '@nestjs/graphql';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import type { Bid, Contract, Suit } from '@mizerka/rules';
import { Prop } from '../../common/model-field.js';
import { MoveOptionsBody } from './move-options.input.js';
import { BidEnum, CARD_PATTERN, ContractEnum, MoveKindEnum, type MoveKind, SuitEnum } from '../../games/index.js';

const CARD_MESSAGE = 'a card is written rank then suit, e.g. "AS", "TD", "7C"';

/**
 * A move: `kind` and the one field that kind needs (contract, discards, bid, cards, suit or card).
 * The seat is the caller's; the body of POST /api/v1/games/:id/moves.
 */
@InputType({ isAbstract: true })
export class MoveBody extends MoveOptionsBody {
  @Prop(() => MoveKindEnum, { enumRef: true })
  @IsIn(Object.values(MoveKindEnum))
  kind!: MoveKind;

  @Prop(() => ContractEnum, { optional: true, enumRef: true, description: 'kind contract' })
  @IsOptional()
  @IsIn(Object.values(ContractEnum))
  contract?: Contract;

  @Prop(() => [String], { optional: true, description: 'kind exchange: the cards to discard (may be empty)', example: ['2C', '3D'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(13)
  @Matches(CARD_PATTERN, { each: true, message: CARD_MESSAGE })
  discards?: string[];

  @Prop(() => BidEnum, { optional: true, enumRef: true, description: 'kind bid' })
  @IsOptional()
  @IsIn(Object.values(BidEnum))
  bid?: Bid;

  @Prop(() => [String], { optional: true, description: 'kind discard: exactly two cards', example: ['7C', '8D'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(13)
  @Matches(CARD_PATTERN, { each: true, message: CARD_MESSAGE })
  cards?: string[];

  @Prop(() => SuitEnum, { optional: true, enumRef: true, description: 'kind trump' })
  @IsOptional()
  @IsIn(Object.values(SuitEnum))
  suit?: Suit;

  @Prop(() => String, { optional: true, description: 'kind play', example: 'AS' })
  @IsOptional()
  @IsString()
  @Matches(CARD_PATTERN, { message: CARD_MESSAGE })
  card?: string;
}

@InputType({ description: 'A move in a game: kind plus the field that kind needs' })
export class MakeMoveInput extends MoveBody {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}
