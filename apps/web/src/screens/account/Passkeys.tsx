import { startRegistration } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import { useState, type FormEvent } from 'react';
import { describeError, request } from '../../api';
import { describePasskeyError } from '../../components/PasskeyButtons';
import { FinishPasskeyRegistrationDocument, MyPasskeysDocument, RemovePasskeyDocument, StartPasskeyRegistrationDocument } from '../../gql/graphql';
import { useLoad } from '../../hooks';
import { useToken } from '../../session';
import { ErrorText, LoadState, formatDate } from '../../ui';

/** The player's passkeys: add one (this device, a phone, a security key), name it, remove one. */
export function PasskeysSection({ onChange }: { onChange?: () => void }) {
  const { t } = useTranslation('account');
  const token = useToken();
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passkeys = useLoad(() => request(MyPasskeysDocument, {}, token).then((r) => r.myPasskeys), [token]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { startPasskeyRegistration } = await request(StartPasskeyRegistrationDocument, {}, token);
      const response = await startRegistration({ optionsJSON: startPasskeyRegistration.options as Parameters<typeof startRegistration>[0]['optionsJSON'] });
      await request(FinishPasskeyRegistrationDocument, { challengeId: startPasskeyRegistration.challengeId, response, label: label.trim() || null }, token);
      setLabel('');
      passkeys.reload();
      onChange?.();
    } catch (e) {
      setError(describePasskeyError(e));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (id: string) => {
    setError(null);
    try {
      await request(RemovePasskeyDocument, { id }, token);
    } catch (e) {
      setError(describeError(e));
    }
    passkeys.reload();
    onChange?.();
  };

  return (
    <section className="panel" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t('passkeys.title')}</h2>
      <ErrorText error={error} />
      <LoadState error={passkeys.error} loading={!passkeys.data} what={t('passkeys.loading')}>
        {passkeys.data?.length === 0 ? (
          <p className="muted">{t('passkeys.none')}</p>
        ) : (
          <ul className="sessions" aria-label={t('passkeys.list')}>
            {(passkeys.data ?? []).map((p) => (
              <li key={p.id}>
                <div>
                  <strong>{p.label}</strong>
                  <div className="hint">
                    {t('passkeys.added', { date: formatDate(p.createdAt) })}; {p.lastUsedAt ? t('passkeys.lastUsed', { date: formatDate(p.lastUsedAt) }) : t('passkeys.notUsed')}
                  </div>
                </div>
                <button type="button" className="danger" onClick={() => void remove(p.id)} aria-label={t('passkeys.removeLabel', { label: p.label })}>
                  {t('common:remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </LoadState>
      <form onSubmit={add} aria-label={t('passkeys.add')}>
        <label htmlFor="passkey-label">{t('passkeys.name')}</label>
        <input id="passkey-label" name="passkey-label" maxLength={64} value={label} onChange={(e) => setLabel(e.target.value)} placeholder={t('passkeys.placeholder')} />
        <button type="submit" disabled={busy}>
          {t('passkeys.add')}
        </button>
      </form>
    </section>
  );
}
