// Who the client is: a personal token, or a session whose access token is refreshed before it
// expires (password sign-in, or an OAuth grant), the refresh token traded once each time.

/** What the client asks before each request and when the server refuses a token. */
export interface Credentials {
  /** The bearer token to send now (refreshed first when about to expire); null: anonymous. */
  token(): Promise<string | null>;
  /** The server refused `token` (UNAUTHENTICATED): the token to try instead, or null when there is none. */
  refused(token: string): Promise<string | null>;
  /**
   * Optional, for tokens that change (a session): calls `listener` after each new token, so an open
   * socket renews itself with it before the server closes it. Returns the listener's removal.
   */
  onChange?(listener: () => void): () => void;
  /**
   * Optional: when `token()` will give the next token (epoch ms; null: never): an open socket asks
   * for it then, and renews itself with it before the server closes it at the old one's expiry.
   */
  renewAt?(): number | null;
}

/** A personal API token (`register`, `createApiToken`): sent as it is, never refreshed. */
export function personalToken(token: string): Credentials {
  return { token: async () => token, refused: async () => null };
}

/** A session's tokens at one moment. `accessTokenExpiresAt` is epoch milliseconds. */
export interface SessionTokens {
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken: string;
}

export interface SessionOptions {
  /** Trades a refresh token for the next pair (the server's refreshSession, or OAuth's refresh grant). */
  refresh(refreshToken: string): Promise<SessionTokens>;
  /** Called with every new pair: keep the refresh token if the program is to sign in again later. */
  onTokens?(tokens: SessionTokens): void;
  /** Refresh this long before the access token expires (ms; default 60 s). */
  refreshBeforeMs?: number;
  now?(): number;
}

/**
 * A session's credentials. The access token is refreshed before it expires, once at a time: calls
 * made meanwhile wait for the same refresh, so the refresh token is never traded twice (which the
 * server would take for a stolen one and end the session).
 */
export class SessionCredentials implements Credentials {
  private refreshing: Promise<SessionTokens> | null = null;
  private ended = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private tokens: SessionTokens,
    private readonly options: SessionOptions,
  ) {}

  /** The tokens of the moment (to store them). */
  get current(): SessionTokens {
    return { ...this.tokens };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  renewAt(): number | null {
    return this.ended ? null : this.tokens.accessTokenExpiresAt - (this.options.refreshBeforeMs ?? 60_000);
  }

  async token(): Promise<string | null> {
    if (this.ended) return null;
    const now = this.options.now?.() ?? Date.now();
    if (this.tokens.accessTokenExpiresAt - (this.options.refreshBeforeMs ?? 60_000) > now) return this.tokens.accessToken;
    return (await this.refresh()).accessToken;
  }

  async refused(token: string): Promise<string | null> {
    if (this.ended) return null;
    // Another call refreshed meanwhile: its token is the one to try.
    if (token !== this.tokens.accessToken) return this.tokens.accessToken;
    try {
      return (await this.refresh()).accessToken;
    } catch {
      this.ended = true;
      return null;
    }
  }

  /** Trades the refresh token now (single flight). */
  refresh(): Promise<SessionTokens> {
    this.refreshing ??= this.options
      .refresh(this.tokens.refreshToken)
      .then((next) => {
        this.tokens = next;
        this.options.onTokens?.({ ...next });
        for (const listener of this.listeners) listener();
        return next;
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }
}
