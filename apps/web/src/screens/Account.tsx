import { useState } from 'react';
import { ApiError, describeError, request } from '../api';
import { MeDocument, MyApiTokensDocument, RevokeApiTokenDocument } from '../gql/graphql';
import { useLoad } from '../hooks';
import { useSession, useToken } from '../session';
import { ErrorText, LoadState, formatDate } from '../ui';

/** The token this browser keeps, signing out, and the player's tokens (revocable). */
export function AccountScreen() {
  const token = useToken();
  const { name, kind, signOut } = useSession();
  const [shown, setShown] = useState(false);
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
    <>
      <h1>Account</h1>
      <p>Signed in as {name}.</p>
      {kind === 'personal' && (
        <section className="panel" aria-labelledby="token-title">
          <h2 id="token-title">This browser's token</h2>
          <p className="hint">It is kept in this browser only. Copy it to sign in elsewhere; anyone holding it can play as you.</p>
          {shown ? <code className="token">{token}</code> : null}
          <div className="actions">
            <button type="button" className="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
              {shown ? 'Hide the token' : 'Show the token'}
            </button>
            <button type="button" className="secondary" onClick={signOut}>
              Sign out (forget the token here)
            </button>
          </div>
        </section>
      )}
      <section className="panel" aria-labelledby="tokens-title">
        <h2 id="tokens-title">Your tokens</h2>
        <ErrorText error={error} />
        <LoadState error={tokens.error} loading={!tokens.data} what="your tokens">
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
        </LoadState>
      </section>
    </>
  );
}
