import type { ApolloServerPlugin } from '@apollo/server';
import { RATE_LIMIT_FIGURES, type WithRateLimit } from './rate-limit.middleware.js';

/** Puts the figures of the RateLimit-* headers into every GraphQL HTTP response's `extensions.rateLimit`. */
export function rateLimitPlugin(): ApolloServerPlugin<{ req?: object }> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        willSendResponse: ({ contextValue, response }) => {
          const figures = (contextValue.req as WithRateLimit | undefined)?.[RATE_LIMIT_FIGURES];
          if (figures && response.body.kind === 'single') {
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, rateLimit: figures };
          }
          return Promise.resolve();
        },
      }),
  };
}
