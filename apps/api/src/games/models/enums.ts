import { registerEnumType } from '@nestjs/graphql';
import type { Bid, Contract, Phase, Suit } from '../../../../../libs/rules/src/index.js';

// The game's own words as GraphQL enums. Each object maps the GraphQL name to the value the rules
// use; only "double-misere" needs a different GraphQL name, since "-" is not allowed there.

export const GameStatusEnum = { active: 'active', finished: 'finished' } as const;
export type GameStatusValue = (typeof GameStatusEnum)[keyof typeof GameStatusEnum];

export const FamilyEnum = { contract: 'contract', bidding: 'bidding' } as const;
export type FamilyValue = (typeof FamilyEnum)[keyof typeof FamilyEnum];

export const PhaseEnum = {
  dealing: 'dealing',
  contract: 'contract',
  exchange: 'exchange',
  bidding: 'bidding',
  discard: 'discard',
  trump: 'trump',
  play: 'play',
  over: 'over',
} as const satisfies Record<string, Phase>;

export const ContractEnum = {
  clubs: 'clubs',
  diamonds: 'diamonds',
  hearts: 'hearts',
  spades: 'spades',
  notrumps: 'notrumps',
  mizerka: 'mizerka',
} as const satisfies Record<string, Contract>;

export const BidEnum = { pass: 'pass', play: 'play', misere: 'misere', double_misere: 'double-misere' } as const satisfies Record<
  string,
  Bid
>;

export const SuitEnum = { clubs: 'clubs', diamonds: 'diamonds', hearts: 'hearts', spades: 'spades' } as const satisfies Record<
  string,
  Suit
>;

/** The kinds of move a seat can make (RULES.md, the game record). */
export const MoveKindEnum = {
  contract: 'contract',
  exchange: 'exchange',
  bid: 'bid',
  discard: 'discard',
  trump: 'trump',
  play: 'play',
} as const;
export type MoveKind = (typeof MoveKindEnum)[keyof typeof MoveKindEnum];

/** An entry of the event log: a deal dealt, or one of the move kinds. */
export const LogEntryKindEnum = { deal: 'deal', ...MoveKindEnum } as const;
export type LogEntryKind = (typeof LogEntryKindEnum)[keyof typeof LogEntryKindEnum];

export const GameEventTypeEnum = {
  dealt: 'dealt',
  contractChosen: 'contractChosen',
  handCompleted: 'handCompleted',
  exchanged: 'exchanged',
  bid: 'bid',
  declarer: 'declarer',
  talonTaken: 'talonTaken',
  discarded: 'discarded',
  trumpNamed: 'trumpNamed',
  cardPlayed: 'cardPlayed',
  trickTaken: 'trickTaken',
  dealScored: 'dealScored',
  gameOver: 'gameOver',
} as const;
export type GameEventType = (typeof GameEventTypeEnum)[keyof typeof GameEventTypeEnum];

registerEnumType(GameStatusEnum, { name: 'GameStatus' });
registerEnumType(FamilyEnum, { name: 'Family', description: 'contract (52 cards, each contract once) or bidding (32 cards)' });
registerEnumType(PhaseEnum, { name: 'Phase' });
registerEnumType(ContractEnum, { name: 'Contract' });
registerEnumType(BidEnum, { name: 'Bid', description: 'pass < play < misere < double_misere ("double-misere" in records)' });
registerEnumType(SuitEnum, { name: 'Suit' });
registerEnumType(MoveKindEnum, { name: 'MoveKind' });
registerEnumType(LogEntryKindEnum, { name: 'LogEntryKind' });
registerEnumType(GameEventTypeEnum, { name: 'GameEventType' });

export const CARD_PATTERN = /^[2-9TJQKA][CDHS]$/;
