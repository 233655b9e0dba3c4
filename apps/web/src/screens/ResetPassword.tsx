import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFormError, request } from '../api';
import { ResetPasswordDocument } from '../gql/graphql';
import { href, navigate } from '../router';
import { useSession } from '../session';
import { ErrorText } from '../ui';

/** The link of a reset mail (`/reset-password?token=…`): a new password, then signed in with it. */
export function ResetPasswordScreen({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const { signInWithSession } = useSession();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(token ? null : t('noToken'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== again) {
      setError(t('reset.differ'));
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
      <h1>{t('reset.title')}</h1>
      <p>{t('reset.intro')}</p>
      <form className="panel" onSubmit={submit} aria-label={t('reset.title')}>
        <ErrorText error={error} />
        <label htmlFor="reset-password">{t('reset.password')}</label>
        <input id="reset-password" minLength={8} maxLength={256} type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <label htmlFor="reset-again">{t('reset.again')}</label>
        <input id="reset-again" minLength={8} maxLength={256} type="password" autoComplete="new-password" required value={again} onChange={(e) => setAgain(e.target.value)} />
        <button type="submit" disabled={busy || !token}>
          {t('reset.submit')}
        </button>
      </form>
      <p>
        <a href={href.forgotPassword()}>{t('reset.another')}</a>
      </p>
    </div>
  );
}
