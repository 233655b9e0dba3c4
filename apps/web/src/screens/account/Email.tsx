import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api';
import { SetEmailDocument, type AccountFieldsFragment } from '../../gql/graphql';
import { useToken } from '../../session';
import { useAction } from '../../hooks';
import { ErrorText } from '../../ui';

/** The account's email address: verified (a sign-in name, a way to reset the password) or waiting for its link. */
export function EmailSection({ account, onChange }: { account: AccountFieldsFragment; onChange: () => void }) {
  const { t } = useTranslation('account');
  const token = useToken();
  const [email, setEmail] = useState('');
  const [editing, setEditing] = useState(!account.email);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, run: submit } = useAction(async () => {
    setDone(null);
    const { setEmail: saved } = await request(SetEmailDocument, { email: email.trim() }, token);
    setDone(saved.mailEnabled ? t('email.linkSent', { email: saved.email ?? '' }) : t('common:saved'));
    setEmail('');
    setEditing(false);
    onChange();
  });

  return (
    <section className="panel" aria-labelledby="email-title">
      <h2 id="email-title">{t('email.title')}</h2>
      {!account.mailEnabled && (
        <p className="notice">{t('email.noMail')}</p>
      )}
      {account.email ? (
        <p>
          {account.email}{' '}
          {account.emailVerified ? <span className="badge">{t('email.verified')}</span> : <span className="badge warn">{t('email.notVerified')}</span>}
        </p>
      ) : (
        <p className="muted">{t('email.none')}</p>
      )}
      {done && <p role="status">{done}</p>}
      <ErrorText error={error} />
      {editing ? (
        <form onSubmit={submit} aria-labelledby="email-title">
          <label htmlFor="email-new">{account.email ? t('email.newAddress') : t('email.address')}</label>
          <input id="email-new" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <div className="actions">
            <button type="submit" disabled={busy}>
              {account.mailEnabled ? t('email.saveAndSend') : t('common:save')}
            </button>
            {account.email && (
              <button type="button" className="secondary" onClick={() => setEditing(false)}>
                {t('common:cancel')}
              </button>
            )}
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            {account.emailVerified || !account.mailEnabled ? t('email.change') : t('email.changeOrResend')}
          </button>
        </div>
      )}
    </section>
  );
}
