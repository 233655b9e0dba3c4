import { useState } from 'react';
import { describeError, request } from '../api';
import { MyAuthorizedAppsDocument, RevokeAppAuthorizationDocument } from '../gql/graphql';
import { useLoad } from '../hooks';
import { useToken } from '../session';
import { ErrorText, LoadState, formatDate } from '../ui';

/** The apps the player has given access to (OAuth), each revocable: its tokens stop at once. */
export function AuthorizedApps() {
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
      <h2 id="apps-title">Authorized apps</h2>
      <ErrorText error={error} />
      <LoadState error={apps.error} loading={!apps.data} what="your authorized apps">
        {apps.data?.length === 0 ? (
          <p className="hint">No app has access to your account.</p>
        ) : (
          <table className="list">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">May</th>
                <th scope="col">Authorized</th>
                <th scope="col">Last used</th>
                <th scope="col">Access</th>
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
                    <button type="button" className="danger" onClick={() => void revoke(a.app.clientId)} aria-label={`Revoke the access of ${a.app.name}`}>
                      Revoke
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
