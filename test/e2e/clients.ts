// End-to-end test clients: plain HTTP against a running server (in-process or a child process),
// players with fresh names, tables seated through the lobby API, and a seeded random player
// that only ever sends moves the API's own view offers. The GraphQL calls and the random player
// are apps/api/bench/game-client's, shared with the API benchmark.
import { randomBytes } from 'node:crypto';
import {
  chooseMove,
  createLobby,
  data,
  gameQuery,
  gameView,
  joinLobby,
  makeMove,
  makeMoveMutation,
  register as registerCall,
  seededChance,
  type Chance,
  type GqlResult,
  type GraphQLTransport,
} from '../../apps/api/bench/game-client/index.js';
import { EVENT_FIELDS, SEAT_VIEW_FIELDS, type LegalMovesView } from '../graphql-selections.js';
import { failOnContractProblems, noteAnswer } from '../openapi-contract.js';
export { EVENT_FIELDS, GAME_FIELDS, GAME_QUERY, SEAT_VIEW_FIELDS, type LegalMovesView } from '../graphql-selections.js';
export { chooseMove, data, errorCode, type Chance, type GqlError, type GqlResult } from '../../apps/api/bench/game-client/index.js';

// Every REST answer is checked against the OpenAPI document as it arrives; a file whose answers
// contradict it fails after its tests.
failOnContractProblems();

/** The e2e tests' seeded chance: `rng(seed)(n)` is uniform in 0..n-1 (the game client's, Xoshiro128). */
export const rng = seededChance;

export interface RestResult {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

/** Every response body a client saw, for scanning afterwards (hidden-information tests). */
export interface Exchange {
  label: string;
  token: string | null;
  request: unknown;
  response: string;
}

export interface Http extends GraphQLTransport {
  baseUrl: string;
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GqlResult<T>>;
  rest(method: string, path: string, body?: unknown, token?: string | null, headers?: Record<string, string>): Promise<RestResult>;
  /** Set to collect every exchange. */
  recorder: Exchange[] | null;
}

/**
 * fetch, retried once when a kept-alive socket was reset under it (the server closed an idle
 * connection just as it was reused: the request never reached the application). Off for the
 * restart tests, where a reset means the server was killed.
 */
async function send(url: string, init: RequestInit, retryReset: boolean): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (!retryReset || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw error;
    return fetch(url, init);
  }
}

export function http(baseUrl: string, options: { timeoutMs?: number; retryReset?: boolean } = {}): Http {
  const timeout = options.timeoutMs ?? 60_000;
  const retryReset = options.retryReset ?? true;
  const client: Http = {
    baseUrl,
    recorder: null,
    async gql(query, variables, token) {
      const response = await send(
        `${baseUrl}/graphql`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ query, variables }),
          signal: AbortSignal.timeout(timeout),
        },
        retryReset,
      );
      const text = await response.text();
      client.recorder?.push({ label: 'gql', token: token ?? null, request: { query, variables }, response: text });
      try {
        return JSON.parse(text) as GqlResult;
      } catch {
        throw new Error(`GraphQL answered ${response.status} with non-JSON: ${text.slice(0, 300)}`);
      }
    },
    async rest(method, path, body, token, headers = {}) {
      const response = await send(
        `${baseUrl}${path}`,
        {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...headers,
          },
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
          signal: AbortSignal.timeout(timeout),
        },
        retryReset,
      );
      const text = await response.text();
      client.recorder?.push({ label: `${method} ${path}`, token: token ?? null, request: body ?? null, response: text });
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON; keep the text
      }
      noteAnswer({ method, path, status: response.status, type: response.headers.get('content-type') ?? '', body: parsed });
      return { status: response.status, body: parsed, headers: response.headers, text };
    },
  };
  return client;
}

// ---------------------------------------------------------------------------------------------
// Players and tables

export interface Player {
  id: string;
  name: string;
  token: string;
}

const RUN = randomBytes(3).toString('hex');
let counter = 0;

/** A fresh player (unique name per run and process). */
export async function register(h: Http, label = 'e'): Promise<Player> {
  const name = `${label}${RUN}${process.pid % 1000}x${++counter}`.slice(0, 32);
  const payload = data(await registerCall(h, name), 'register');
  return { id: payload.player.id, name: payload.player.name, token: payload.token };
}

export async function registerMany(h: Http, count: number, label = 'e'): Promise<Player[]> {
  const out: Player[] = [];
  for (let i = 0; i < count; i++) out.push(await register(h, label));
  return out;
}

export const PRESET_PLAYERS: Record<string, 3 | 4> = {
  classic: 3,
  'classic-4': 4,
  short: 3,
  'short-4': 4,
  bidding: 3,
  'bidding-4': 4,
};

export const LOBBY_FIELDS = `
  id preset players visibility status inviteCode gameId previousGameId seatsTaken seatsFree
  options { mizerkaQuotas target doubleMisere }
  host { id name }
  seats { seat player { id name } }
`;

/**
 * The first player creates a lobby over GraphQL, the others join it (by id, one after another,
 * the last one starts the game). `players[i]` sits at seat i. Returns the lobby and the game id.
 */
export async function seatTable(
  h: Http,
  players: Player[],
  preset: string,
  options: Record<string, unknown> = {},
  visibility: 'public' | 'unlisted' = 'public',
): Promise<{ lobbyId: string; gameId: string; lobby: any }> {
  const created = data(await createLobby<any>(h, players[0].token, { preset, options, seat: 0, visibility }, LOBBY_FIELDS), 'createLobby');
  let lobby = created;
  for (let seat = 1; seat < players.length; seat++) {
    const input = visibility === 'public' ? { lobbyId: created.id as string, seat } : { inviteCode: created.inviteCode as string, seat };
    lobby = data(await joinLobby<any>(h, players[seat].token, input, LOBBY_FIELDS), 'joinLobby');
  }
  if (!lobby.gameId) throw new Error(`the full lobby did not start a game: ${JSON.stringify(lobby)}`);
  return { lobbyId: created.id, gameId: lobby.gameId, lobby };
}

// ---------------------------------------------------------------------------------------------
// Queries

export const EVENTS_QUERY = `query($id: ID!, $after: Int!) {
  gameEvents(gameId: $id, after: $after) { gameId version hasMore entries { seq kind dealIndex seat createdAt events { ${EVENT_FIELDS} } } }
}`;

export const SCORE_SHEET_QUERY = `query($id: ID!) {
  scoreSheet(gameId: $id) {
    gameId status
    standings { seat playerId name total place }
    deals { index dealer seedHash contract declarer bid trump finished scores runningTotals tricksTaken tricks { index leader cards winner } }
  }
}`;

export const RECORD_QUERY = `query($id: ID!) {
  gameRecord(gameId: $id) {
    format firstDealer players
    rules { preset options { mizerkaQuotas target doubleMisere } }
    deals { deck moves { seat contract exchange bid discard trump play } }
  }
}`;

/** What the tests select from makeMove: the whole result. */
const MOVE_FIELDS = `gameId version status events { ${EVENT_FIELDS} } game { ${SEAT_VIEW_FIELDS} }`;
export const MAKE_MOVE = makeMoveMutation(MOVE_FIELDS);

const TURN_FIELDS = `
  version status mySeat
  deals { index seedHash seed }
  view { phase deal toMove legalMoves { kind seat contracts cards maxDiscards count bids suits } }
`;
export const TURN_QUERY = gameQuery(TURN_FIELDS);

// ---------------------------------------------------------------------------------------------
// Playing a game (the random player, chooseMove and rng, is the game client's)

/** The record form of a move input (GraphQL names → record names). */
export function recordMoveOf(seat: number, input: Record<string, unknown>): Record<string, unknown> {
  switch (input.kind) {
    case 'contract':
      return { seat, contract: input.contract };
    case 'exchange':
      return { seat, exchange: input.discards };
    case 'bid':
      return { seat, bid: input.bid === 'double_misere' ? 'double-misere' : input.bid };
    case 'discard':
      return { seat, discard: input.cards };
    case 'trump':
      return { seat, trump: input.suit };
    case 'play':
      return { seat, play: input.card };
    default:
      throw new Error(`unknown kind ${String(input.kind)}`);
  }
}

export interface PlayedMove {
  seat: number;
  /** The phase the move was made in, and the deal index. */
  phase: string;
  deal: number;
  versionBefore: number;
  input: Record<string, unknown>;
  result: any;
}

export interface TurnInfo {
  version: number;
  seat: number;
  phase: string;
  deal: number;
  legal: LegalMovesView;
  deals: { index: number; seedHash: string; seed: string | null }[];
}

/** Whose turn it is (asked without a token), or null when the game is over. */
export async function toMove(h: Http, gameId: string): Promise<number | null> {
  const game = data(await gameView<any>(h, gameId, null, 'status view { toMove }'), 'game');
  return game.status === 'finished' ? null : game.view.toMove;
}

/** The turn as the seat to move sees it, through its own token. */
export async function turnOf(h: Http, gameId: string, player: Player): Promise<TurnInfo> {
  const game = data(await gameView<any>(h, gameId, player.token, TURN_FIELDS), 'game');
  if (!game.view.legalMoves) throw new Error(`no legal moves offered to seat ${game.mySeat}: ${JSON.stringify(game.view)}`);
  return {
    version: game.version,
    seat: game.mySeat,
    phase: game.view.phase,
    deal: game.view.deal,
    legal: game.view.legalMoves,
    deals: game.deals,
  };
}

export interface PlayOptions {
  seed: number;
  /** Stop (before moving) when this returns true. */
  stopBefore?: (turn: TurnInfo, played: PlayedMove[]) => boolean;
  /** Called after every accepted move. */
  afterMove?: (move: PlayedMove) => Promise<void> | void;
  maxMoves?: number;
  random?: Chance;
}

/**
 * Plays a game (or part of it) over GraphQL: the seat to move fetches its own view with its own
 * token and sends one of the legal moves that view offers, at random.
 */
export async function playGame(h: Http, players: Player[], gameId: string, options: PlayOptions): Promise<{
  played: PlayedMove[];
  /** seedHash per deal index, as first seen while the deal was being played. */
  seedHashes: Map<number, string>;
  /** Seeds seen before the end (should stay empty). */
  earlySeeds: string[];
}> {
  const random = options.random ?? rng(options.seed);
  const played: PlayedMove[] = [];
  const seedHashes = new Map<number, string>();
  const earlySeeds: string[] = [];
  let seat = await toMove(h, gameId);
  const max = options.maxMoves ?? 5000;
  while (seat !== null && played.length < max) {
    const turn = await turnOf(h, gameId, players[seat]);
    if (turn.seat !== seat || turn.legal.seat !== seat) throw new Error(`seat ${seat} to move, view says ${turn.seat}/${turn.legal.seat}`);
    for (const d of turn.deals) {
      if (!seedHashes.has(d.index)) seedHashes.set(d.index, d.seedHash);
      if (d.seed !== null) earlySeeds.push(d.seed);
    }
    if (options.stopBefore?.(turn, played)) break;
    const input = { gameId, expectedVersion: turn.version, ...chooseMove(turn.legal, random) };
    const answer = await makeMove<any>(h, players[seat].token, input, MOVE_FIELDS);
    if (answer.errors) throw new Error(`move ${played.length} by seat ${seat} ${JSON.stringify(input)}: ${JSON.stringify(answer.errors)}`);
    const result = answer.data!.makeMove;
    const move: PlayedMove = { seat, phase: turn.phase, deal: turn.deal, versionBefore: turn.version, input, result };
    played.push(move);
    await options.afterMove?.(move);
    seat = result.status === 'finished' ? null : result.game.toMove;
  }
  return { played, seedHashes, earlySeeds };
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Drops null fields recursively (GraphQL's typed record carries nulls for absent fields). */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, withoutNulls(v)]),
    ) as T;
  }
  return value;
}

/** Every card name quoted in a text (JSON), e.g. "AS", "TD". */
export function quotedCards(text: string): Set<string> {
  return new Set([...text.matchAll(/"([2-9TJQKA][CDHS])"/g)].map((m) => m[1]));
}

/** Every card-looking word in free text (error messages, logs). */
export function cardWords(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![A-Za-z0-9])([2-9TJQKA][CDHS])(?![A-Za-z0-9])/g)].map((m) => m[1]));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The whole event log over REST (GET /api/v1/games/:id/events), page after page. */
export async function restEventLog(h: Http, gameId: string, token?: string | null): Promise<{ version: number; entries: any[] }> {
  const entries: any[] = [];
  let after = 0;
  for (;;) {
    const page = await h.rest('GET', `/api/v1/games/${gameId}/events?after=${after}`, undefined, token);
    if (page.status !== 200) throw new Error(`events: ${page.status} ${page.text.slice(0, 300)}`);
    entries.push(...page.body.entries);
    if (!page.body.hasMore) return { version: page.body.version, entries };
    after = page.body.entries.at(-1).seq;
  }
}
