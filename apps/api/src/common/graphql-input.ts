import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';

/**
 * A subscription sent as an HTTP request (POST or GET /graphql) is refused before it runs, with
 * BAD_INPUT and status 400: subscriptions are served over graphql-ws only. Run over HTTP, the
 * subscription's resolver would hand graphql-js an async iterator as a field value (INTERNAL).
 */
export const subscriptionsOverHttpRefused: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, request }) {
        if (operation?.operation !== 'subscription' || request.http === undefined) return;
        throw new GraphQLError('Subscriptions are served over WebSocket (graphql-ws) at /graphql, not over HTTP', {
          extensions: { code: 'BAD_REQUEST', http: { status: 400, headers: new HeaderMap() } },
        });
      },
    };
  },
};
