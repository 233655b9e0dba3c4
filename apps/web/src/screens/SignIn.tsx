import { useState, type FormEvent } from 'react';
import { describeError, request } from '../api';
import { MeDocument, RegisterDocument } from '../gql/graphql';
import { useSession } from '../session';
import { ErrorText } from '../ui';

export function SignInScreen() {
  const { signIn, notice } = useSession();
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const register = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { register } = await request(RegisterDocument, { name: name.trim() }, null);
      signIn(register.token, register.player.name);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const useToken = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { me } = await request(MeDocument, {}, token.trim());
      signIn(token.trim(), me.name);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="signin">
      <h1>Play Mizerka</h1>
      <p>The Polish trick-taking card game, live or by correspondence. Choose a name to play, or sign in with a token you already have.</p>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorText error={error} />
      <div className="columns">
        <form className="panel" onSubmit={register} aria-labelledby="signup-title">
          <h2 id="signup-title">Sign up</h2>
          <label htmlFor="signup-name">Player name</label>
          <input
            id="signup-name"
            name="name"
            autoComplete="username"
            required
            minLength={3}
            maxLength={32}
            pattern="[A-Za-z0-9][A-Za-z0-9_\-]{2,31}"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-describedby="signup-hint"
          />
          <p id="signup-hint" className="hint">
            3 to 32 letters, digits, _ or -. Your token is kept in this browser; the Account page shows it so you can sign in elsewhere.
          </p>
          <button type="submit" disabled={busy}>
            Sign up
          </button>
        </form>
        <form className="panel" onSubmit={useToken} aria-labelledby="signin-title">
          <h2 id="signin-title">Sign in with a token</h2>
          <label htmlFor="signin-token">API token</label>
          <input id="signin-token" name="token" autoComplete="off" required value={token} onChange={(e) => setToken(e.target.value)} />
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}
