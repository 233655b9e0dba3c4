import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../api';
import { RequestPasswordResetDocument } from '../gql/graphql';
import { href } from '../router';
import { useAction } from '../hooks';
import { ErrorText } from '../ui';

/** Asks for a reset link by mail; the answer is the same whether the account exists or not. */
export function ForgotPasswordScreen() {
  const { t } = useTranslation('auth');
  const [login, setLogin] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run: submit } = useAction(async () => {
    await request(RequestPasswordResetDocument, { login: login.trim() }, null);
    setSent(true);
  });

  return (
    <div className="narrow">
      <h1>{t('forgot.title')}</h1>
      {sent ? (
        <p role="status">{t('forgot.sent')}</p>
      ) : (
        <form className="panel" onSubmit={submit} aria-label={t('forgot.form')}>
          <ErrorText error={error} />
          <label htmlFor="forgot-login">{t('signIn.login')}</label>
          <input id="forgot-login" name="username" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} />
          <button type="submit" disabled={busy}>
            {t('forgot.submit')}
          </button>
        </form>
      )}
      <p>
        <a href={href.signIn()}>{t('forgot.back')}</a>
      </p>
    </div>
  );
}
