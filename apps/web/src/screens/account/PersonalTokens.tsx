import { useState } from 'react';
import { ApiError, describeError, request } from '../../api';
import { MeDocument, MyApiTokensDocument, RevokeApiTokenDocument } from '../../gql/graphql';
import { useLoad } from '../../hooks';
import { useSession, useToken } from '../../session';
import { ErrorText, LoadState, formatDate } from '../../ui';

/** Signed in with a personal token: the token this browser keeps (to sign in elsewhere with it). */
export function BrowserTokenSection() {
  const token = useToken();
  const [shown, setShown] = useState(false);
  return (
    <section className="panel" aria-labelledby="token-title">
      <h2 id="token-title">This browser's token</h2>
      <p className="hint">It is kept in this browser only. Copy it to sign in elsewhere; anyone holding it can play as you.</p>
      {shown ? <code className="token">{token}</code> : null}
      <div className="actions">
        <button type="button" className="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? 'Hide the token' : 'Show the token'}
        </button>
      </div>
    </section>
  );
}

/** The player's personal API tokens (a bot's, a script's), revocable. */
export function PersonalTokensSection() {
  const token = useToken();
  const { signOut } = useSession();
  const [error, setError] = useState<string | null>(null);
  const tokens = useLoad(() => request(MyApiTokensDocument, {}, token).then((r) => r.myApiTokens.tokens), [token]);

  const revoke = async (id: string) => {
    setError(null);
    try {
      await request(RevokeApiTokenDocument, { id }, token);
    } catch (e) {
      setError(describeError(e));
    }
    // Was it this browser's token? Then it is no longer any use here.
    try {
      await request(MeDocument, {}, token);
      tokens.reload();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'UNAUTHENTICATED') signOut();
      else setError(describeError(e));
    }
  };

  return (
    <section className="panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Your API tokens</h2>
      <ErrorText error={error} />
      <LoadState error={tokens.error} loading={!tokens.data} what="your tokens">
        {tokens.data?.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Scopes</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {(tokens.data ?? []).map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>{formatDate(t.createdAt)}</td>
                  <td>{formatDate(t.lastUsedAt)}</td>
                  <td>{t.scopes.join(', ')}</td>
                  <td>
                    {t.revokedAt ? (
                      `revoked ${formatDate(t.revokedAt)}`
                    ) : (
                      <button type="button" className="danger" onClick={() => void revoke(t.id)} aria-label={`Revoke the token ${t.name} created ${formatDate(t.createdAt)}`}>
                        Revoke
                      </button>
                    )}
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
