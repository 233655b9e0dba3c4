// What the games feature offers the features above it (lobbies, moves, scoring): import from here,
// not from the folder's internals.
export { boardDealSeed, boardFirstDealer, bytesHex, dealFresh, dealNext, dealSeedHash, hexBytes, newBoard, seedHashOf, type Board, type NewDeal } from './dealing.js';
export { refuseSpectatorOfHeldBoard } from './board-reveal.js';
export { DEAL_FACTS } from './deal-facts.js';
export {
  FAMILIES,
  FAMILY_QUOTED,
  FAMILY_WORDS,
  familyOf,
  parseFamily,
  parsePlayerCount,
  PLAYER_COUNT_WORDS,
  PLAYER_COUNTS,
  PRESET_WORDS,
  PRESETS_OF_FAMILY,
} from './family.js';
export { eventViews } from './event-views.js';
export { deadlineNearFeed, type TimeOutCause } from './follow-ups.js';
export { dealEntry, projectCommit, type ActorKind, type GameCommit, type GameMoveCommit, type GamePresenceCommit, type GameProjection, type LogEntry } from './game-commit.js';
export { gameCommitSql } from './game-commit.sql.js';
export { GameFollowers } from './game-followers.js';
export { GameLogBus } from './game-log-bus.js';
export { GameLogReader } from './game-log.js';
export { COMPACT_FORMAT, differences, encodeLog, NotCompactable, recordMoves, recordMoveTexts, stateDifference, type CompactGame, type FullLogRow } from './compact-log.js';
export { logEntryView } from './game-log-follower.js';
export type { LogRow } from './game-followers.js';
export { gamePlayers, importedSeats, SEAT_PLAYER, type SeatRow } from './game-players.js';
export { botMarksOf, buildRecord, buildRecordText, seatNamesOf, type RecordSource } from './record.js';
export { GameStore, sameRequest, type EarlierRequest, type GameRead, type StoredGame } from './game-store.js';
export { GamesModule } from './games.module.js';
export { GamesService, type StartGameInput } from './games.service.js';
export * from './models/enums.js';
export { GameEventView, GameLogEntry } from './models/event-view.model.js';
export { DealFacts, GamePlayer } from './models/game.model.js';
export { GameEndView, SeatView } from './models/seat-view.model.js';
export {
  checkTimeControl,
  clockAfter,
  pausedClock,
  resumedClock,
  storedTimeControl,
  MAX_MOVE_SECONDS,
  type GameClock,
  type TimeControl,
  type TimeoutPolicy,
} from './time-control.js';
export { GameClockModel, TimeControlInput, TimeControlModel, TimeoutPolicyEnum } from './models/time-control.model.js';
