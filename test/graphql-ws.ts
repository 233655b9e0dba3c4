// The tests' graphql-ws client: one way to open a socket to a test app, and to run one operation on it.
import { createClient, type Client, type ClientOptions } from 'graphql-ws';
import WebSocket from 'ws';
import type { GraphQLResult } from './app.js';

/** How a socket closed (a close code of the server's, and its reason). */
export interface Closed {
  code: number;
  reason: string;
}

export type WsClient = Client & { closes: Closed[] };

const opened = new Set<Client>();

/**
 * A graphql-ws client of the app at `baseUrl` as `token`'s player (none: anonymous). Lazy (the
 * socket opens with the first operation) and never reconnecting, unless `options` say otherwise;
 * `closes` lists how its socket closed. closeWsClients() disposes those not disposed yet.
 */
export function wsClient(baseUrl: string, token?: string, options: Partial<ClientOptions> = {}): WsClient {
  const closes: Closed[] = [];
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
    onNonLazyError: () => undefined, // how it closed is in `closes`
    ...options,
    on: {
      ...options.on,
      closed: (event) => {
        const { code, reason } = event as Closed;
        closes.push({ code, reason: String(reason) });
        options.on?.closed?.(event);
      },
    },
  });
  opened.add(client);
  return Object.assign(client, { closes });
}

/** Disposes every client wsClient made and not yet closed by this: call before closing the app. */
export async function closeWsClients(): Promise<void> {
  const clients = [...opened];
  opened.clear();
  await Promise.all(clients.map((client) => client.dispose()));
}

/**
 * One operation over the socket: its single result, or `{ errors }` when the server refused it;
 * rejects when the socket closed without an answer.
 */
export function operation<T = Record<string, any>>(client: Client, query: string, variables?: Record<string, unknown>): Promise<GraphQLResult<T>> {
  return new Promise((resolve, reject) => {
    let result: GraphQLResult<T> | undefined;
    client.subscribe<T>(
      { query, variables },
      {
        next: (message) => (result = message as GraphQLResult<T>),
        error: (error) =>
          Array.isArray(error) ? resolve({ errors: error } as GraphQLResult<T>) : reject(error instanceof Error ? error : new Error(closedWithout(error))),
        complete: () => resolve(result ?? {}),
      },
    );
  });
}

function closedWithout(event: unknown): string {
  const { code, reason } = event as Partial<Closed>;
  return code === undefined ? String(event) : `the socket closed without an answer: ${code} ${String(reason)}`;
}
