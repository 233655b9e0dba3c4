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

let tokenRefused: (() => void) | null = null;

/** Called when the API refuses the token (revoked or expired): the session forgets it. */
export function onTokenRefused(listener: () => void) {
  tokenRefused = listener;
}

/** One GraphQL operation over HTTP; resolves to its data or throws an ApiError. */
export async function request<R, V>(document: TypedDocumentString<R, V>, variables: V, token: string | null): Promise<R> {
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
    if (token && extensions.code === 'UNAUTHENTICATED') tokenRefused?.();
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
let socket: { token: string; client: Client } | null = null;
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

function socketFor(token: string): Client {
  if (socket?.token === token) return socket.client;
  void socket?.client.dispose();
  everConnected = false;
  dropped = false;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const client = createClient({
    url,
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: true,
    keepAlive: 20_000,
    // Correspondence games last days: keep trying, at most every 10 s.
    retryAttempts: Number.MAX_SAFE_INTEGER,
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** Math.min(retries, 5)) * (0.75 + Math.random() / 2))),
    shouldRetry: (event) => !(typeof event === 'object' && event !== null && 'code' in event && FINAL_CLOSES.has((event as CloseEvent).code)),
    on: {
      connected: () => {
        setLinkState('connected');
        if (dropped) for (const listener of reconnectListeners) listener();
        everConnected = true;
        dropped = false;
      },
      // 1000: the client closed its idle lazy socket (no subscription left); 4408: the server
      // closed an idle one. Anything else is a drop the client now retries.
      closed: (event) => {
        const code = typeof event === 'object' && event !== null && 'code' in event ? (event as CloseEvent).code : 0;
        const idle = code === 1000 || code === 4408 || FINAL_CLOSES.has(code);
        if (!idle && everConnected) dropped = true;
        setLinkState(idle ? 'idle' : everConnected ? 'reconnecting' : 'connecting');
      },
    },
  });
  socket = { token, client };
  return client;
}

export function closeSocket() {
  void socket?.client.dispose();
  socket = null;
}

/** A live subscription; returns its unsubscribe. */
export function subscribe<R, V>(
  document: TypedDocumentString<R, V>,
  variables: V,
  token: string,
  handlers: { next: (data: R) => void; error?: (error: ApiError) => void; complete?: () => void },
): () => void {
  return socketFor(token).subscribe<R>(
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
