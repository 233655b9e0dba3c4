import { useState } from 'react';
import { request } from '../../api';
import { SetEmailDocument, type AccountFieldsFragment } from '../../gql/graphql';
import { useToken } from '../../session';
import { useAction } from '../../hooks';
import { ErrorText } from '../../ui';

/** The account's email address: verified (a sign-in name, a way to reset the password) or waiting for its link. */
export function EmailSection({ account, onChange }: { account: AccountFieldsFragment; onChange: () => void }) {
  const token = useToken();
  const [email, setEmail] = useState('');
  const [editing, setEditing] = useState(!account.email);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, run: submit } = useAction(async () => {
    setDone(null);
    const { setEmail: saved } = await request(SetEmailDocument, { email: email.trim() }, token);
    setDone(saved.mailEnabled ? `A link to verify ${saved.email ?? 'it'} is on its way: open it to finish.` : 'Saved.');
    setEmail('');
    setEditing(false);
    onChange();
  });

  return (
    <section className="panel" aria-labelledby="email-title">
      <h2 id="email-title">Email</h2>
      {!account.mailEnabled && (
        <p className="notice">This server sends no mail: an address cannot be verified here, so it cannot be used to sign in or to reset a forgotten password.</p>
      )}
      {account.email ? (
        <p>
          {account.email}{' '}
          {account.emailVerified ? <span className="badge">verified</span> : <span className="badge warn">not verified: open the link mailed to it</span>}
        </p>
      ) : (
        <p className="muted">No address. With a verified one you can sign in with it and reset a forgotten password.</p>
      )}
      {done && <p role="status">{done}</p>}
      <ErrorText error={error} />
      {editing ? (
        <form onSubmit={submit} aria-labelledby="email-title">
          <label htmlFor="email-new">{account.email ? 'New address' : 'Address'}</label>
          <input id="email-new" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <div className="actions">
            <button type="submit" disabled={busy}>
              {account.mailEnabled ? 'Save and send a link' : 'Save'}
            </button>
            {account.email && (
              <button type="button" className="secondary" onClick={() => setEditing(false)}>
                Cancel
              </button>
            )}
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            {account.emailVerified || !account.mailEnabled ? 'Change the address' : 'Change it, or send the link again'}
          </button>
        </div>
      )}
    </section>
  );
}
