// @mizerka/client: a typed client for the Mizerka game server (Node >= 20.19 and browsers).
export {
  MizerkaClient,
  newIdempotencyKey,
  type ClientOptions,
  type Document,
  type FeedEvent,
  type FollowOptions,
  type Game,
  type GameLogEntry,
  type GameSummary,
  type LegalMoves,
  type Lobby,
  type Move,
  type MoveOptions,
  type MoveResult,
  type PlayOptions,
  type RequestOptions,
  type Player,
  type SeatView,
  type SessionHooks,
  type SocketState,
  type Stream,
  type TurnToPlay,
  type WebSocketConstructor,
} from './client.js';
export { personalToken, SessionCredentials, type Credentials, type SessionOptions, type SessionTokens } from './auth.js';
export { isMizerkaError, MizerkaError, SERVER_ERROR_CODES, type ErrorCode, type ServerErrorCode } from './errors.js';
export { authorizeUrl, createPkcePair, createState, exchangeCode, readRedirect, refreshOAuth, type AuthorizeParams, type OAuthScope, type OAuthTokens, type PkcePair } from './oauth.js';
export { pages, type Page } from './paging.js';
export { RateLimitGate, realClock, type Clock, type RateLimitFigures } from './rate-limit.js';
export { readSse, type SseMessage } from './sse.js';
export type { Bid, BotLevel, Contract, CreateLobbyInput, FeedEventType, GameStatus, JoinLobbyInput, MoveKind, Suit, TypedDocumentString } from './gql/graphql.js';
