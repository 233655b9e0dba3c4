import { useState } from 'react';
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

  if (!requestId) return <ErrorText error="This link names no authorization request; ask the app to start again." />;
  const app = asked.data;
  return (
    <>
      <h1>{app ? `${app.app.name} asks for access` : 'An app asks for access'}</h1>
      <LoadState error={asked.error} loading={!app} what="the app's request">
        {app && (
          <section className="panel" aria-labelledby="consent-title">
            <h2 id="consent-title">
              {app.app.name} would like to act for you, {name}:
            </h2>
            <ul>
              {app.scopes.map((s) => (
                <li key={s.scope}>
                  {s.description} <span className="hint">({s.scope})</span>
                </li>
              ))}
            </ul>
            <p className="hint">
              App id <code>{app.app.clientId}</code>. Your answer goes to <code>{app.redirectUri}</code>. You can take this access away at any
              time on your Account page.
            </p>
            <ErrorText error={error} />
            <div className="actions">
              <button type="button" disabled={busy} onClick={() => void answer(true)}>
                Approve
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => void answer(false)}>
                Refuse
              </button>
            </div>
          </section>
        )}
      </LoadState>
    </>
  );
}
