// The signed-in player: a bearer token kept in localStorage (this browser only) and the player's name.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { closeSocket, onTokenRefused } from './api';

const TOKEN_KEY = 'mizerka.token';
const NAME_KEY = 'mizerka.name';

export interface Session {
  token: string | null;
  name: string | null;
  /** Why the player was signed out, when it was not their own doing. */
  notice: string | null;
  signIn(token: string, name: string): void;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState(() => stored(TOKEN_KEY));
  const [name, setName] = useState(() => stored(NAME_KEY));
  const [notice, setNotice] = useState<string | null>(null);
  const signIn = useCallback((newToken: string, newName: string) => {
    localStorage.setItem(TOKEN_KEY, newToken);
    localStorage.setItem(NAME_KEY, newName);
    closeSocket();
    setToken(newToken);
    setName(newName);
    setNotice(null);
  }, []);
  const signOut = useCallback(() => {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(NAME_KEY);
    closeSocket();
    setToken(null);
    setName(null);
  }, []);
  // A revoked or expired token is of no use: back to signing in.
  useEffect(
    () =>
      onTokenRefused(() => {
        if (!localStorage.getItem(TOKEN_KEY)) return;
        signOut();
        setNotice('This browser’s token is no longer accepted (revoked or expired): sign in again.');
      }),
    [signOut],
  );
  const session = useMemo(() => ({ token, name, notice, signIn, signOut }), [token, name, notice, signIn, signOut]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The token of a signed-in screen (App renders those only with a token). */
export function useToken(): string {
  const { token } = useSession();
  if (!token) throw new Error('no token');
  return token;
}
