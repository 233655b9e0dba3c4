// A signed-in session's tokens in this browser: the short-lived access token (with its expiry) and
// the refresh token traded for the next pair shortly before it expires, or once when the API
// refuses it. One refresh at a time, across tabs too: a refresh token used twice ends the session
// on the server (it looks stolen), so a tab that loses the race takes the pair the winner stored.

/** The tokens signing in (signUp, signIn, resetPassword, a passkey) or refreshSession answer with. */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: string;
  player: { name: string };
}

/** What this browser keeps: a personal token has no expiry and no refresh token. */
export interface Stored {
  token: string;
  name: string;
  /** When the access token stops working (ms since the epoch); null for a personal token. */
  expiresAt: number | null;
  refreshToken: string | null;
}

// The access token under the key personal tokens always used; the refresh token under its own.
export const KEYS = {
  token: 'mizerka.token',
  name: 'mizerka.name',
  expiresAt: 'mizerka.tokenExpiresAt',
  refreshToken: 'mizerka.refreshToken',
  lease: 'mizerka.refreshLease',
} as const;

export type KeptStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function readStored(storage: KeptStorage): Stored | null {
  try {
    const token = storage.getItem(KEYS.token);
    if (!token) return null;
    const expiresAt = Number(storage.getItem(KEYS.expiresAt));
    return {
      token,
      name: storage.getItem(KEYS.name) ?? '',
      expiresAt: Number.isFinite(expiresAt) && expiresAt > 0 ? expiresAt : null,
      refreshToken: storage.getItem(KEYS.refreshToken),
    };
  } catch {
    return null; // storage refused (a private window's policy)
  }
}

export function writeStored(storage: KeptStorage, stored: Stored | null) {
  if (!stored) {
    for (const key of [KEYS.token, KEYS.name, KEYS.expiresAt, KEYS.refreshToken]) storage.removeItem(key);
    return;
  }
  storage.setItem(KEYS.token, stored.token);
  storage.setItem(KEYS.name, stored.name);
  if (stored.expiresAt === null) storage.removeItem(KEYS.expiresAt);
  else storage.setItem(KEYS.expiresAt, String(stored.expiresAt));
  if (stored.refreshToken === null) storage.removeItem(KEYS.refreshToken);
  else storage.setItem(KEYS.refreshToken, stored.refreshToken);
}

export function fromSessionTokens(tokens: SessionTokens): Stored {
  return { token: tokens.accessToken, name: tokens.player.name, expiresAt: Date.parse(tokens.accessTokenExpiresAt), refreshToken: tokens.refreshToken };
}

/** Runs `fn` holding the named lock, whichever tab asks (navigator.locks.request's shape). */
export type Lock = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

export interface KeeperOptions {
  storage: KeptStorage;
  /** refreshSession: the next pair, or throws (`isRefusal` tells a refused token from a network failure). */
  refresh(refreshToken: string): Promise<SessionTokens>;
  isRefusal(error: unknown): boolean;
  /** navigator.locks where there is one (secure contexts only); otherwise a lease in storage. */
  lock?: Lock;
  now?: () => number;
}

export interface KeeperChange {
  stored: Stored | null;
  /** Why the session ended, when it was not the player's doing. */
  notice?: string;
}

/** Refresh this long before expiry, at most; a quarter of a shorter lifetime. */
export const REFRESH_LEAD_MS = 60_000;
/** A token this close to its expiry is refreshed before it is sent. */
export const USABLE_MARGIN_MS = 5_000;
export const ENDED_NOTICE = 'Your session has ended (signed out elsewhere, or it expired): sign in again.';

export class TokenKeeper {
  private flight: Promise<string | null> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<(change: KeeperChange) => void>();
  private readonly now: () => number;
  private readonly lock: Lock;

  constructor(private readonly options: KeeperOptions) {
    this.now = options.now ?? Date.now;
    this.lock = options.lock ?? storageLease(options.storage, this.now);
  }

  stored(): Stored | null {
    return readStored(this.options.storage);
  }

  onChange(listener: (change: KeeperChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keep a new session (or a personal token: no expiry, no refresh) and plan its refresh. */
  keep(stored: Stored | null, notice?: string) {
    writeStored(this.options.storage, stored);
    this.schedule();
    for (const listener of this.listeners) listener({ stored, notice });
  }

  /** Storage changed in another tab: take what it stored, and plan the refresh from there. */
  reread() {
    const stored = this.stored();
    this.schedule();
    for (const listener of this.listeners) listener({ stored });
  }

  /** A token to send: the stored one, or the next one when it is about to expire. */
  async accessToken(): Promise<string | null> {
    const stored = this.stored();
    if (!stored) return null;
    if (stored.expiresAt === null || !stored.refreshToken || stored.expiresAt - this.now() > USABLE_MARGIN_MS) return stored.token;
    return this.renew(stored.refreshToken);
  }

  /** The API refused `token`: the next one (refreshed here or by another tab), or null when the session is over. */
  async refused(token: string): Promise<string | null> {
    const stored = this.stored();
    if (!stored?.refreshToken) return null;
    if (stored.token !== token) return stored.token; // another tab refreshed meanwhile
    return this.renew(stored.refreshToken);
  }

  /** Plans the next refresh of the stored session (none for a personal token). */
  schedule() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const stored = this.stored();
    if (!stored?.refreshToken || stored.expiresAt === null) return;
    const left = stored.expiresAt - this.now();
    // A token already expired on arrival means this clock is off: refresh only when one is refused.
    if (left <= 0) return;
    const lead = Math.min(REFRESH_LEAD_MS, left / 4);
    const seen = stored.refreshToken;
    this.timer = setTimeout(() => {
      this.timer = null;
      // A failure here (no network) is retried when a request needs the token.
      this.renew(seen).catch(() => undefined);
    }, left - lead);
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Trades `seen` (the refresh token the caller knows) for the next pair: one flight per tab, under
   * a lock across tabs; when the stored refresh token is no longer `seen`, another tab has already
   * traded it and its pair is taken as it is.
   */
  private renew(seen: string): Promise<string | null> {
    if (this.flight) return this.flight;
    const flight = this.lock('mizerka.refresh', async () => {
      const stored = this.stored();
      if (!stored?.refreshToken) return null;
      if (stored.refreshToken !== seen) {
        this.reread();
        return stored.token;
      }
      let next: SessionTokens;
      try {
        next = await this.options.refresh(seen);
      } catch (error) {
        if (!this.options.isRefusal(error)) throw error;
        // Ended elsewhere, expired, or the token was used before: nothing more to try.
        if (this.stored()?.refreshToken === seen) this.keep(null, ENDED_NOTICE);
        return null;
      }
      this.keep(fromSessionTokens(next));
      return next.accessToken;
    }).finally(() => {
      if (this.flight === flight) this.flight = null;
    });
    this.flight = flight;
    return flight;
  }
}

/**
 * A lock across tabs without navigator.locks (a page over plain http on the local network): a
 * lease written to storage, read back after a pause to see no other tab wrote over it.
 */
export function storageLease(storage: KeptStorage, now: () => number = Date.now, holdMs = 10_000): Lock {
  const me = Math.random().toString(36).slice(2);
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return async (name, fn) => {
    const key = `${KEYS.lease}.${name}`;
    for (;;) {
      const [holder, until] = (storage.getItem(key) ?? '').split(' ');
      if (holder && holder !== me && Number(until) > now()) {
        await pause(100);
        continue;
      }
      storage.setItem(key, `${me} ${now() + holdMs}`);
      await pause(30);
      if (storage.getItem(key)?.startsWith(`${me} `)) break;
    }
    try {
      return await fn();
    } finally {
      if (storage.getItem(key)?.startsWith(`${me} `)) storage.removeItem(key);
    }
  };
}
