import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, request } from '../../api';
import { MySessionsDocument, RevokeSessionDocument } from '../../gql/graphql';
import { useLoad } from '../../hooks';
import { useToken } from '../../session';
import { ErrorText, LoadState, formatDate } from '../../ui';
import { describeAgent } from './agent';


/** Where the player is signed in (this browser marked); any other can be signed out from here. */
export function SessionsSection() {
  const { t } = useTranslation('account');
  const token = useToken();
  const [error, setError] = useState<string | null>(null);
  const sessions = useLoad(() => request(MySessionsDocument, { after: null }, token).then((r) => r.mySessions), [token]);

  const revoke = async (id: string) => {
    setError(null);
    try {
      await request(RevokeSessionDocument, { id }, token);
    } catch (e) {
      setError(describeError(e));
    }
    sessions.reload();
  };

  return (
    <section className="panel" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('sessions.title')}</h2>
      <ErrorText error={error} />
      <LoadState error={sessions.error} loading={!sessions.data} what={t('sessions.loading')}>
        {sessions.data?.sessions.length === 0 ? (
          <p className="muted">{t('sessions.none')}</p>
        ) : (
          <ul className="sessions">
            {(sessions.data?.sessions ?? []).map((s) => (
              <li key={s.id} aria-current={s.current ? 'true' : undefined}>
                <div>
                  <strong>{describeAgent(s.userAgent)}</strong>
                  {s.current && <span className="badge">{t('sessions.thisBrowser')}</span>}
                  <div className="hint">
                    {t('sessions.signedInWith', { method: ['password', 'passkey', 'oauth'].includes(s.method) ? t(`sessions.method.${s.method}`) : s.method, date: formatDate(s.createdAt) })}; {t('sessions.lastActive', { date: formatDate(s.lastUsedAt) })}
                  </div>
                </div>
                {!s.current && (
                  <button type="button" className="danger" onClick={() => void revoke(s.id)} aria-label={t('sessions.signOutLabel', { agent: describeAgent(s.userAgent), date: formatDate(s.lastUsedAt) })}>
                    {t('signOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {sessions.data?.hasMore && <p className="hint">{t('sessions.more', { n: 50 })}</p>}
      </LoadState>
    </section>
  );
}
