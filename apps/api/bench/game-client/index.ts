/**
 * The game-playing client: a player of Mizerka over the API, shared by the API benchmark (which
 * runs from dist, hence its place here) and the end-to-end tests (test/e2e/clients.ts). GraphQL
 * over HTTP (the calls to register, seat a table, look at a game, move, play again) and a seeded
 * random player choosing among the legal moves a view offers, with the rules library's
 * Xoshiro128. It imports nothing from the application: only Node and @mizerka/rules.
 */
export { data, errorCode, httpTransport, type GqlError, type GqlResult, type GraphQLTransport, type HttpTransport } from './graphql.js';
export {
  createLobby,
  createLobbyMutation,
  GAME_VIEW_FIELDS,
  gameQuery,
  gameView,
  joinLobby,
  joinLobbyMutation,
  LOBBY_SUMMARY_FIELDS,
  makeMove,
  makeMoveMutation,
  MOVE_RESULT_FIELDS,
  MOVE_RESULT_PLAYER_FIELDS,
  PLAYER_VIEW_FIELDS,
  playAgain,
  playAgainMutation,
  register,
  registerMutation,
  SEAT_VIEW_FIELDS,
  type CreateLobbyInput,
  type GameView,
  type JoinLobbyInput,
  type LobbySummary,
  type MakeMoveInput,
  type MoveResult,
  type Registered,
  type SeatView,
} from './operations.js';
export { wsTransport, type WsTransport } from './ws.js';
export { chooseMove, pickOne, sampleOf, seededChance, type Chance, type LegalMovesView, type MoveInput } from './random-player.js';
