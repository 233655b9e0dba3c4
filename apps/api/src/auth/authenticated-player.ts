import type { TokenScope } from './scopes.js';

/** Who is calling: the player behind the bearer token, and which token it was. */
export interface AuthenticatedPlayer {
  id: string;
  name: string;
  tokenId: string;
  /** What the token may do (see scopes.ts). */
  scopes: readonly TokenScope[];
  /** The session the token belongs to (sessions/); null: a personal token. */
  sessionId: string | null;
  /** When the token stops working; null: never. */
  expiresAt: Date | null;
}
