// The signed-in player, kept in localStorage (this browser only): a session's access and refresh
// tokens (signing in with a password or a passkey; refreshed as they expire, see token-keeper.ts),
// or a personal token (a bot's owner signing in with one).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, onTokenRefused, request, signInAs } from './api';
import { RefreshSessionDocument, SignOutDocument } from './gql/graphql';
import { KEYS, TokenKeeper, type KeptStorage, type SessionTokens, type Stored } from './token-keeper';

/** The notice after a personal token was refused; the sign-in screen shows it in the interface's language (auth:notice). */
export const TOKEN_REFUSED_NOTICE = 'This browser’s token is no longer accepted (revoked or expired): sign in again.';

export type { SessionTokens } from './token-keeper';

export interface Session {
  /**
   * What requests and subscriptions take for the signed-in player: a personal token, or a
   * session's credential (it stays the same while the session's tokens are refreshed).
   */
  token: string | null;
  name: string | null;
  /** How the player signed in: a session (password, passkey) or a personal token. */
  kind: 'session' | 'personal' | null;
  /** Why the player was signed out, when it was not their own doing. */
  notice: string | null;
  /** Signed in with a personal token (`mzk_…`). */
  signIn(token: string, name: string): void;
  /** Signed in with what signUp, signIn, resetPassword or a passkey answered. */
  signInWithSession(tokens: SessionTokens): void;
  /** Forget the tokens here; a session is ended on the server too. */
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

const memory = new Map<string, string>();
/** localStorage, or this page's memory when the browser refuses it. */
const storage: KeptStorage = (() => {
  try {
    localStorage.getItem('mizerka.token');
    return localStorage;
  } catch {
    return { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) };
  }
})();

const REFUSED = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'BAD_INPUT']);

const keeper = new TokenKeeper({
  storage,
  refresh: (refreshToken) => request(RefreshSessionDocument, { refreshToken }, null).then((r) => r.refreshSession),
  isRefusal: (error) => error instanceof ApiError && REFUSED.has(error.code),
  // navigator.locks exists in secure contexts only (not over plain http on the local network).
  lock: typeof navigator !== 'undefined' && navigator.locks ? (name, fn) => navigator.locks.request(name, fn) : undefined,
});

interface Signed {
  token: string | null;
  name: string | null;
  kind: Session['kind'];
}

let sessions = 0;
let signedNow: Signed = { token: null, name: null, kind: null };

/**
 * What screens hold for what is stored: a new credential only when who is signed in changes. Given
 * to the API's client at once (not in an effect): the screens' own effects run first and already ask.
 * A session's credentials are the keeper's: the token of the moment, the next one when refused, and
 * word of each refresh, on which the SDK opens the live socket again with the new token before the
 * server would close it at the old one's expiry.
 */
function track(stored: Stored | null): Signed {
  const before = signedNow;
  if (!stored) signedNow = { token: null, name: null, kind: null };
  else if (!stored.refreshToken) signedNow = { token: stored.token, name: stored.name, kind: 'personal' };
  else if (before.kind !== 'session' || before.name !== stored.name) signedNow = { token: `session:${++sessions}`, name: stored.name, kind: 'session' };
  if (signedNow !== before) {
    signInAs(
      signedNow.token,
      signedNow.kind === 'session'
        ? {
            token: () => keeper.accessToken(),
            refused: (token) => keeper.refused(token),
            onChange: (listener) => keeper.onChange(() => listener()),
          }
        : undefined,
    );
  }
  return signedNow;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [signed, setSigned] = useState<Signed>(() => track(keeper.stored()));
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    keeper.schedule();
    const stop = keeper.onChange(({ stored, notice: why }) => {
      setSigned(track(stored));
      if (why) setNotice(why);
    });
    // Another tab refreshed, signed in or out: take what it stored.
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || (event.key.startsWith('mizerka.') && !event.key.startsWith(KEYS.lease))) keeper.reread();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stop();
      keeper.stop();
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const signIn = useCallback((token: string, name: string) => {
    keeper.keep({ token, name, expiresAt: null, refreshToken: null });
    setNotice(null);
  }, []);
  const signInWithSession = useCallback((tokens: SessionTokens) => {
    keeper.keep({ token: tokens.accessToken, name: tokens.player.name, expiresAt: Date.parse(tokens.accessTokenExpiresAt), refreshToken: tokens.refreshToken });
    setNotice(null);
  }, []);
  const signOut = useCallback(() => {
    const stored = keeper.stored();
    // The session ends on the server too (best effort: the tokens are forgotten here either way).
    if (stored?.refreshToken) void request(SignOutDocument, {}, stored.token).catch(() => undefined);
    keeper.keep(null);
  }, []);
  // A revoked or expired personal token is of no use: back to signing in.
  useEffect(
    () =>
      onTokenRefused((token) => {
        // An answer to an older sign-in (a sign-out's own request, say) must not sign out a newer one.
        if (keeper.stored()?.token !== token) return;
        signOut();
        setNotice(TOKEN_REFUSED_NOTICE);
      }),
    [signOut],
  );
  const session = useMemo(
    () => ({ token: signed.token, name: signed.name, kind: signed.kind, notice, signIn, signInWithSession, signOut }),
    [signed, notice, signIn, signInWithSession, signOut],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in player's credential, for request and subscribe (App renders signed-in screens only with one). */
export function useToken(): string {
  const { token } = useSession();
  if (!token) throw new Error('no token');
  return token;
}
