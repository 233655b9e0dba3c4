import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '../common/errors.js';
import { sendProblem } from '../common/problem.filter.js';
import { graphqlCost } from './graphql-cost.js';
import type { RateLimitFigures, RateLimiter } from './rate-limiter.js';
import { errorsTotal } from '../metrics/metrics.js';

/** Where the figures wait for the GraphQL response (rate-limit.plugin.ts). */
export const RATE_LIMIT_FIGURES = Symbol('rateLimit');
export type WithRateLimit = { [RATE_LIMIT_FIGURES]?: RateLimitFigures };

const EXEMPT = /^\/health(\/|$)/;

/**
 * Every HTTP request but the health checks pays into its client's budget and its address's
 * (RateLimiter) before anything else runs: a REST call 1, a GraphQL request one per root field of each operation. The figures go out
 * as RateLimit-* headers on both surfaces; past the limit the answer is 429 RATE_LIMITED with
 * Retry-After, as a problem document on REST and a GraphQL error on /graphql.
 *
 * Express middleware, mounted after the body parsers (createApp): Nest's own middleware would get
 * the REST prefix and miss /graphql.
 */
export function rateLimitMiddleware(limiter: RateLimiter): RequestHandler {
  return (req, res, next) => void limit(limiter, req, res).then((allowed) => allowed && next(), next);
}

async function limit(limiter: RateLimiter, req: Request & WithRateLimit, res: Response): Promise<boolean> {
  if (EXEMPT.test(req.path)) return true;
  const graphql = req.path === '/graphql';
  const cost = graphql ? graphqlCost(req.method === 'GET' ? req.query : req.body) : 1;
  const { allowed, budget, ...figures } = await limiter.take(req, cost);
  res.setHeader('RateLimit-Limit', String(figures.limit));
  res.setHeader('RateLimit-Remaining', String(figures.remaining));
  res.setHeader('RateLimit-Reset', String(figures.reset));
  req[RATE_LIMIT_FIGURES] = figures;
  if (allowed) return true;

  res.setHeader('Retry-After', String(figures.reset));
  const error = new DomainError(
    'RATE_LIMITED',
    `Too many requests${budget === 'address' ? ' from this address (RATE_LIMIT_PER_IP_PER_MINUTE)' : ''}: ${figures.limit} a minute${graphql ? ' (a GraphQL request counts one per root field)' : ''}; try again in ${figures.reset} s`,
    { retryAfter: figures.reset },
  );
  if (graphql) {
    errorsTotal.inc({ code: error.code, surface: 'graphql' });
    res.status(error.status).json({
      errors: [{ message: error.message, extensions: { code: error.code, status: error.status, ...error.details } }],
      extensions: { rateLimit: figures },
    });
  } else {
    sendProblem(res, error);
  }
  return false;
}
