import { SetMetadata } from '@nestjs/common';
import { forbidden } from '../common/errors.js';

/**
 * What a token may do:
 * - `read`: see games and lobbies, the caller's own seat included, and follow games live;
 * - `webhooks`: read, and manage the player's webhook endpoints (and nothing of play);
 * - `play`: also move, resign, create, join and leave lobbies, play again, add bots, import
 *   records, and manage webhooks (as `play` always could);
 * - `admin`: the account (API tokens, sessions, OAuth apps and grants, email, password): everything.
 * Tokens made before scopes existed and the token `register` returns have `admin`. An OAuth app is
 * never granted `admin` (APP_SCOPES).
 */
export const TOKEN_SCOPES = ['read', 'play', 'admin', 'webhooks'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The scopes each scope grants: `read`, `play` and `admin` mean what they meant before `webhooks` existed. */
const GRANTS: Record<TokenScope, readonly TokenScope[]> = {
  read: ['read'],
  webhooks: ['read', 'webhooks'],
  play: ['read', 'webhooks', 'play'],
  admin: ['read', 'webhooks', 'play', 'admin'],
};

/** The scopes a third-party app may ask for and be granted (never `admin`: an app never manages the account). */
export const APP_SCOPES = ['read', 'play', 'webhooks'] as const satisfies readonly TokenScope[];

/** Each scope in words, for the consent page. */
export const SCOPE_WORDS: Record<TokenScope, string> = {
  read: 'See your games, lobbies and history, and follow games live',
  webhooks: 'Manage your webhook endpoints (where game events are sent)',
  play: 'Play for you: move, resign, create, join and leave lobbies, add bots, import records',
  admin: 'Manage your account: API tokens, sessions, apps, email and password',
};

export const REQUIRED_SCOPE = 'mizerka:scope';

/**
 * The scope an operation needs (a route, a resolver field or a whole class). Every operation that
 * needs a token names one (scopes.test.ts checks); unmarked ones would need `read`.
 */
export const RequireScope = (scope: TokenScope) => SetMetadata(REQUIRED_SCOPE, scope);

export function grants(scopes: readonly TokenScope[], needed: TokenScope): boolean {
  return scopes.some((scope) => GRANTS[scope]?.includes(needed));
}

/** FORBIDDEN naming the scope needed, unless `scopes` grant it. */
export function checkScope(scopes: readonly TokenScope[], needed: TokenScope): void {
  if (!grants(scopes, needed)) {
    throw forbidden(`This API token lacks the "${needed}" scope needed here (it has: ${scopes.join(', ') || 'none'})`);
  }
}
