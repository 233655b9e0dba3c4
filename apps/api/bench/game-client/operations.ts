// The calls a player makes to play: register, open or join a table, look at the game, move, play
// again. Each returns the answer as sent (see `data` and `errorCode`); the fields a call selects
// are the caller's to choose, with defaults that are what a client drawing the table asks for.
import type { GqlResult, GraphQLTransport } from './graphql.js';
import type { LegalMovesView, MoveInput } from './random-player.js';

/** A seat's whole view (SeatView), as a client rendering the table selects it. */
export const SEAT_VIEW_FIELDS = `
  family preset players phase deal dealer toMove viewer hand discards handSizes talonSize
  legalMoves { kind seat contracts cards maxDiscards count bids suits }
  contract chooser contractsLeft exchanged bids declarer bid trump activeSeats
  currentTrick { leader cards { seat card } winner }
  lastTrick { leader cards { seat card } winner }
  tricks dealScores { deal dealer tricks scores contract declarer bid trump }
  totals over winners end { seat reason }
`;

/** Only what choosing the next move reads (SeatView below): a bot's or a scripted player's selection. */
export const PLAYER_VIEW_FIELDS = `
  phase deal toMove viewer hand contractsLeft activeSeats over
  legalMoves { kind seat contracts cards maxDiscards count bids suits }
  currentTrick { leader cards { seat card } winner }
`;

/** makeMove's default selection: the new version and status, the events in short, the mover's view. */
export const MOVE_RESULT_FIELDS = `version status events { seq type seat card cards winner deal } game { ${SEAT_VIEW_FIELDS} }`;

/** makeMove's selection for a client that only plays: the new version and status and PLAYER_VIEW_FIELDS. */
export const MOVE_RESULT_PLAYER_FIELDS = `version status game { ${PLAYER_VIEW_FIELDS} }`;

/** game(id)'s default selection. */
export const GAME_VIEW_FIELDS = `id version status mySeat view { ${SEAT_VIEW_FIELDS} }`;

/** The default selection of the lobby calls: what it takes to seat a table and find its game. */
export const LOBBY_SUMMARY_FIELDS = 'id players inviteCode gameId';

export const registerMutation = (fields = 'player { id name } token') =>
  `mutation Register($name: String!) { register(input: { name: $name }) { ${fields} } }`;
export const createLobbyMutation = (fields = LOBBY_SUMMARY_FIELDS) =>
  `mutation CreateLobby($input: CreateLobbyInput!) { createLobby(input: $input) { ${fields} } }`;
export const joinLobbyMutation = (fields = LOBBY_SUMMARY_FIELDS) =>
  `mutation JoinLobby($input: JoinLobbyInput!) { joinLobby(input: $input) { ${fields} } }`;
export const playAgainMutation = (fields = LOBBY_SUMMARY_FIELDS) =>
  `mutation PlayAgain($id: ID!) { playAgain(gameId: $id) { ${fields} } }`;
export const gameQuery = (fields = GAME_VIEW_FIELDS) => `query Game($id: ID!) { game(id: $id) { ${fields} } }`;
export const makeMoveMutation = (fields = MOVE_RESULT_FIELDS) =>
  `mutation MakeMove($input: MakeMoveInput!) { makeMove(input: $input) { ${fields} } }`;

/** The part of a SeatView that choosing a move reads (the default selections carry all of it). */
export interface SeatView {
  phase: string;
  deal: number;
  toMove: number | null;
  viewer: number | null;
  hand: string[] | null;
  contractsLeft: string[][];
  activeSeats: number[];
  currentTrick: { leader: number; winner: number | null; cards: { seat: number; card: string }[] } | null;
  over: boolean;
  legalMoves: LegalMovesView | null;
}

export interface GameView {
  id: string;
  version: number;
  status: string;
  mySeat: number | null;
  view: SeatView;
}

export interface MoveResult {
  version: number;
  status: string;
  game: SeatView;
}

export interface LobbySummary {
  id: string;
  players: number;
  inviteCode: string;
  gameId: string | null;
}

export interface Registered {
  player: { id: string; name: string };
  token: string;
}

export interface CreateLobbyInput {
  preset: string;
  options?: Record<string, unknown>;
  seat?: number;
  visibility?: 'public' | 'unlisted';
  /** A move clock; omitted: untimed. */
  timeControl?: { moveSeconds: number; bankSeconds?: number; onTimeout?: 'autoMove' | 'forfeit'; maxTimeouts?: number };
}

export type JoinLobbyInput = ({ lobbyId: string } | { inviteCode: string }) & { seat?: number };

/** makeMove's input: a move (as `chooseMove` returns it) for a game, at a version, with an optional key. */
export type MakeMoveInput = MoveInput & { gameId: string; expectedVersion?: number; idempotencyKey?: string };

export function register<T = Registered>(t: GraphQLTransport, name: string, fields?: string): Promise<GqlResult<{ register: T }>> {
  return t.gql(registerMutation(fields), { name });
}

export function createLobby<T = LobbySummary>(
  t: GraphQLTransport,
  token: string,
  input: CreateLobbyInput,
  fields?: string,
): Promise<GqlResult<{ createLobby: T }>> {
  return t.gql(createLobbyMutation(fields), { input }, token);
}

export function joinLobby<T = LobbySummary>(t: GraphQLTransport, token: string, input: JoinLobbyInput, fields?: string): Promise<GqlResult<{ joinLobby: T }>> {
  return t.gql(joinLobbyMutation(fields), { input }, token);
}

export function playAgain<T = LobbySummary>(t: GraphQLTransport, token: string, gameId: string, fields?: string): Promise<GqlResult<{ playAgain: T }>> {
  return t.gql(playAgainMutation(fields), { id: gameId }, token);
}

/** game(id) as the token's holder sees it (a spectator without a token). */
export function gameView<T = GameView>(t: GraphQLTransport, gameId: string, token?: string | null, fields?: string): Promise<GqlResult<{ game: T }>> {
  return t.gql(gameQuery(fields), { id: gameId }, token);
}

export function makeMove<T = MoveResult>(t: GraphQLTransport, token: string, input: MakeMoveInput, fields?: string): Promise<GqlResult<{ makeMove: T }>> {
  return t.gql(makeMoveMutation(fields), { input }, token);
}
