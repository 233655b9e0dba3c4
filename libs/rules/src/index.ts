/**
 * libs/rules: the rules of Mizerka as a pure library. Everything public is exported here, but the
 * in-place fast path for the bench and searching bots: that is `@mizerka/rules/fast` (fast.ts).
 */
export { fail, ok, type Result, type RuleError, type RuleErrorCode, type Seat } from './result.js';
export { cardName, isCard, parseCard, SUITS, type Card, type Suit } from './cards.js';
export {
  BIDS,
  CONTRACTS,
  dealerOf,
  FAMILIES,
  makeRules,
  playerCounts,
  presetInfo,
  PRESETS,
  presetsOf,
  TARGET_MAX,
  TARGET_MIN,
  type Bid,
  type Contract,
  type FamilyInfo,
  type FamilyName,
  type Preset,
  type PresetInfo,
  type RuleOptions,
  type Rules,
} from './rules.js';
export { moveFromJson, moveToJson, type LegalMoves, type Move, type RecordMove } from './moves.js';
export type { GameEvent } from './events.js';
export type { BiddingDealOutcome, ContractDealOutcome, DealOutcome, EndReason, GameEnd, GameState, Phase } from './state.js';
export { endGame, gameEnd, placesOf } from './end.js';
export {
  apply,
  currentDealer,
  currentPlayer,
  deal,
  dealIndex,
  dealWithEvents,
  decodeState,
  encodeState,
  isOver,
  legalMoves,
  newGame,
  phase,
  STATE_VERSION,
} from './game.js';
export { shuffledDeck, Xoshiro128 } from './random.js';
export { eventView, legalMovesView, view, type DealScoreView, type EventView, type LegalMovesView, type SeatView, type TrickView } from './view.js';
export { formatRecordError, outcome, parseRecord, replay, RECORD_FORMAT, type GameRecord, type Outcome, type RecordError, type ReplayStep } from './record.js';
export { timeOutMove } from './time-out.js';
export { buildDeck, dealDestinations } from './deck-builder.js';
