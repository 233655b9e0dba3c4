// The client's two ways to the API: GraphQL over fetch for queries and moves, and one graphql-ws
// socket (the one third-party clients use) for the live game log and the player's feed.
import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from './gql/graphql';

/** An error as the API names it (`extensions.code`), or NETWORK when no answer came. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

let tokenRefused: ((token: string) => void) | null = null;

/** Called with a personal token the API refused (revoked or expired): the session forgets it, if it still holds it. */
export function onTokenRefused(listener: (token: string) => void) {
  tokenRefused = listener;
}

/**
 * A signed-in session's tokens change every few minutes, so screens hold its `credential` (a name
 * that stays the same) and requests and the socket ask for the token of the moment.
 */
export interface SessionAuth {
  credential: string;
  /** The access token to send now (refreshed first when it is about to expire); null when signed out. */
  token(): Promise<string | null>;
  /** The API refused `token`: the next one, or null when the session is over. */
  refused(token: string): Promise<string | null>;
}

let sessionAuth: SessionAuth | null = null;

export function setSessionAuth(auth: SessionAuth | null) {
  sessionAuth = auth;
}

function authFor(credential: string | null): SessionAuth | null {
  return credential !== null && sessionAuth?.credential === credential ? sessionAuth : null;
}

/**
 * One GraphQL operation over HTTP; resolves to its data or throws an ApiError. `credential` is a
 * personal token, or a session's credential (useToken): its access token is refreshed before it
 * expires, and once more if the API refuses it.
 */
export async function request<R, V>(document: TypedDocumentString<R, V>, variables: V, credential: string | null): Promise<R> {
  const auth = authFor(credential);
  let token = auth ? await auth.token() : credential;
  try {
    return await send(document, variables, token);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'UNAUTHENTICATED' || !token) throw error;
    if (!auth) {
      tokenRefused?.(token);
      throw error;
    }
    token = await auth.refused(token);
    if (!token) throw error;
    return send(document, variables, token);
  }
}

async function send<R, V>(document: TypedDocumentString<R, V>, variables: V, token: string | null): Promise<R> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: document.toString(), variables }),
    });
  } catch {
    throw new ApiError('NETWORK', 'The server cannot be reached. Check your connection; the page retries by itself.');
  }
  let body: GraphQLResponse<R>;
  try {
    body = (await response.json()) as GraphQLResponse<R>;
  } catch {
    throw new ApiError(response.status >= 500 ? 'NETWORK' : 'INTERNAL', `The server answered ${response.status} without a GraphQL result.`);
  }
  const first = body.errors?.[0];
  if (first) {
    const extensions = first.extensions ?? {};
    throw new ApiError(typeof extensions.code === 'string' ? extensions.code : 'INTERNAL', first.message, extensions);
  }
  if (!body.data) throw new ApiError('INTERNAL', 'The server sent no data.');
  return body.data;
}

/** The words a player reads for an error the API returned. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  switch (error.code) {
    case 'NOT_YOUR_TURN':
      return 'It is not your turn any more; the table has been refreshed.';
    case 'CONFLICT':
      return 'The game moved on before your move arrived; the table has been refreshed, please look and move again.';
    case 'RATE_LIMITED': {
      const wait = Number(error.extensions.retryAfter);
      return `Too many requests: please wait${Number.isFinite(wait) && wait > 0 ? ` ${wait} s` : ' a moment'} and try again.`;
    }
    case 'UNAUTHENTICATED':
      return 'Your token is no longer valid (revoked or expired). Sign in again.';
    case 'ILLEGAL_MOVE':
      return `That move is not allowed (${String(error.extensions.rule ?? error.message)}).`;
    case 'NETWORK':
      return error.message;
    default:
      return `${error.message} (${error.code})`;
  }
}

/** The words for an error a form's own input caused (a wrong password, a name taken): the server's. */
export function describeFormError(error: unknown): string {
  if (error instanceof ApiError && ['UNAUTHENTICATED', 'BAD_INPUT', 'CONFLICT', 'FORBIDDEN', 'NOT_FOUND'].includes(error.code)) return error.message;
  return describeError(error);
}

/**
 * A fresh idempotency key. crypto.getRandomValues, not randomUUID: a phone on the local network
 * opens the page over plain http, which is no secure context.
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export type LinkState = 'idle' | 'connecting' | 'connected' | 'reconnecting';

type Listener = (state: LinkState) => void;
const listeners = new Set<Listener>();
const reconnectListeners = new Set<() => void>();
let linkState: LinkState = 'idle';
let socket: {
  credential: string;
  client: Client;
  /** The access token the socket connected with. */
  sent: string | null;
  /** A session's token refused at connect time: trade it before connecting again. */
  refused: string | null;
  /** Closed on purpose to connect again with a refreshed token. */
  renewing: boolean;
} | null = null;
let everConnected = false;
/** Whether the socket was lost (not closed for idleness) since it last connected. */
let dropped = false;

function setLinkState(state: LinkState) {
  linkState = state;
  for (const listener of listeners) listener(state);
}

export function onLinkState(listener: Listener): () => void {
  listeners.add(listener);
  listener(linkState);
  return () => listeners.delete(listener);
}

/** Called after the socket comes back from a drop: views refetch what they may have missed. */
export function onReconnected(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/** Close codes after which retrying cannot help: the token was refused. */
const FINAL_CLOSES = new Set([4401, 4403]);

/** graphql-ws's own close when the client terminates the socket (here: to take a refreshed token). */
const TERMINATED = 4499;

function closeCode(event: unknown): number {
  return typeof event === 'object' && event !== null && 'code' in event ? (event as CloseEvent).code : 0;
}

/**
 * The socket of the signed-in player. It is keyed by the credential, not the token: a session's
 * socket reads the token of the moment each time it connects, and is closed and opened again
 * (graphql-ws subscribing everything again) when the token is refreshed, before the server closes
 * it as its old token expires.
 */
function socketFor(credential: string): Client {
  if (socket?.credential === credential) return socket.client;
  void socket?.client.dispose();
  everConnected = false;
  dropped = false;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const state = { credential, sent: null as string | null, refused: null as string | null, renewing: false, client: null as unknown as Client };
  const client = createClient({
    url,
    connectionParams: async () => {
      const auth = authFor(credential);
      let token = auth ? await auth.token() : credential;
      if (auth && token && token === state.refused) token = await auth.refused(token);
      state.refused = null;
      // Throwing closes the socket for good: the session is over.
      if (!token) throw new Error('Signed out');
      state.sent = token;
      return { authorization: `Bearer ${token}` };
    },
    lazy: true,
    keepAlive: 20_000,
    // Correspondence games last days: keep trying, at most every 10 s.
    retryAttempts: Number.MAX_SAFE_INTEGER,
    retryWait: (retries) =>
      state.renewing ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** Math.min(retries, 5)) * (0.75 + Math.random() / 2))),
    shouldRetry: (event) => {
      if (!FINAL_CLOSES.has(closeCode(event))) return true;
      // A session's token refused as the socket connected: once more, with the next token.
      if (authFor(credential) && state.sent && state.refused === null) {
        state.refused = state.sent;
        return true;
      }
      return false;
    },
    on: {
      connected: () => {
        setLinkState('connected');
        if (dropped) for (const listener of reconnectListeners) listener();
        everConnected = true;
        dropped = false;
        state.renewing = false;
      },
      // 1000: the client closed its idle lazy socket (no subscription left); 4408: the server
      // closed an idle one. Anything else is a drop the client now retries.
      closed: (event) => {
        const code = closeCode(event);
        const idle = code === 1000 || code === 4408 || FINAL_CLOSES.has(code);
        if (!idle && everConnected) dropped = true;
        // Renewing the token is no lost connection to tell the player about.
        const renewing = state.renewing && code === TERMINATED;
        setLinkState(idle ? 'idle' : everConnected && !renewing ? 'reconnecting' : 'connecting');
      },
    },
  });
  state.client = client;
  socket = state;
  return client;
}

/** A session's token was refreshed: a connected socket opens again with it, its subscriptions kept. */
export function sessionTokenChanged(credential: string, token: string) {
  if (socket?.credential !== credential || !socket.sent || socket.sent === token || linkState !== 'connected') return;
  socket.renewing = true;
  socket.client.terminate();
}

export function closeSocket() {
  void socket?.client.dispose();
  socket = null;
}

/** A live subscription; returns its unsubscribe. */
export function subscribe<R, V>(
  document: TypedDocumentString<R, V>,
  variables: V,
  credential: string,
  handlers: { next: (data: R) => void; error?: (error: ApiError) => void; complete?: () => void },
): () => void {
  return socketFor(credential).subscribe<R>(
    { query: document.toString(), variables: variables as Record<string, unknown> },
    {
      next: (message) => {
        const first = message.errors?.[0];
        if (first) handlers.error?.(new ApiError(String(first.extensions?.code ?? 'INTERNAL'), first.message, first.extensions ?? {}));
        else if (message.data) handlers.next(message.data as R);
      },
      error: (error) => {
        const first = Array.isArray(error) ? (error[0] as { message: string; extensions?: Record<string, unknown> } | undefined) : undefined;
        handlers.error?.(first ? new ApiError(String(first.extensions?.code ?? 'INTERNAL'), first.message, first.extensions ?? {}) : new ApiError('NETWORK', 'The live connection closed.'));
      },
      complete: () => handlers.complete?.(),
    },
  );
}
