import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, describeError, request } from '../../api';
import { MeDocument, MyApiTokensDocument, RevokeApiTokenDocument } from '../../gql/graphql';
import { useLoad } from '../../hooks';
import { useSession, useToken } from '../../session';
import { ErrorText, LoadState, formatDate } from '../../ui';

/** Signed in with a personal token: the token this browser keeps (to sign in elsewhere with it). */
export function BrowserTokenSection() {
  const { t } = useTranslation('account');
  const token = useToken();
  const [shown, setShown] = useState(false);
  return (
    <section className="panel" aria-labelledby="token-title">
      <h2 id="token-title">{t('browserToken.title')}</h2>
      <p className="hint">{t('browserToken.hint')}</p>
      {shown ? <code className="token">{token}</code> : null}
      <div className="actions">
        <button type="button" className="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? t('browserToken.hide') : t('browserToken.show')}
        </button>
      </div>
    </section>
  );
}

/** The player's personal API tokens (a bot's, a script's), revocable. */
export function PersonalTokensSection() {
  const { t } = useTranslation('account');
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
      <h2 id="tokens-title">{t('tokens.title')}</h2>
      <ErrorText error={error} />
      <LoadState error={tokens.error} loading={!tokens.data} what={t('tokens.loading')}>
        {tokens.data?.length === 0 ? (
          <p className="muted">{t('tokens.none')}</p>
        ) : (
          <table className="list">
            <thead>
              <tr>
                <th scope="col">{t('tokens.name')}</th>
                <th scope="col">{t('tokens.created')}</th>
                <th scope="col">{t('lastUsed')}</th>
                <th scope="col">{t('tokens.scopes')}</th>
                <th scope="col">{t('tokens.state')}</th>
              </tr>
            </thead>
            <tbody>
              {(tokens.data ?? []).map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>{formatDate(k.createdAt)}</td>
                  <td>{formatDate(k.lastUsedAt)}</td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>
                    {k.revokedAt ? (
                      t('tokens.revoked', { date: formatDate(k.revokedAt) })
                    ) : (
                      <button type="button" className="danger" onClick={() => void revoke(k.id)} aria-label={t('tokens.revokeLabel', { name: k.name, date: formatDate(k.createdAt) })}>
                        {t('revoke')}
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
