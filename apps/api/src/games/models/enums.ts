import { FAMILIES, type Bid, type Contract, type EndReason, type FamilyName, type Phase, type Suit } from '@mizerka/rules';
import { registerEnum } from '../../common/model-field.js';

// The game's own words as GraphQL enums. Each object maps the GraphQL name to the value the rules
// use; only "double-misere" needs a different GraphQL name, since "-" is not allowed there.

export const GameStatusEnum = { active: 'active', finished: 'finished' } as const;
export type GameStatusValue = (typeof GameStatusEnum)[keyof typeof GameStatusEnum];

/** The rules' families (libs/rules/src/presets.ts), each by its own name. */
export const FamilyEnum = Object.fromEntries(FAMILIES.map((f) => [f.name, f.name])) as { readonly [F in FamilyName]: F };
export type FamilyValue = FamilyName;

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

/** The kinds of move a seat can make (docs/rules.md, the game record). */
export const MoveKindEnum = {
  contract: 'contract',
  exchange: 'exchange',
  bid: 'bid',
  discard: 'discard',
  trump: 'trump',
  play: 'play',
} as const;
export type MoveKind = (typeof MoveKindEnum)[keyof typeof MoveKindEnum];

/**
 * An entry of the event log: a deal dealt, one of the move kinds, the end of a game by resignation
 * or forfeit, or a seat's player going away on vacation and coming back.
 */
export const LogEntryKindEnum = { deal: 'deal', ...MoveKindEnum, end: 'end', away: 'away', back: 'back' } as const;
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
  gameEnded: 'gameEnded',
} as const;
export type GameEventType = (typeof GameEventTypeEnum)[keyof typeof GameEventTypeEnum];

/** Why a game ended early. */
export const EndReasonEnum = { resigned: 'resigned', forfeit: 'forfeit' } as const satisfies Record<string, EndReason>;

/** Who made an event-log entry. */
export const ActorEnum = { player: 'player', system: 'system', bot: 'bot' } as const;
export type ActorValue = (typeof ActorEnum)[keyof typeof ActorEnum];

registerEnum(GameStatusEnum, { name: 'GameStatus' });
registerEnum(FamilyEnum, { name: 'Family', description: FAMILIES.map((f) => f.label).join(' or ') });
registerEnum(PhaseEnum, { name: 'Phase' });
registerEnum(ContractEnum, { name: 'Contract' });
registerEnum(BidEnum, { name: 'Bid', description: 'pass < play < misere < double_misere ("double-misere" in records)' });
registerEnum(SuitEnum, { name: 'Suit' });
registerEnum(MoveKindEnum, { name: 'MoveKind' });
registerEnum(LogEntryKindEnum, { name: 'LogEntryKind' });
registerEnum(GameEventTypeEnum, { name: 'GameEventType' });
registerEnum(EndReasonEnum, { name: 'EndReason', description: 'resigned (a seated player gave up) or forfeit (their clock ran out)' });
registerEnum(ActorEnum, { name: 'Actor', description: 'player (the seat\'s player), system (a deal, a time-out, a forfeit) or bot' });

export const CARD_PATTERN = /^[2-9TJQKA][CDHS]$/;
