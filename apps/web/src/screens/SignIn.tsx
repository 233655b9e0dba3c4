import { useState, type FormEvent } from 'react';
import { describeFormError, request } from '../api';
import { MeDocument, SignInDocument, SignUpDocument } from '../gql/graphql';
import { PasskeySignIn, PasskeySignUp } from '../components/PasskeyButtons';
import { href } from '../router';
import { useSession } from '../session';
import { useAction } from '../hooks';
import { ErrorText, PlayerNameInput } from '../ui';

/** Signing in (name or email, and password) and signing up; `/sign-up` puts signing up first. */
export function SignInScreen({ first = 'sign-in' }: { first?: 'sign-in' | 'sign-up' }) {
  const { notice } = useSession();
  return (
    <div className="signin">
      <h1>Play Mizerka</h1>
      <p>The Polish trick-taking card game, live or by correspondence. Sign in, or make an account with a name and a password.</p>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <div className="columns">
        {first === 'sign-up' ? (
          <>
            <SignUp />
            <PasswordSignIn />
          </>
        ) : (
          <>
            <PasswordSignIn />
            <SignUp />
          </>
        )}
      </div>
      <div className="columns">
        <PasskeySignUp />
        <section className="panel" aria-labelledby="passkey-signin-title">
          <h2 id="passkey-signin-title">Have a passkey?</h2>
          <PasskeySignIn />
        </section>
      </div>
      <TokenSignIn />
    </div>
  );
}

function PasswordSignIn() {
  const { signInWithSession } = useSession();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run: submit } = useAction(
    async () => {
      const { signIn } = await request(SignInDocument, { login: login.trim(), password }, null);
      signInWithSession(signIn);
    },
    { staysBusy: true },
  );

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in</h2>
      <ErrorText error={error} />
      <label htmlFor="signin-login">Name or email</label>
      <input id="signin-login" name="username" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} />
      <label htmlFor="signin-password">Password</label>
      <input id="signin-password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <a href={href.forgotPassword()}>Forgot password?</a>
      </div>
    </form>
  );
}

function SignUp() {
  const { signInWithSession } = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const { busy, error, run: submit } = useAction(
    async () => {
      const { signUp } = await request(SignUpDocument, { name: name.trim(), password, email: email.trim() || null }, null);
      signInWithSession(signUp);
    },
    { staysBusy: true },
  );

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="signup-title">
      <h2 id="signup-title">New here? Sign up</h2>
      <ErrorText error={error} />
      <label htmlFor="signup-name">Player name</label>
      <PlayerNameInput id="signup-name" value={name} onChange={setName} describedBy="signup-name-hint" />
      <p id="signup-name-hint" className="hint">
        3 to 32 letters, digits, _ or -.
      </p>
      <label htmlFor="signup-password">Choose a password</label>
      <input id="signup-password" minLength={8} maxLength={256} name="new-password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="signup-password-hint" />
      <p id="signup-password-hint" className="hint">
        8 characters or more; a few words make a good one.
      </p>
      <label htmlFor="signup-email">Email (optional)</label>
      <input id="signup-email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby="signup-email-hint" />
      <p id="signup-email-hint" className="hint">
        Only to reset a forgotten password, and to sign in with once verified.
      </p>
      <button type="submit" disabled={busy}>
        Sign up
      </button>
    </form>
  );
}

/** For a bot's owner: a personal API token (`mzk_…`), checked with `me` before it is kept. */
function TokenSignIn() {
  const { signIn } = useSession();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { me } = await request(MeDocument, {}, token.trim());
      signIn(token.trim(), me.name);
    } catch (e) {
      setError(describeFormError(e));
      setBusy(false);
    }
  };

  return (
    <details className="panel">
      <summary>Sign in with an API token (bots’ owners)</summary>
      <form onSubmit={submit} aria-label="Sign in with an API token">
        <ErrorText error={error} />
        <label htmlFor="signin-token">API token</label>
        <input id="signin-token" name="token" autoComplete="off" required value={token} onChange={(e) => setToken(e.target.value)} />
        <button type="submit" disabled={busy}>
          Sign in with the token
        </button>
      </form>
    </details>
  );
}
