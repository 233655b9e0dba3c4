// End-to-end test clients: plain HTTP against a running server (in-process or a child process),
// players with fresh names, tables seated through the lobby API, and a seeded random player
// that only ever sends moves the API's own view offers.
import { randomBytes } from 'node:crypto';
import { EVENT_FIELDS, SEAT_VIEW_FIELDS, type LegalMovesView } from '../graphql-selections.js';
export { EVENT_FIELDS, GAME_FIELDS, GAME_QUERY, SEAT_VIEW_FIELDS, type LegalMovesView } from '../graphql-selections.js';

export interface GqlError {
  message: string;
  path?: unknown;
  extensions?: { code?: string; rule?: string; version?: number; [key: string]: unknown };
}
export interface GqlResult<T = any> {
  data?: T | null;
  errors?: GqlError[];
}
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

export interface Http {
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
      return { status: response.status, body: parsed, headers: response.headers, text };
    },
  };
  return client;
}

/** The data of a GraphQL answer, or an error naming the operation and the errors. */
export function data<T = any>(result: GqlResult<Record<string, T>>, field: string): T {
  if (result.errors?.length || !result.data) throw new Error(`${field}: ${JSON.stringify(result.errors ?? result)}`);
  return result.data[field];
}

export function errorCode(result: GqlResult): string | undefined {
  return result.errors?.[0]?.extensions?.code;
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
  const result = await h.gql(
    'mutation($name: String!) { register(input: { name: $name }) { player { id name } token } }',
    { name },
  );
  const payload = data(result, 'register');
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
  const created = data(
    await h.gql(`mutation($input: CreateLobbyInput!) { createLobby(input: $input) { ${LOBBY_FIELDS} } }`, {
      input: { preset, options, seat: 0, visibility },
    }, players[0].token),
    'createLobby',
  );
  let lobby = created;
  for (let seat = 1; seat < players.length; seat++) {
    lobby = data(
      await h.gql(`mutation($input: JoinLobbyInput!) { joinLobby(input: $input) { ${LOBBY_FIELDS} } }`, {
        input: visibility === 'public' ? { lobbyId: created.id, seat } : { inviteCode: created.inviteCode, seat },
      }, players[seat].token),
      'joinLobby',
    );
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

export const MAKE_MOVE = `mutation($input: MakeMoveInput!) {
  makeMove(input: $input) { gameId version status events { ${EVENT_FIELDS} } game { ${SEAT_VIEW_FIELDS} } }
}`;

export const TURN_QUERY = `query($id: ID!) {
  game(id: $id) {
    version status mySeat
    deals { index seedHash seed }
    view { phase deal toMove legalMoves { kind seat contracts cards maxDiscards count bids suits } }
  }
}`;

// ---------------------------------------------------------------------------------------------
// The random player

/** mulberry32: a small seeded generator, so a failing game replays from its seed. */
export function rng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const x = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(x * n);
  };
}

function sample<T>(xs: readonly T[], k: number, random: (n: number) => number): T[] {
  const pool = [...xs];
  const out: T[] = [];
  for (let i = 0; i < k && pool.length > 0; i++) out.push(pool.splice(random(pool.length), 1)[0]);
  return out;
}

/** A legal move, as MakeMoveInput fields (no gameId), chosen at random among what the view offers. */
export function chooseMove(legal: LegalMovesView, random: (n: number) => number): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => {
    if (xs.length === 0) throw new Error(`no choice offered: ${JSON.stringify(legal)}`);
    return xs[random(xs.length)];
  };
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', contract: pick(legal.contracts!) };
    case 'exchange': {
      const k = random(legal.maxDiscards! + 1);
      return { kind: 'exchange', discards: sample(legal.cards!, k, random) };
    }
    case 'bid':
      return { kind: 'bid', bid: pick(legal.bids!) };
    case 'discard':
      return { kind: 'discard', cards: sample(legal.cards!, legal.count ?? 2, random) };
    case 'trump':
      return { kind: 'trump', suit: pick(legal.suits!) };
    case 'play':
      return { kind: 'play', card: pick(legal.cards!) };
    default:
      throw new Error(`unknown legal move kind ${legal.kind}`);
  }
}

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
  const game = data(await h.gql('query($id: ID!) { game(id: $id) { status view { toMove } } }', { id: gameId }), 'game');
  return game.status === 'finished' ? null : game.view.toMove;
}

/** The turn as the seat to move sees it, through its own token. */
export async function turnOf(h: Http, gameId: string, player: Player): Promise<TurnInfo> {
  const game = data(await h.gql(TURN_QUERY, { id: gameId }, player.token), 'game');
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
  random?: (n: number) => number;
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
    const answer = await h.gql(MAKE_MOVE, { input }, players[seat].token);
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
