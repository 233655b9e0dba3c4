import { useState, type FormEvent } from 'react';
import { describeFormError, request } from '../api';
import { ResetPasswordDocument } from '../gql/graphql';
import { href, navigate } from '../router';
import { useSession } from '../session';
import { ErrorText } from '../ui';

/** The link of a reset mail (`/reset-password?token=…`): a new password, then signed in with it. */
export function ResetPasswordScreen({ token }: { token: string }) {
  const { signInWithSession } = useSession();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(token ? null : 'This link has no token: open the link from the mail as it is.');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== again) {
      setError('The two passwords differ.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { resetPassword } = await request(ResetPasswordDocument, { token, newPassword: password }, null);
      signInWithSession(resetPassword);
      navigate(href.lobbies());
    } catch (e) {
      setError(describeFormError(e));
      setBusy(false);
    }
  };

  return (
    <div className="narrow">
      <h1>Choose a new password</h1>
      <p>Your other sessions are signed out when it is set.</p>
      <form className="panel" onSubmit={submit} aria-label="Choose a new password">
        <ErrorText error={error} />
        <label htmlFor="reset-password">New password</label>
        <input id="reset-password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <label htmlFor="reset-again">The same again</label>
        <input id="reset-again" type="password" autoComplete="new-password" required value={again} onChange={(e) => setAgain(e.target.value)} />
        <button type="submit" disabled={busy || !token}>
          Set the password and sign in
        </button>
      </form>
      <p>
        <a href={href.forgotPassword()}>Ask for another link</a>
      </p>
    </div>
  );
}
