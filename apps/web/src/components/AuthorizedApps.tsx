import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, request } from '../api';
import { MyAuthorizedAppsDocument, RevokeAppAuthorizationDocument } from '../gql/graphql';
import { useLoad } from '../hooks';
import { useToken } from '../session';
import { ErrorText, LoadState, formatDate } from '../ui';

/** The apps the player has given access to (OAuth), each revocable: its tokens stop at once. */
export function AuthorizedApps() {
  const { t } = useTranslation('account');
  const token = useToken();
  const [error, setError] = useState<string | null>(null);
  const apps = useLoad(() => request(MyAuthorizedAppsDocument, {}, token).then((r) => r.myAuthorizedApps), [token]);

  const revoke = async (clientId: string) => {
    setError(null);
    try {
      await request(RevokeAppAuthorizationDocument, { clientId }, token);
    } catch (e) {
      setError(describeError(e));
    }
    apps.reload();
  };

  return (
    <section className="panel" aria-labelledby="apps-title">
      <h2 id="apps-title">{t('apps.title')}</h2>
      <ErrorText error={error} />
      <LoadState error={apps.error} loading={!apps.data} what={t('apps.loading')}>
        {apps.data?.length === 0 ? (
          <p className="hint">{t('apps.none')}</p>
        ) : (
          <table className="list">
            <thead>
              <tr>
                <th scope="col">{t('apps.app')}</th>
                <th scope="col">{t('apps.may')}</th>
                <th scope="col">{t('apps.authorized')}</th>
                <th scope="col">{t('lastUsed')}</th>
                <th scope="col">{t('apps.access')}</th>
              </tr>
            </thead>
            <tbody>
              {(apps.data ?? []).map((a) => (
                <tr key={a.app.clientId}>
                  <td>{a.app.name}</td>
                  <td>{a.scopes.join(', ')}</td>
                  <td>{formatDate(a.authorizedAt)}</td>
                  <td>{formatDate(a.lastUsedAt)}</td>
                  <td>
                    <button type="button" className="danger" onClick={() => void revoke(a.app.clientId)} aria-label={t('apps.revokeLabel', { app: a.app.name })}>
                      {t('revoke')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadState>
    </section>
  );
}
