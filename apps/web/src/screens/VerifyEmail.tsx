import { useEffect, useState } from 'react';
import { describeFormError, request } from '../api';
import { VerifyEmailDocument } from '../gql/graphql';
import { href } from '../router';
import { useSession } from '../session';
import { ErrorText } from '../ui';

// One request per link: the token works once, and a screen mounted twice must not spend it twice.
const verifying = new Map<string, ReturnType<typeof verify>>();
function verify(token: string) {
  return request(VerifyEmailDocument, { token }, null).then((r) => r.verifyEmail);
}

/** The link of a verification mail (`/verify-email?token=…`): verified as the page opens. */
export function VerifyEmailScreen({ token }: { token: string }) {
  const { token: signedIn } = useSession();
  const [email, setEmail] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(token ? null : 'This link has no token: open the link from the mail as it is.');

  useEffect(() => {
    if (!token) return;
    let live = true;
    if (!verifying.has(token)) verifying.set(token, verify(token));
    verifying.get(token)!.then(
      (account) => live && setEmail(account.email ?? ''),
      (e: unknown) => live && setError(describeFormError(e)),
    );
    return () => {
      live = false;
    };
  }, [token]);

  return (
    <div className="narrow">
      <h1>Verify your email</h1>
      <ErrorText error={error} />
      {email !== null ? <p role="status">{email ? `${email} is verified.` : 'Your address is verified.'} You can sign in with it, and reset a forgotten password through it.</p> : null}
      {email === null && !error ? <p role="status">Verifying…</p> : null}
      <p>
        <a href={signedIn ? href.account() : href.signIn()}>{signedIn ? 'To your account' : 'Sign in'}</a>
      </p>
    </div>
  );
}
