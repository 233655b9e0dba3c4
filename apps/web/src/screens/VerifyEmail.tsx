import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('auth');
  const { token: signedIn } = useSession();
  const [email, setEmail] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(token ? null : t('noToken'));

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
      <h1>{t('verify.title')}</h1>
      <ErrorText error={error} />
      {email !== null ? <p role="status">{email ? t('verify.doneAddress', { email }) : t('verify.done')} {t('verify.uses')}</p> : null}
      {email === null && !error ? <p role="status">{t('verify.verifying')}</p> : null}
      <p>
        <a href={signedIn ? href.account() : href.signIn()}>{signedIn ? t('verify.toAccount') : t('signIn.heading')}</a>
      </p>
    </div>
  );
}
