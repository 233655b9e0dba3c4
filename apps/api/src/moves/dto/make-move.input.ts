import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Min } from 'class-validator';
import type { Bid, Contract, Suit } from '../../../../../libs/rules/src/index.js';
import { BidEnum, CARD_PATTERN, ContractEnum, MoveKindEnum, type MoveKind, SuitEnum } from '../../games/models/enums.js';

const CARD_MESSAGE = 'a card is written rank then suit, e.g. "AS", "TD", "7C"';

/**
 * A move: `kind` and the one field that kind needs (contract, discards, bid, cards, suit or card).
 * The seat is the caller's; the body of POST /api/v1/games/:id/moves.
 */
@InputType({ isAbstract: true })
export class MoveBody {
  @Field(() => MoveKindEnum)
  @ApiProperty({ enum: Object.values(MoveKindEnum), enumName: 'MoveKind' })
  @IsIn(Object.values(MoveKindEnum))
  kind!: MoveKind;

  @Field(() => ContractEnum, { nullable: true, description: 'kind contract' })
  @ApiPropertyOptional({ enum: Object.values(ContractEnum), enumName: 'Contract' })
  @IsOptional()
  @IsIn(Object.values(ContractEnum))
  contract?: Contract;

  @Field(() => [String], { nullable: true, description: 'kind exchange: the cards to discard (may be empty)' })
  @ApiPropertyOptional({ type: [String], example: ['2C', '3D'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(13)
  @Matches(CARD_PATTERN, { each: true, message: CARD_MESSAGE })
  discards?: string[];

  @Field(() => BidEnum, { nullable: true, description: 'kind bid' })
  @ApiPropertyOptional({ enum: Object.values(BidEnum), enumName: 'Bid' })
  @IsOptional()
  @IsIn(Object.values(BidEnum))
  bid?: Bid;

  @Field(() => [String], { nullable: true, description: 'kind discard: exactly two cards' })
  @ApiPropertyOptional({ type: [String], example: ['7C', '8D'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(13)
  @Matches(CARD_PATTERN, { each: true, message: CARD_MESSAGE })
  cards?: string[];

  @Field(() => SuitEnum, { nullable: true, description: 'kind trump' })
  @ApiPropertyOptional({ enum: Object.values(SuitEnum), enumName: 'Suit' })
  @IsOptional()
  @IsIn(Object.values(SuitEnum))
  suit?: Suit;

  @Field(() => String, { nullable: true, description: 'kind play' })
  @ApiPropertyOptional({ example: 'AS' })
  @IsOptional()
  @IsString()
  @Matches(CARD_PATTERN, { message: CARD_MESSAGE })
  card?: string;

  @Field(() => Int, { nullable: true, description: 'The game version the move was chosen at; CONFLICT if it is no longer current' })
  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  expectedVersion?: number;

  @Field(() => String, { nullable: true, description: 'Retrying with the same key returns the first result instead of moving again' })
  @ApiPropertyOptional({ minLength: 1, maxLength: 128, description: 'May also be sent as the Idempotency-Key header' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  idempotencyKey?: string;
}

@InputType({ description: 'A move in a game: kind plus the field that kind needs' })
export class MakeMoveInput extends MoveBody {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}
