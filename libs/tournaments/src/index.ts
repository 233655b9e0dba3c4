/**
 * libs/tournaments: pairings, schedules and standings of Mizerka tournaments as a pure library
 * (no I/O, no clock, no Math.random: the same inputs give the same plan). docs/tournaments.md is
 * the specification.
 */
export { checkPlayers, type PlayerId, type RoundPlan, type TableSize } from './types.js';
export { ROUND_ROBIN_EXTRA, ROUND_ROBIN_MAX_PLAYERS, roundRobinMinRounds, roundRobinRounds, type RoundRobinOptions } from './round-robin.js';
export { meetingsOf, splitCount, SWISS_EXACT_LIMIT, swissOrder, swissRound, tableCost, type Meetings, type SwissEntrant, type SwissOptions } from './swiss.js';
export { arenaTables, type ArenaWaiter } from './arena.js';
export { duplicateRounds, type DuplicatePlan } from './duplicate.js';
export { matchpoints, placePoints, type BoardResult, type MatchpointTotal } from './scoring.js';
export { standings, TIE_BREAKS, type Format, type GameResult, type Standing, type StandingsOptions } from './standings.js';
