import type { TokenScope } from './scopes.js';

/** Who is calling: the player behind the bearer token (an API token or a trusted issuer's JWT), and which token it was. */
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
  /**
   * Set when the token is a JWT of this trusted issuer (IDENTITY_ISSUERS): `tokenId` then names no
   * api_tokens row, and the token cannot be revoked here (it ends at `expiresAt`).
   */
  issuer?: string;
}
