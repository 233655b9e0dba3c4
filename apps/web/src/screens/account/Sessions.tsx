import { useState } from 'react';
import { describeError, request } from '../../api';
import { MySessionsDocument, RevokeSessionDocument } from '../../gql/graphql';
import { useLoad } from '../../hooks';
import { useToken } from '../../session';
import { ErrorText, LoadState, formatDate } from '../../ui';
import { describeAgent } from './agent';

const METHOD: Record<string, string> = { password: 'password', passkey: 'passkey', oauth: 'an app' };

/** Where the player is signed in (this browser marked); any other can be signed out from here. */
export function SessionsSection() {
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
      <h2 id="sessions-title">Where you are signed in</h2>
      <ErrorText error={error} />
      <LoadState error={sessions.error} loading={!sessions.data} what="your sessions">
        {sessions.data?.sessions.length === 0 ? (
          <p className="muted">No sessions: this browser uses an API token.</p>
        ) : (
          <ul className="sessions">
            {(sessions.data?.sessions ?? []).map((s) => (
              <li key={s.id} aria-current={s.current ? 'true' : undefined}>
                <div>
                  <strong>{describeAgent(s.userAgent)}</strong>
                  {s.current && <span className="badge">This browser</span>}
                  <div className="hint">
                    Signed in with {METHOD[s.method] ?? s.method} {formatDate(s.createdAt)}; last active {formatDate(s.lastUsedAt)}
                  </div>
                </div>
                {!s.current && (
                  <button type="button" className="danger" onClick={() => void revoke(s.id)} aria-label={`Sign out ${describeAgent(s.userAgent)}, last active ${formatDate(s.lastUsedAt)}`}>
                    Sign out
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {sessions.data?.hasMore && <p className="hint">Only the 50 most recently used are shown.</p>}
      </LoadState>
    </section>
  );
}
