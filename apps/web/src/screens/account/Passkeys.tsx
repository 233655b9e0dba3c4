import { startRegistration } from '@simplewebauthn/browser';
import { useState, type FormEvent } from 'react';
import { describeError, request } from '../../api';
import { describePasskeyError } from '../../components/PasskeyButtons';
import { FinishPasskeyRegistrationDocument, MyPasskeysDocument, RemovePasskeyDocument, StartPasskeyRegistrationDocument } from '../../gql/graphql';
import { useLoad } from '../../hooks';
import { useToken } from '../../session';
import { ErrorText, LoadState, formatDate } from '../../ui';

/** The player's passkeys: add one (this device, a phone, a security key), name it, remove one. */
export function PasskeysSection({ onChange }: { onChange?: () => void }) {
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
      <h2 id="passkeys-title">Passkeys</h2>
      <ErrorText error={error} />
      <LoadState error={passkeys.error} loading={!passkeys.data} what="your passkeys">
        {passkeys.data?.length === 0 ? (
          <p className="muted">No passkeys yet. A passkey signs you in with this device’s lock (fingerprint, face, PIN): nothing to type.</p>
        ) : (
          <ul className="sessions" aria-label="Your passkeys">
            {(passkeys.data ?? []).map((p) => (
              <li key={p.id}>
                <div>
                  <strong>{p.label}</strong>
                  <div className="hint">
                    Added {formatDate(p.createdAt)}; {p.lastUsedAt ? `last used ${formatDate(p.lastUsedAt)}` : 'not used to sign in yet'}
                  </div>
                </div>
                <button type="button" className="danger" onClick={() => void remove(p.id)} aria-label={`Remove the passkey ${p.label}`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </LoadState>
      <form onSubmit={add} aria-label="Add a passkey">
        <label htmlFor="passkey-label">Name for a new passkey (optional)</label>
        <input id="passkey-label" name="passkey-label" maxLength={64} value={label} onChange={(e) => setLabel(e.target.value)} placeholder="e.g. Phone" />
        <button type="submit" disabled={busy}>
          Add a passkey
        </button>
      </form>
    </section>
  );
}
