import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api';
import { SetPasswordDocument, type AccountFieldsFragment } from '../../gql/graphql';
import { useToken } from '../../session';
import { useAction } from '../../hooks';
import { ErrorText } from '../../ui';

/** Set a password (an account made with a token or a passkey has none) or change it. */
export function PasswordSection({ account, onChange }: { account: AccountFieldsFragment; onChange: () => void }) {
  const { t } = useTranslation('account');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const token = useToken();
  const { busy, error, run: submit } = useAction(async () => {
    setDone(null);
    await request(SetPasswordDocument, { newPassword: next, currentPassword: account.hasPassword ? current : null }, token);
    setDone(account.hasPassword ? t('password.changed') : t('password.set'));
    setCurrent('');
    setNext('');
    onChange();
  });

  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">{t('password.title')}</h2>
      {!account.hasPassword && <p className="hint">{t('password.none')}</p>}
      <form onSubmit={submit} aria-labelledby="password-title">
        <ErrorText error={error} />
        {done && <p role="status">{done}</p>}
        {/* Password managers file the password under the account's name. */}
        <input type="text" name="username" autoComplete="username" value={account.player.name} readOnly hidden />
        {account.hasPassword && (
          <>
            <label htmlFor="password-current">{t('password.current')}</label>
            <input id="password-current" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
          </>
        )}
        <label htmlFor="password-new">{t('password.new')}</label>
        <input id="password-new" minLength={8} maxLength={256} type="password" autoComplete="new-password" required value={next} onChange={(e) => setNext(e.target.value)} />
        <div className="actions">
          <button type="submit" disabled={busy}>
            {account.hasPassword ? t('password.change') : t('password.setButton')}
          </button>
        </div>
      </form>
    </section>
  );
}
