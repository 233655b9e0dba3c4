// Small pieces every screen uses.
import type { ReactNode } from 'react';

export function ErrorText({ error }: { error: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A loaded screen: its error (kept while the data retries) or a loading line until data comes. */
export function LoadState({ error, loading, what, children }: { error: string | null; loading: boolean; what: string; children: ReactNode }) {
  return (
    <>
      <ErrorText error={error} />
      {loading ? <Loading what={what} /> : children}
    </>
  );
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function tempo(timeControl: { moveSeconds: number; bankSeconds: number } | null | undefined): string {
  if (!timeControl) return 'untimed';
  const s = timeControl.moveSeconds;
  const per = s >= 86400 && s % 86400 === 0 ? `${s / 86400} d` : s >= 3600 && s % 3600 === 0 ? `${s / 3600} h` : s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
  return `${per} per move${timeControl.bankSeconds ? ` + ${Math.round(timeControl.bankSeconds / 60)} min bank` : ''}`;
}

/** A new player's name, with the server's rules (3 to 32 letters, digits, "_" or "-"), for every way of signing up. */
export function PlayerNameInput({ id, value, onChange, describedBy, autoComplete = 'username' }: { id: string; value: string; onChange: (name: string) => void; describedBy: string; autoComplete?: string }) {
  return (
    <input
      id={id}
      name="username"
      autoComplete={autoComplete}
      required
      minLength={3}
      maxLength={32}
      pattern="[A-Za-z0-9][A-Za-z0-9_\-]{2,31}"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-describedby={describedBy}
    />
  );
}
