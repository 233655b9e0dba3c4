// MizerkaClient: what every client of the API otherwise writes again. GraphQL over fetch for
// queries and moves, graphql-ws for the live subscriptions, server-sent events over fetch for the
// REST streams; see docs/decisions/client-sdk.md for why.
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { createClient, type Client as WsClient } from 'graphql-ws';
import { personalToken, SessionCredentials, type Credentials, type SessionTokens } from './auth.js';
import { errorFrom, errorFromProblem, isMizerkaError, MizerkaError } from './errors.js';
import * as ops from './gql/graphql.js';
import { refreshOAuth, type OAuthTokens } from './oauth.js';
import { pages, type Page } from './paging.js';
import { figuresFromExtensions, figuresFromHeaders, RateLimitGate, realClock, type Clock, type RateLimitFigures } from './rate-limit.js';
import { readSse, type SseMessage } from './sse.js';

export type Game = ops.GameQuery['game'];
export type SeatView = Game['view'];
export type LegalMoves = NonNullable<SeatView['legalMoves']>;
export type MoveResult = ops.MakeMoveMutation['makeMove'];
export type FeedEvent = ops.FeedEventFieldsFragment;
export type GameLogEntry = ops.GameLogEntryFieldsFragment;
export type Lobby = ops.LobbyFieldsFragment;
export type Player = ops.PlayerFieldsFragment;
export type TurnToPlay = ops.MyTurnQuery['myTurn']['items'][number];
export type GameSummary = ops.MyGamesQuery['myGames']['items'][number];

/** One move, by kind: what MakeMoveInput takes besides the game, version and key. */
export type Move =
  | { kind: 'contract'; contract: ops.Contract }
  | { kind: 'exchange'; discards: string[] }
  | { kind: 'bid'; bid: ops.Bid }
  | { kind: 'discard'; cards: string[] }
  | { kind: 'trump'; suit: ops.Suit }
  | { kind: 'play'; card: string };

/** A WebSocket constructor: the browser's, Node 22's global one, or the `ws` package's on Node 20. */
export type WebSocketConstructor = unknown;

/**
 * A typed GraphQL document: this package's, or one of a program's own codegen (any
 * `TypedDocumentString`, whichever codegen made it), or a plain query string.
 */
export type Document<R, V> = (DocumentTypeDecoration<R, V> & { toString(): string }) | string;

/**
 * The live socket as a UI shows it: `idle` (no subscription), `connecting` (the first time),
 * `connected`, `reconnecting` (it was connected and was lost; subscriptions resume when it is back).
 * Renewing the socket for a refreshed token is no loss: it stays `connected`.
 */
export type SocketState = 'idle' | 'connecting' | 'connected' | 'reconnecting';

export interface ClientOptions {
  /**
   * The server's root, e.g. http://localhost:3000 (no /graphql, no /api/v1). In a browser it may be
   * relative to the page's origin: '' (the same origin) or a path such as '/mizerka'.
   */
  baseUrl: string;
  /** A personal API token; or `credentials` (a session); or neither (anonymous until signIn/register). */
  token?: string;
  credentials?: Credentials;
  fetch?: typeof fetch;
  /** For graphql-ws: default `globalThis.WebSocket`; on Node 20 pass `(await import('ws')).default`. */
  webSocket?: WebSocketConstructor;
  /** RATE_LIMITED answers waited out and retried before the error is thrown (default 3). */
  rateLimitRetries?: number;
  /** Reconnection delays of the streams: from `minMs`, doubling to `maxMs` (default 250 ms to 15 s). */
  reconnect?: { minMs?: number; maxMs?: number };
  /** graphql-ws keep-alive pings every this many ms (default 20 s; 0: none). */
  keepAliveMs?: number;
  clock?: Clock;
}

export interface RequestOptions {
  /** Sent without a token even when the client has one. */
  anonymous?: boolean;
  /**
   * The operation carries an idempotency key (makeMove, resign): an answer lost on the way
   * (NETWORK) is asked again with the same variables, twice at most; the server does it once.
   */
  idempotent?: boolean;
  signal?: AbortSignal;
}

export interface MoveOptions {
  /**
   * The version the move was decided on: CONFLICT if the game moved since. Default: the version
   * of the last answer this client had about the game (game, a move, gameLog); null sends none.
   */
  expectedVersion?: number | null;
  /** Default: a fresh key, kept for the retries of this call after a lost answer. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface PlayOptions {
  /** Tries before the last CONFLICT / NOT_YOUR_TURN is thrown (default 5). */
  attempts?: number;
  signal?: AbortSignal;
}

export interface FollowOptions<C> {
  /** Resume after this id (a feed event's id, a log entry's seq). */
  after?: C;
  signal?: AbortSignal;
}

/**
 * A live stream: iterate it. `ready` resolves once the server follows it: whatever is committed
 * from then on reaches the stream (for SSE: at the server's `: ready` line, or its first event).
 */
export interface Stream<T> extends AsyncIterable<T> {
  ready: Promise<void>;
  /** The id to resume after: the last one received. */
  readonly lastId: string | undefined;
}

/** An SSE connection's events; `head`, the first of them when it has been asked for already. */
interface SseConnection {
  messages: AsyncGenerator<SseMessage>;
  head?: Promise<IteratorResult<SseMessage>>;
}

interface GraphQLAnswer<R> {
  data?: R | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, unknown>;
}

/** A fresh idempotency key (getRandomValues: a page on plain http is no secure context for randomUUID). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const toInput = (gameId: string, move: Move): ops.MakeMoveInput => ({ gameId, ...move }) as ops.MakeMoveInput;

/** Close codes of graphql-ws after which reconnecting cannot help (the token refused, a bad request). */
const FINAL_CLOSES = new Set([4400, 4403, 4409, 1009]);

/** graphql-ws's close code when the client terminates its socket: here only to renew its token. */
const TERMINATED = 4499;


function closeCode(error: unknown): number | null {
  return typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'number' ? (error as { code: number }).code : null;
}

export class MizerkaClient {
  readonly baseUrl: string;
  private credentials: Credentials | null;
  private readonly fetchImpl: typeof fetch;
  private readonly clock: Clock;
  private readonly gate: RateLimitGate;
  private readonly versions = new Map<string, number>();
  private ws: WsClient | null = null;
  private state: SocketState = 'idle';
  private readonly stateListeners = new Set<(state: SocketState) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  /** Subscriptions running (resuming ones included): none left while lost means idle. */
  private subscriptions = 0;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    if (this.baseUrl !== '' && !/^https?:\/\//i.test(this.baseUrl) && !this.baseUrl.startsWith('/')) {
      throw new TypeError(`baseUrl must be http(s)://… or a path of this origin ('' or '/…'), not ${JSON.stringify(options.baseUrl)}`);
    }
    this.credentials = options.credentials ?? (options.token ? personalToken(options.token) : null);
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.clock = options.clock ?? realClock;
    this.gate = new RateLimitGate(this.clock);
  }

  // ---- authentication ----------------------------------------------------------------------

  /** Use these credentials from now on (a socket already open keeps its own until it reconnects). */
  useCredentials(credentials: Credentials | null): void {
    this.credentials = credentials;
    void this.close();
  }

  /** Registers a player (a bot account with `bot: true`) and uses its personal token, shown only this once. */
  async register(name: string, options: { bot?: boolean } = {}): Promise<{ player: Player; token: string }> {
    const { register } = await this.request(ops.RegisterDocument, { name, bot: options.bot ?? false }, { anonymous: true });
    this.useCredentials(personalToken(register.token));
    return register;
  }

  /** Signs in with a password: a session whose access token is refreshed before it expires. */
  async signIn(login: string, password: string, options: SessionHooks = {}): Promise<SessionCredentials> {
    const { signIn } = await this.request(ops.SignInDocument, { login, password }, { anonymous: true });
    return this.startSession(signIn, options);
  }

  /** Makes an account with a password, signed in. */
  async signUp(name: string, password: string, options: SessionHooks = {}): Promise<SessionCredentials> {
    const { signUp } = await this.request(ops.SignUpDocument, { name, password }, { anonymous: true });
    return this.startSession(signUp, options);
  }

  /** Goes on with a session whose tokens were stored (its refresh token not yet used). */
  resumeSession(tokens: SessionTokens, options: SessionHooks = {}): SessionCredentials {
    const session = new SessionCredentials(tokens, {
      ...options,
      now: () => this.clock.now(),
      refresh: async (refreshToken) => sessionTokens((await this.request(ops.RefreshSessionDocument, { refreshToken }, { anonymous: true })).refreshSession),
    });
    this.useCredentials(session);
    return session;
  }

  /** Uses an OAuth grant's tokens (exchangeCode), refreshed through the token endpoint. */
  useOAuthTokens(tokens: OAuthTokens, clientId: string, options: SessionHooks = {}): SessionCredentials {
    const session = new SessionCredentials(tokens, {
      ...options,
      now: () => this.clock.now(),
      refresh: (refreshToken) => refreshOAuth({ baseUrl: this.baseUrl, clientId, refreshToken, fetch: this.fetchImpl }),
    });
    this.useCredentials(session);
    return session;
  }

  /** Ends the session on the server and forgets it. */
  async signOut(): Promise<void> {
    await this.request(ops.SignOutDocument, {});
    this.useCredentials(null);
  }

  private startSession(tokens: ops.SessionTokensFieldsFragment, options: SessionHooks): SessionCredentials {
    return this.resumeSession(sessionTokens(tokens), options);
  }

  // ---- requests ----------------------------------------------------------------------------

  /** The budget the last answer reported (RateLimit-* / extensions.rateLimit). */
  get rateLimit(): RateLimitFigures | null {
    return this.gate.figures;
  }

  /**
   * One GraphQL operation over HTTP: its data, or a MizerkaError. Waits when the budget is spent,
   * retries a RATE_LIMITED answer after its `retryAfter`, and a refused session token once after
   * refreshing it. Any operation of the schema: pass a document of your own (a string or a
   * TypedDocumentString from your own codegen).
   */
  async request<R, V>(document: Document<R, V>, variables: V, options: RequestOptions = {}): Promise<R> {
    return options.idempotent ? this.withSameKey(() => this.requestOnce(document, variables, options), options.signal) : this.requestOnce(document, variables, options);
  }

  private async requestOnce<R, V>(document: Document<R, V>, variables: V, options: RequestOptions): Promise<R> {
    let token = options.anonymous ? null : await this.token();
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      await this.gate.wait(options.signal);
      const response = await this.send('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query: document.toString(), variables }),
        signal: options.signal,
      });
      let answer: GraphQLAnswer<R>;
      try {
        answer = (await response.json()) as GraphQLAnswer<R>;
      } catch {
        throw new MizerkaError(response.status >= 500 ? 'NETWORK' : 'INTERNAL', `The server answered ${response.status} without a GraphQL result`, {}, response.status);
      }
      this.gate.note(figuresFromExtensions(answer.extensions) ?? figuresFromHeaders(response.headers));
      const first = answer.errors?.[0];
      if (!first) {
        if (!answer.data) throw new MizerkaError('INTERNAL', 'The server sent no data', {}, response.status);
        return answer.data;
      }
      const { code, ...details } = first.extensions ?? {};
      const error = errorFrom(code, first.message, details, response.status);
      if (error.code === 'RATE_LIMITED' && attempt < (this.options.rateLimitRetries ?? 3)) {
        this.gate.refused(error.retryAfter ?? 1);
        continue;
      }
      if (error.code === 'UNAUTHENTICATED' && token && !refreshed && this.credentials) {
        refreshed = true;
        token = await this.credentials.refused(token);
        if (token) continue;
      }
      throw error;
    }
  }

  private async token(): Promise<string | null> {
    return this.credentials ? this.credentials.token() : null;
  }

  private async send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetchImpl(this.baseUrl + path, init);
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new MizerkaError('NETWORK', `The server cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private remember(gameId: string, version: number): void {
    if (version > (this.versions.get(gameId) ?? -1)) this.versions.set(gameId, version);
  }

  // ---- reading -----------------------------------------------------------------------------

  async me(): Promise<Player> {
    return (await this.request(ops.MeDocument, {})).me;
  }

  /** A game as the caller's seat sees it (its hand, its legal moves), or as a spectator. */
  async game(gameId: string, options: { signal?: AbortSignal } = {}): Promise<Game> {
    const { game } = await this.request(ops.GameDocument, { id: gameId }, options);
    this.remember(gameId, game.version);
    return game;
  }

  /** The caller's games waiting for their move, soonest deadline first, every page. */
  myTurn(options: { pageSize?: number } = {}): AsyncGenerator<TurnToPlay> {
    return pages(async (after) => (await this.request(ops.MyTurnDocument, { first: options.pageSize ?? 20, after })).myTurn);
  }

  /** The caller's games of a status, newest first, every page. */
  myGames(options: { status?: ops.GameStatus; pageSize?: number } = {}): AsyncGenerator<GameSummary> {
    return pages(async (after) => (await this.request(ops.MyGamesDocument, { status: options.status ?? 'active', first: options.pageSize ?? 20, after })).myGames);
  }

  /** Open public lobbies, newest first, every page. */
  lobbies(options: { preset?: string; pageSize?: number } = {}): AsyncGenerator<Lobby> {
    return pages(async (after): Promise<Page<Lobby>> => {
      const { lobbies } = await this.request(ops.LobbiesDocument, { preset: options.preset, first: options.pageSize ?? 20, after });
      return { items: lobbies.lobbies, nextCursor: lobbies.nextCursor, hasMore: lobbies.hasMore };
    });
  }

  /** A game's log after `after` (default: from the start), page by page as the seat may see it. */
  async *gameEvents(gameId: string, options: { after?: number; pageSize?: number } = {}): AsyncGenerator<GameLogEntry> {
    let after = options.after ?? 0;
    for (;;) {
      const { gameEvents } = await this.request(ops.GameEventsDocument, { gameId, after, first: options.pageSize ?? 100 });
      this.remember(gameId, gameEvents.version);
      for (const entry of gameEvents.entries) {
        after = entry.seq;
        yield entry;
      }
      if (!gameEvents.hasMore || gameEvents.entries.length === 0) return;
    }
  }

  // ---- lobbies -----------------------------------------------------------------------------

  async createLobby(input: ops.CreateLobbyInput): Promise<Lobby> {
    return (await this.request(ops.CreateLobbyDocument, { input })).createLobby;
  }

  async joinLobby(input: ops.JoinLobbyInput): Promise<Lobby> {
    return (await this.request(ops.JoinLobbyDocument, { input })).joinLobby;
  }

  async leaveLobby(lobbyId: string): Promise<Lobby> {
    return (await this.request(ops.LeaveLobbyDocument, { lobbyId })).leaveLobby;
  }

  /** The host seats a server bot; the last seat taken starts the game (the lobby's gameId). */
  async addBot(lobbyId: string, level: ops.BotLevel, seat?: number): Promise<Lobby> {
    return (await this.request(ops.AddBotDocument, { lobbyId, level, seat })).addBot;
  }

  async startLobby(lobbyId: string): Promise<Lobby> {
    return (await this.request(ops.StartLobbyDocument, { lobbyId })).startLobby;
  }

  // ---- moving ------------------------------------------------------------------------------

  /**
   * Sends one move with an idempotency key and an expected version (see MoveOptions). An answer
   * lost on the way (NETWORK) is asked again with the same key, twice at most: the server does the
   * move once and gives the first answer again. CONFLICT and NOT_YOUR_TURN are thrown: `play`
   * is the loop that reads the table again.
   */
  async move(gameId: string, move: Move, options: MoveOptions = {}): Promise<MoveResult> {
    const expectedVersion = options.expectedVersion === undefined ? this.versions.get(gameId) : (options.expectedVersion ?? undefined);
    const input = { ...toInput(gameId, move), expectedVersion, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() };
    const { makeMove } = await this.request(ops.MakeMoveDocument, { input }, { signal: options.signal, idempotent: true });
    this.remember(gameId, makeMove.version);
    return makeMove;
  }

  /**
   * Resigns: the game ends at once. Unlike a move it sends no expected version unless given one:
   * a resignation stands whatever the others played meanwhile. The key is handled as for a move.
   */
  async resign(gameId: string, options: MoveOptions = {}): Promise<MoveResult> {
    const input = { gameId, expectedVersion: options.expectedVersion ?? undefined, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() };
    const { resign } = await this.request(ops.ResignDocument, { input }, { signal: options.signal, idempotent: true });
    this.remember(gameId, resign.version);
    return resign;
  }

  private async withSameKey<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (!isMizerkaError(error, 'NETWORK') || attempt >= 2) throw error;
        await this.clock.sleep(this.backoff(attempt), signal);
      }
    }
  }

  /**
   * Plays the caller's turn in a game: reads the table, asks `decide` for a move from the seat's
   * view, and sends it with that view's version. When the game moved meanwhile (CONFLICT: the
   * clock, a resignation; NOT_YOUR_TURN) it reads the table again and asks `decide` again, up to
   * `attempts` times. Answers null when it is not (or no longer) the caller's turn.
   */
  async play(gameId: string, decide: (view: SeatView, game: Game) => Move | Promise<Move>, options: PlayOptions = {}): Promise<MoveResult | null> {
    const attempts = options.attempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      const game = await this.game(gameId, options);
      if (game.status !== 'active' || !game.view.legalMoves || game.view.legalMoves.seat !== game.mySeat) return null;
      const move = await decide(game.view, game);
      try {
        return await this.move(gameId, move, { expectedVersion: game.version, signal: options.signal });
      } catch (error) {
        if (!isMizerkaError(error, 'CONFLICT', 'NOT_YOUR_TURN') || attempt >= attempts) throw error;
      }
    }
  }

  // ---- live: graphql-ws --------------------------------------------------------------------

  /** The socket's state of the moment (see SocketState). */
  get socketState(): SocketState {
    return this.state;
  }

  /** Calls `listener` with the socket's state now and at each change; returns its removal. */
  onSocketState(listener: (state: SocketState) => void): () => void {
    this.stateListeners.add(listener);
    listener(this.state);
    return () => void this.stateListeners.delete(listener);
  }

  /**
   * Calls `listener` each time the socket is back after being lost: the subscriptions resume after
   * their last item, but a view built from queries may want to read itself again.
   */
  onReconnected(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => void this.reconnectListeners.delete(listener);
  }

  private setState(state: SocketState): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  /** The socket's URL: from an absolute baseUrl, else from the page's own origin. */
  private socketUrl(): string {
    const page = (globalThis as { location?: { href: string } }).location?.href;
    if (!/^https?:\/\//i.test(this.baseUrl) && !page) throw new TypeError('A relative baseUrl needs a page (location) to resolve against');
    const url = new URL(`${this.baseUrl}/graphql`, page);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.href;
  }

  private socket(): WsClient {
    if (this.ws) return this.ws;
    const webSocketImpl = this.options.webSocket ?? (globalThis as { WebSocket?: unknown }).WebSocket;
    if (!webSocketImpl) throw new Error("No WebSocket here (Node 20): pass { webSocket: (await import('ws')).default } to MizerkaClient");
    const credentials = this.credentials;
    /** What this socket did: the token it connected with, whether it was ever up, lost, or renewing. */
    const life = { sent: null as string | null, everConnected: false, lost: false, renewing: false, stopRenewal: () => undefined as void };
    const client = createClient({
      url: this.socketUrl(),
      webSocketImpl,
      lazy: true,
      keepAlive: this.options.keepAliveMs ?? 20_000,
      // Reconnecting is done here, per subscription, so each resumes after its own last id.
      retryAttempts: 0,
      connectionParams: async () => {
        const token = credentials ? await credentials.token() : null;
        life.sent = token;
        return token ? { authorization: `Bearer ${token}` } : {};
      },
      on: {
        connecting: () => {
          if (this.ws !== client || life.renewing) return;
          this.setState(life.lost ? 'reconnecting' : 'connecting');
        },
        connected: () => {
          if (this.ws !== client) return;
          const wasLost = life.lost;
          life.everConnected = true;
          life.lost = false;
          life.renewing = false;
          this.setState('connected');
          life.stopRenewal = this.planRenewal(client, credentials, life.sent, () => (life.renewing = true));
          if (wasLost) for (const listener of this.reconnectListeners) listener();
        },
        closed: (event) => {
          life.stopRenewal();
          if (this.ws !== client) return;
          const code = closeCode(event);
          if (life.renewing && code === TERMINATED) return;
          life.renewing = false;
          // 1000: closed when idle (lazy) or by close(); anything else with subscriptions left is a loss they resume from.
          if (code === 1000 || this.subscriptions === 0) {
            life.lost = false;
            this.setState('idle');
          } else {
            life.lost ||= life.everConnected;
            this.setState(life.lost ? 'reconnecting' : 'connecting');
          }
        },
      },
    });
    this.ws = client;
    return client;
  }

  /**
   * While the socket is up, renews it before its token expires (the server closes a socket whose
   * token expired): when the credentials give another token (refreshed by a request, another tab,
   * or asked for here at their `renewAt`), the socket is closed and opened again with it at once,
   * each subscription resuming after its last item. Returns the plan's cancel.
   */
  private planRenewal(client: WsClient, credentials: Credentials | null, sent: string | null, renewing: () => void): () => void {
    if (!credentials || !sent || (!credentials.onChange && !credentials.renewAt)) return () => undefined;
    const stop = new AbortController();
    const renewIfChanged = async () => {
      const token = await credentials.token().catch(() => null);
      if (stop.signal.aborted || this.ws !== client || !token || token === sent) return;
      stop.abort();
      renewing();
      client.terminate();
    };
    const unlisten = credentials.onChange?.(() => void renewIfChanged());
    const renewAt = credentials.renewAt?.() ?? null;
    if (renewAt !== null) this.clock.sleep(Math.max(0, renewAt - this.clock.now()), stop.signal).then(renewIfChanged, () => undefined);
    return () => {
      stop.abort();
      unlisten?.();
    };
  }

  /**
   * A subscription that survives a dropped socket: after a close it subscribes again with the
   * variables `resume` makes of the last item received (no gap, no repeat). A token refused (4401)
   * is refreshed first when the credentials can; an error answer (BAD_INPUT, FORBIDDEN…) is thrown.
   */
  private async *resumable<T, V extends Record<string, unknown>>(
    query: string,
    variables: V,
    pick: (data: Record<string, unknown>) => T,
    resume: (item: T, variables: V) => V,
    options: { signal?: AbortSignal; endsOnComplete: boolean; onItem?: (item: T) => void },
  ): AsyncGenerator<T> {
    let current = variables;
    let failures = 0;
    this.subscriptions++;
    try {
      for (;;) {
        const credentials = this.credentials;
        const sent = credentials ? await credentials.token() : null;
        const iterator = this.socket().iterate({ query, variables: current });
        const stop = () => void iterator.return?.();
        options.signal?.addEventListener('abort', stop, { once: true });
        let renewed = false;
        try {
          for await (const result of iterator) {
            if (result.errors?.length) {
              const [first] = result.errors;
              const { code, ...details } = (first.extensions ?? {}) as Record<string, unknown>;
              throw errorFrom(code, first.message, details);
            }
            const item = pick(result.data as Record<string, unknown>);
            current = resume(item, current);
            failures = 0;
            options.onItem?.(item);
            yield item;
          }
          if (options.signal?.aborted || options.endsOnComplete) return;
        } catch (error) {
          if (error instanceof MizerkaError) {
            if (error.code !== 'RATE_LIMITED') throw error;
            this.gate.refused(error.retryAfter ?? 1);
          } else {
            const code = closeCode(error);
            if (code === null || FINAL_CLOSES.has(code)) throw error;
            renewed = code === TERMINATED;
            if (code === 4401) {
              const next = sent && credentials ? await credentials.refused(sent) : null;
              if (!next) throw new MizerkaError('UNAUTHENTICATED', 'The server refused the token of the socket (revoked or expired)');
            }
          }
        } finally {
          options.signal?.removeEventListener('abort', stop);
          // Released whatever ended it: graphql-ws counts a subscription its socket lost as open
          // until it is, and would never close that socket when idle.
          stop();
        }
        if (options.signal?.aborted) return;
        await this.gate.wait(options.signal);
        // A socket renewed for its token is subscribed again at once; a lost one after a pause.
        if (!renewed) await this.clock.sleep(this.backoff(failures++), options.signal).catch(() => undefined);
        if (options.signal?.aborted) return;
      }
    } finally {
      // The last subscription gone while the socket is down: nothing is reconnecting any more.
      if (--this.subscriptions === 0 && this.state !== 'connected') this.setState('idle');
    }
  }

  /**
   * Any subscription of the schema (a document of this package or of a program's own codegen),
   * resumed after a dropped socket: with the same variables, or those `resume` makes of the last
   * data received (e.g. `after` its id). Ends when the server completes it; errors are thrown.
   */
  subscribe<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V, options: { resume?: (data: R, variables: V) => V; signal?: AbortSignal } = {}): AsyncGenerator<R> {
    return this.resumable(document.toString(), variables, (data) => data as R, options.resume ?? ((_data, same) => same), { signal: options.signal, endsOnComplete: true });
  }

  /** A game's log after `after` (a seq), then each entry once committed; ends after the game's last entry. */
  gameLog(gameId: string, options: FollowOptions<number> = {}): AsyncGenerator<GameLogEntry> {
    return this.resumable(
      ops.GameLogDocument.toString(),
      { gameId, after: options.after ?? 0 },
      (data) => data.gameLog as GameLogEntry,
      (entry, variables) => ({ ...variables, after: entry.seq }),
      { signal: options.signal, endsOnComplete: true, onItem: (entry) => this.remember(gameId, entry.seq) },
    );
  }

  /** The caller's feed (yourTurn, gameFinished…) after `after` (an event id), else from now on. */
  myEvents(options: FollowOptions<string> = {}): AsyncGenerator<FeedEvent> {
    return this.resumable<FeedEvent, { after?: string }>(
      ops.MyEventsDocument.toString(),
      options.after === undefined ? {} : { after: options.after },
      (data) => data.myEvents as FeedEvent,
      (event) => ({ after: event.id }),
      { signal: options.signal, endsOnComplete: false },
    );
  }

  // ---- live: server-sent events ------------------------------------------------------------

  /**
   * The caller's feed over SSE (GET /api/v1/me/events): no WebSocket needed. The connection opens
   * at once (`ready`), so a program can read what it missed (myTurn) after it and lose nothing.
   */
  feed(options: FollowOptions<string> = {}): Stream<FeedEvent> {
    return this.followSse<FeedEvent>('/api/v1/me/events', options.after, options.signal, () => false);
  }

  /** A game's log over SSE (GET /api/v1/games/:id/events/stream); ends after the game's last entry. */
  gameStream(gameId: string, options: FollowOptions<number> = {}): Stream<GameLogEntry> {
    return this.followSse<GameLogEntry>(
      `/api/v1/games/${encodeURIComponent(gameId)}/events/stream`,
      options.after === undefined ? undefined : String(options.after),
      options.signal,
      (entry) => {
        this.remember(gameId, entry.seq);
        return entry.kind === 'end';
      },
    );
  }

  private followSse<T>(path: string, after: string | undefined, signal: AbortSignal | undefined, isLast: (item: T) => boolean): Stream<T> {
    let lastId = after;
    let markReady: () => void = () => undefined;
    let failReady: (error: unknown) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    ready.catch(() => undefined);
    // The first connection is made now, not at the first next(), and read at once up to the
    // server's `: ready` (its start is fixed after its headers) or its first event: then `ready`.
    let first: Promise<SseConnection | null> | null = this.openSse(path, lastId, signal).then((response) => {
      if (!response) return null;
      const messages = readSse(response.body!, signal, (text) => {
        if (text === 'ready') markReady();
      });
      const head = messages.next();
      head.catch(() => undefined); // read again, and handled, by follow()
      return { messages, head };
    });
    first.then((connection) => (connection ? connection.head : null)).then(() => markReady(), failReady); // a 204, an event or the end: nothing to wait for
    const open = async (id: string | undefined): Promise<SseConnection | null> => {
      const response = await this.openSse(path, id, signal);
      return response && { messages: readSse(response.body!, signal) };
    };
    const pause = (failures: number) => this.clock.sleep(this.backoff(failures), signal).catch(() => undefined);
    async function* follow(): AsyncGenerator<T> {
      let failures = 0;
      for (;;) {
        let connection: SseConnection | null;
        try {
          connection = await (first ?? open(lastId));
        } finally {
          first = null;
        }
        if (!connection) return; // 204: a finished game with nothing more
        const { messages } = connection;
        let head = connection.head;
        try {
          for (;;) {
            const next = await (head ?? messages.next());
            head = undefined;
            if (next.done) break;
            const message = next.value;
            const data = JSON.parse(message.data) as unknown;
            if (message.event === 'error') {
              const { code, message: text, ...details } = data as Record<string, unknown>;
              const error = errorFrom(code, String(text ?? 'stream error'), details);
              if (error.code !== 'UNAUTHENTICATED') throw error;
              break; // reconnect: openSse asks the credentials again, and refreshes a refused token
            }
            if (message.id !== undefined) lastId = message.id;
            failures = 0;
            yield data as T;
            if (isLast(data as T)) return;
          }
        } catch (error) {
          if (error instanceof MizerkaError) throw error;
          // A dropped connection: reconnect below.
        } finally {
          void messages.return(undefined).catch(() => undefined); // closes the connection
        }
        if (signal?.aborted) return;
        await pause(failures++);
        if (signal?.aborted) return;
      }
    }
    const iterator = follow();
    return {
      ready,
      get lastId() {
        return lastId;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
  }

  /** Opens an SSE stream after `lastId` (Last-Event-ID); null for 204. Waits out 429s and network failures. */
  private async openSse(path: string, lastId: string | undefined, signal?: AbortSignal): Promise<Response | null> {
    let token = await this.token();
    let refreshed = false;
    for (let failures = 0; ; failures++) {
      await this.gate.wait(signal);
      let response: Response;
      try {
        response = await this.send(path, {
          headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(lastId !== undefined ? { 'last-event-id': lastId } : {}) },
          signal,
        });
      } catch (error) {
        if (!isMizerkaError(error, 'NETWORK')) throw error;
        await this.clock.sleep(this.backoff(failures), signal);
        continue;
      }
      this.gate.note(figuresFromHeaders(response.headers));
      if (response.status === 204) return null;
      if (response.ok && response.body) return response;
      const error = errorFromProblem(response.status, await response.json().catch(() => null));
      if (error.code === 'RATE_LIMITED') {
        this.gate.refused(error.retryAfter ?? Number(response.headers.get('retry-after') ?? 1));
        continue;
      }
      if (error.code === 'UNAUTHENTICATED' && token && !refreshed && this.credentials) {
        refreshed = true;
        token = await this.credentials.refused(token);
        if (token) continue;
      }
      if (response.status >= 500) {
        await this.clock.sleep(this.backoff(failures), signal);
        continue;
      }
      throw error;
    }
  }

  private backoff(failures: number): number {
    const min = this.options.reconnect?.minMs ?? 250;
    const max = this.options.reconnect?.maxMs ?? 15_000;
    return Math.min(max, min * 2 ** Math.min(failures, 16));
  }

  /** Closes the socket (the SSE streams end with their signal or a break). */
  async close(): Promise<void> {
    const ws = this.ws;
    this.ws = null;
    this.setState('idle');
    await ws?.dispose();
  }
}

export interface SessionHooks {
  /** Every new pair of tokens: store the refresh token to resume the session later. */
  onTokens?(tokens: SessionTokens): void;
  /** Refresh this long before the access token expires (ms; default 60 s). */
  refreshBeforeMs?: number;
}

function sessionTokens(tokens: ops.SessionTokensFieldsFragment): SessionTokens {
  return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, accessTokenExpiresAt: Date.parse(tokens.accessTokenExpiresAt) };
}
