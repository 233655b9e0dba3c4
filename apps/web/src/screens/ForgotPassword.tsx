import { useState } from 'react';
import { request } from '../api';
import { RequestPasswordResetDocument } from '../gql/graphql';
import { href } from '../router';
import { useAction } from '../hooks';
import { ErrorText } from '../ui';

/** Asks for a reset link by mail; the answer is the same whether the account exists or not. */
export function ForgotPasswordScreen() {
  const [login, setLogin] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run: submit } = useAction(async () => {
    await request(RequestPasswordResetDocument, { login: login.trim() }, null);
    setSent(true);
  });

  return (
    <div className="narrow">
      <h1>Forgot password?</h1>
      {sent ? (
        <p role="status">
          If an account has that name or that verified email address, a link to choose a new password is on its way to the address. It works
          once, for a short while. No mail? An account without a verified address cannot be reset this way.
        </p>
      ) : (
        <form className="panel" onSubmit={submit} aria-label="Send a reset link">
          <ErrorText error={error} />
          <label htmlFor="forgot-login">Name or email</label>
          <input id="forgot-login" name="username" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} />
          <button type="submit" disabled={busy}>
            Send me a link
          </button>
        </form>
      )}
      <p>
        <a href={href.signIn()}>Back to signing in</a>
      </p>
    </div>
  );
}
