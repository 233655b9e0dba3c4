/** libs/rules: the rules of Mizerka as a pure library. Everything public is exported here. */
export { fail, ok, type Result, type RuleError, type RuleErrorCode, type Seat } from './result.js';
export { cardName, isCard, parseCard, SUITS, type Card, type Suit } from './cards.js';
export {
  BIDS,
  CONTRACTS,
  dealerOf,
  makeRules,
  PRESETS,
  TARGET_MAX,
  TARGET_MIN,
  type Bid,
  type Contract,
  type Preset,
  type RuleOptions,
  type Rules,
} from './rules.js';
export { moveFromJson, moveToJson, type LegalMoves, type Move, type RecordMove } from './moves.js';
export type { GameEvent } from './events.js';
export type { BiddingDealOutcome, ContractDealOutcome, DealOutcome, EndReason, GameEnd, GameState, Phase } from './state.js';
export { endGame, gameEnd, placesOf } from './end.js';
export {
  apply,
  applyInPlace,
  copyState,
  currentDealer,
  currentPlayer,
  deal,
  dealInPlace,
  dealIndex,
  dealWithEvents,
  deserializeState,
  isOver,
  legalMoves,
  newGame,
  phase,
  serializeState,
  serializeStateJson,
} from './game.js';
export { shuffledDeck, shuffleInPlace, Xoshiro128 } from './random.js';
export { eventView, legalMovesView, view, type DealScoreView, type EventView, type LegalMovesView, type SeatView, type TrickView } from './view.js';
export { formatRecordError, outcome, parseRecord, replay, RECORD_FORMAT, type GameRecord, type Outcome, type RecordError, type ReplayStep } from './record.js';
export { timeOutMove } from './time-out.js';
export { handMasks, legalPlayMask, playCardInPlace, randomPlayout } from './fast.js';
export { buildDeck, dealDestinations } from './deck-builder.js';
