import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { AppConfig } from '../config/app-config.js';

/** Headers a browser client may read from a cross-origin response. */
// Deprecation, Sunset and Link: a browser client learns that what it calls goes away (common/deprecated.ts).
const EXPOSED_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'x-request-id', 'Location', 'Deprecation', 'Sunset', 'Link'];

/** Whether `origin` is one of the configured ones (`scheme://host:*` allows every port, `*` any origin). */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  const candidate = origin.toLowerCase();
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === '*') return true;
    if (!p.endsWith(':*')) return candidate === p;
    const base = p.slice(0, -2);
    return candidate === base || (candidate.startsWith(`${base}:`) && /^\d{1,5}$/.test(candidate.slice(base.length + 1)));
  });
}

// GraphiQL's page (GET /graphql, outside production) runs an inline script and loads React and
// GraphiQL from unpkg.com; everything else, Swagger UI included, lives with helmet's defaults.
const graphiqlPolicy = helmet.contentSecurityPolicy({
  directives: {
    scriptSrc: ["'self'", "'unsafe-inline'", 'https://unpkg.com'],
    styleSrc: ["'self'", "'unsafe-inline'", 'https://unpkg.com'],
    fontSrc: ["'self'", 'data:', 'https://unpkg.com'],
    connectSrc: ["'self'", 'ws:', 'wss:'],
  },
});

/**
 * What faces the browser and the network in front of the server: `trust proxy` (X-Forwarded-For
 * believed only from the configured proxies), helmet's headers, and CORS for the configured origins.
 */
export function applyWebSafety(app: NestExpressApplication, config: AppConfig): void {
  app.set('trust proxy', config.trustProxy);
  const everywhere = helmet();
  const withoutPolicy = helmet({ contentSecurityPolicy: false });
  app.use((req: { method: string; path: string }, res: never, next: (error?: unknown) => void) => {
    if (config.graphiql && req.method === 'GET' && req.path === '/graphql') {
      withoutPolicy(req as never, res, (error?: unknown) => (error ? next(error) : graphiqlPolicy(req as never, res, next)));
    } else {
      everywhere(req as never, res, next);
    }
  });
  app.enableCors({
    origin: (origin, callback) => callback(null, origin !== undefined && originAllowed(origin, config.corsOrigins)),
    exposedHeaders: EXPOSED_HEADERS,
    // Bearer tokens, no cookies: nothing for a browser to send on its own.
    credentials: false,
    maxAge: 600,
  });
}
