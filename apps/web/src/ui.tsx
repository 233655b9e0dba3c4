// Small pieces every screen uses.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import i18n, { formatDateTime, formatNumber } from './i18n';

export function ErrorText({ error }: { error: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** "Loading your games…": `what` comes translated from the screen. */
export function Loading({ what }: { what: string }) {
  const { t } = useTranslation();
  return (
    <p className="muted" role="status">
      {t('loading', { what })}
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

/** A date and time in the interface's language (Intl). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return formatDateTime(iso);
}

/** A duration in whole days, hours, minutes or seconds, the units as the language writes them (Intl). */
export function formatDuration(seconds: number): string {
  const [value, unit] =
    seconds >= 86400 && seconds % 86400 === 0
      ? [seconds / 86400, 'day']
      : seconds >= 3600 && seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : seconds >= 60 && seconds % 60 === 0
          ? [seconds / 60, 'minute']
          : [seconds, 'second'];
  return formatNumber(value, { style: 'unit', unit, unitDisplay: 'short' });
}

export function tempo(timeControl: { moveSeconds: number; bankSeconds: number } | null | undefined): string {
  if (!timeControl) return i18n.t('common:tempo.untimed');
  const per = i18n.t('common:tempo.perMove', { time: formatDuration(timeControl.moveSeconds) });
  if (!timeControl.bankSeconds) return per;
  return i18n.t('common:tempo.withBank', { perMove: per, bank: formatNumber(Math.round(timeControl.bankSeconds / 60), { style: 'unit', unit: 'minute', unitDisplay: 'short' }) });
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
