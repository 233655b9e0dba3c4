import { Field, ID, InputType } from '@nestjs/graphql';
import { ArrayMaxSize, IsArray, IsIn, isIn, IsOptional, IsString, IsUUID, Matches, matches } from 'class-validator';
import type { Bid, Contract, Suit } from '@mizerka/rules';
import { onlyKeys, QuickChecked } from '../../common/input-validation.js';
import { Prop } from '../../common/model-field.js';
import { MOVE_OPTIONS_FIELDS, MoveOptionsBody, validMoveOptions, withGameId } from './move-options.input.js';
import { BidEnum, CARD_PATTERN, ContractEnum, MoveKindEnum, type MoveKind, SuitEnum } from '../../games/index.js';

const CARD_MESSAGE = 'a card is written rank then suit, e.g. "AS", "TD", "7C"';

/**
 * A move: `kind` and the one field that kind needs (contract, discards, bid, cards, suit or card).
 * The seat is the caller's; the body of POST /api/v1/games/:id/moves.
 */
@InputType({ isAbstract: true })
@QuickChecked(quickMoveBody)
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
@QuickChecked(withGameId(quickMoveBody))
export class MakeMoveInput extends MoveBody {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}

const MOVE_FIELDS = new Set<string>(['kind', 'contract', 'discards', 'bid', 'cards', 'suit', 'card', ...MOVE_OPTIONS_FIELDS]);
const KINDS = Object.values(MoveKindEnum);
const CONTRACTS = Object.values(ContractEnum);
const BIDS = Object.values(BidEnum);
const SUITS = Object.values(SuitEnum);

/** MoveBody's class-validator rules above, for the quick way: true only of a body they accept as it is. */
function quickMoveBody(input: Readonly<Record<string, unknown>>): boolean {
  const { kind, contract, discards, bid, cards, suit, card } = input;
  return (
    onlyKeys(input, MOVE_FIELDS) &&
    isIn(kind, KINDS) &&
    (contract == null || isIn(contract, CONTRACTS)) &&
    (discards == null || cardList(discards)) &&
    (bid == null || isIn(bid, BIDS)) &&
    (cards == null || cardList(cards)) &&
    (suit == null || isIn(suit, SUITS)) &&
    (card == null || isCard(card)) &&
    validMoveOptions(input)
  );
}

function cardList(value: unknown): boolean {
  return Array.isArray(value) && value.length <= 13 && value.every(isCard);
}

function isCard(value: unknown): boolean {
  return typeof value === 'string' && matches(value, CARD_PATTERN);
}
