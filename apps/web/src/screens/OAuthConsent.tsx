import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, request } from '../api';
import { ApproveOAuthRequestDocument, DenyOAuthRequestDocument, OAuthAuthorizationRequestDocument } from '../gql/graphql';
import { useLoad } from '../hooks';
import { useSession, useToken } from '../session';
import { ErrorText, LoadState } from '../ui';

/**
 * An app asks for access (GET /oauth/authorize sent the browser here): who it is, what it may do,
 * where the answer goes; Approve or Refuse sends the browser back to the app. Reached signed out,
 * the sign-in screen comes first and this page after (the path stays).
 */
export function OAuthConsentScreen({ requestId }: { requestId: string }) {
  const { t } = useTranslation('auth');
  const token = useToken();
  const { name } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const asked = useLoad(() => request(OAuthAuthorizationRequestDocument, { id: requestId }, token).then((r) => r.oauthAuthorizationRequest), [requestId, token]);

  const answer = async (approve: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const to = approve
        ? (await request(ApproveOAuthRequestDocument, { id: requestId }, token)).approveOAuthRequest.redirectTo
        : (await request(DenyOAuthRequestDocument, { id: requestId }, token)).denyOAuthRequest.redirectTo;
      location.assign(to);
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };

  if (!requestId) return <ErrorText error={t('consent.noRequest')} />;
  const app = asked.data;
  return (
    <>
      <h1>{app ? t('consent.titleNamed', { app: app.app.name }) : t('consent.title')}</h1>
      <LoadState error={asked.error} loading={!app} what={t('consent.loading')}>
        {app && (
          <section className="panel" aria-labelledby="consent-title">
            <h2 id="consent-title">
              {t('consent.asks', { app: app.app.name, name })}
            </h2>
            <ul>
              {app.scopes.map((s) => (
                <li key={s.scope}>
                  {s.description} <span className="hint">({s.scope})</span>
                </li>
              ))}
            </ul>
            <p className="hint">
              {t('consent.appId')} <code>{app.app.clientId}</code>. {t('consent.answerGoesTo')} <code>{app.redirectUri}</code>. {t('consent.takeAway')}
            </p>
            <ErrorText error={error} />
            <div className="actions">
              <button type="button" disabled={busy} onClick={() => void answer(true)}>
                {t('consent.approve')}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => void answer(false)}>
                {t('consent.refuse')}
              </button>
            </div>
          </section>
        )}
      </LoadState>
    </>
  );
}
