// GraphQL over the graphql-ws WebSocket: one socket per player token (the socket a client holds
// for its subscriptions), every operation a single-result subscribe on it. Requests without a
// token (register) go over HTTP.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { GqlResult, GraphQLTransport, HttpTransport } from './graphql.js';

export interface WsTransport extends GraphQLTransport {
  /** Sockets open now. */
  sockets(): number;
  close(): Promise<void>;
}

export function wsTransport(baseUrl: string, http: HttpTransport): WsTransport {
  const url = `${baseUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/graphql`;
  const clients = new Map<string, Client>();
  const socketFor = (token: string): Client => {
    let client = clients.get(token);
    if (!client) {
      client = createClient({
        url,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
        lazy: false,
        // A socket that fails (the server killed) fails its operations; graphql-ws would also print it.
        onNonLazyError: () => undefined,
      });
      clients.set(token, client);
    }
    return client;
  };
  return {
    gql<T>(query: string, variables: Record<string, unknown> = {}, token?: string | null): Promise<GqlResult<T>> {
      if (!token) return http.gql<T>(query, variables, token);
      return new Promise((done, fail) => {
        let result: GqlResult<T> | undefined;
        socketFor(token).subscribe<T>(
          { query, variables },
          {
            next: (message) => (result = message as GqlResult<T>),
            // A refused operation arrives as an error message: GraphQL errors, as over HTTP.
            error: (error) => (Array.isArray(error) ? done({ errors: error }) : fail(error instanceof Error ? error : new Error(`socket closed: ${JSON.stringify(error)}`))),
            complete: () => done(result ?? { errors: [{ message: 'no result', extensions: { code: 'NO_RESULT' } }] }),
          },
        );
      });
    },
    sockets: () => clients.size,
    async close() {
      await Promise.all([...clients.values()].map((c) => c.dispose()));
      clients.clear();
    },
  };
}
