import { SetMetadata } from '@nestjs/common';
import { forbidden } from '../common/errors.js';

/**
 * What a token may do. Each scope grants the ones before it:
 * - `read`: see games and lobbies, the caller's own seat included, and follow games live;
 * - `play`: also move, resign, create, join and leave lobbies, play again;
 * - `admin`: also create, list and revoke the player's API tokens (full access).
 * Tokens made before scopes existed and the token `register` returns have `admin`.
 */
export const TOKEN_SCOPES = ['read', 'play', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const REQUIRED_SCOPE = 'mizerka:scope';

/**
 * The scope an operation needs (a route, a resolver field or a whole class). Operations that need
 * a token and carry no mark need `read`.
 */
export const RequireScope = (scope: TokenScope) => SetMetadata(REQUIRED_SCOPE, scope);

export function grants(scopes: readonly TokenScope[], needed: TokenScope): boolean {
  const rank = TOKEN_SCOPES.indexOf(needed);
  return scopes.some((scope) => TOKEN_SCOPES.indexOf(scope) >= rank);
}

/** FORBIDDEN naming the scope needed, unless `scopes` grant it. */
export function checkScope(scopes: readonly TokenScope[], needed: TokenScope): void {
  if (!grants(scopes, needed)) {
    throw forbidden(`This API token lacks the "${needed}" scope needed here (it has: ${scopes.join(', ') || 'none'})`);
  }
}
