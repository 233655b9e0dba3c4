import { useEffect, useState } from 'react';
import { request } from '../../api';
import {
  MyNotificationSettingsDocument,
  SetNotificationSettingsDocument,
  type EmailMode,
  type NoticeKind,
  type NotificationSettingsFieldsFragment,
} from '../../gql/graphql';
import { useAction, useLoad } from '../../hooks';
import { useToken } from '../../session';
import { ErrorText, LoadState } from '../../ui';

const KIND_WORDS: Record<NoticeKind, string> = {
  yourTurn: 'Your turn',
  turnReminder: 'Reminders before a time-out',
  deadlineNear: 'Deadline near',
  timedOut: 'You ran out of time',
  gameFinished: 'A game ended',
  invited: 'Invitations',
};
const KINDS = Object.keys(KIND_WORDS) as NoticeKind[];
const MODE_WORDS: Record<EmailMode, string> = { immediate: 'at once', digest: 'a digest of the games waiting for me', never: 'never' };

/** The browser's own time zone: the quiet hours' default. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Email notifications: which kinds, at once or as a digest, quiet hours, and not while here. */
export function EmailNotificationsSection() {
  const token = useToken();
  const loaded = useLoad(() => request(MyNotificationSettingsDocument, {}, token).then((r) => r.myNotificationSettings), [token]);
  return (
    <section className="panel" aria-labelledby="notify-title">
      <h2 id="notify-title">Notifications</h2>
      <LoadState error={loaded.error} loading={!loaded.data} what="your notification settings">
        {loaded.data && <EmailForm settings={loaded.data} onSaved={loaded.reload} />}
      </LoadState>
    </section>
  );
}

function EmailForm({ settings, onSaved }: { settings: NotificationSettingsFieldsFragment; onSaved: () => void }) {
  const token = useToken();
  const [kinds, setKinds] = useState<NoticeKind[]>(settings.emailKinds);
  const [mode, setMode] = useState<EmailMode>(settings.emailMode);
  const [digestHours, setDigestHours] = useState(String(Math.round(settings.digestMinutes / 6) / 10));
  const [quiet, setQuiet] = useState(settings.quietStart !== null);
  const [quietStart, setQuietStart] = useState(settings.quietStart ?? '22:00');
  const [quietEnd, setQuietEnd] = useState(settings.quietEnd ?? '07:30');
  const [zone, setZone] = useState(settings.quietStart !== null ? settings.timeZone : browserZone());
  const [activeMinutes, setActiveMinutes] = useState(String(settings.activeMinutes));
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [kinds, mode, digestHours, quiet, quietStart, quietEnd, zone, activeMinutes]);

  const { busy, error, run: save } = useAction(async () => {
    await request(
      SetNotificationSettingsDocument,
      {
        input: {
          emailKinds: kinds,
          emailMode: mode,
          digestMinutes: Math.round(Number(digestHours) * 60),
          quietStart: quiet ? quietStart : null,
          quietEnd: quiet ? quietEnd : null,
          timeZone: zone,
          activeMinutes: Number(activeMinutes),
        },
      },
      token,
    );
    setSaved(true);
    onSaved();
  });
  const toggle = (kind: NoticeKind) => setKinds((now) => (now.includes(kind) ? now.filter((k) => k !== kind) : [...now, kind]));

  return (
    <form onSubmit={save} aria-labelledby="notify-title">
      {!settings.emailAvailable && <p className="notice">This server sends no email.</p>}
      {settings.emailAvailable && !settings.emailVerified && (
        <p className="notice">Email goes only to a verified address: add and verify one on the Account page.</p>
      )}
      <fieldset>
        <legend>Email me</legend>
        {(Object.keys(MODE_WORDS) as EmailMode[]).map((m) => (
          <label key={m}>
            <input type="radio" name="email-mode" checked={mode === m} onChange={() => setMode(m)} /> {MODE_WORDS[m]}
          </label>
        ))}
        {mode === 'digest' && (
          <>
            <label htmlFor="digest-hours">At most one digest every (hours)</label>
            <input id="digest-hours" type="number" min={0.25} max={168} step={0.25} required value={digestHours} onChange={(e) => setDigestHours(e.target.value)} />
          </>
        )}
      </fieldset>
      <fieldset disabled={mode === 'never'}>
        <legend>About</legend>
        {KINDS.map((kind) => (
          <label key={kind}>
            <input type="checkbox" checked={kinds.includes(kind)} onChange={() => toggle(kind)} /> {KIND_WORDS[kind]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Quiet hours</legend>
        <label>
          <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} /> Hold notices at night (sent when the quiet hours end)
        </label>
        {quiet && (
          <>
            <label htmlFor="quiet-start">From</label>
            <input id="quiet-start" type="time" required value={quietStart} onChange={(e) => setQuietStart(e.target.value)} />
            <label htmlFor="quiet-end">To</label>
            <input id="quiet-end" type="time" required value={quietEnd} onChange={(e) => setQuietEnd(e.target.value)} />
            <label htmlFor="quiet-zone">Time zone</label>
            <input id="quiet-zone" maxLength={64} required value={zone} onChange={(e) => setZone(e.target.value)} />
          </>
        )}
      </fieldset>
      <label htmlFor="active-minutes">Send nothing while I am here, or was in the last (minutes)</label>
      <input id="active-minutes" type="number" min={0} max={120} required value={activeMinutes} onChange={(e) => setActiveMinutes(e.target.value)} />
      <ErrorText error={error} />
      {saved && <p role="status">Saved.</p>}
      <div className="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
      </div>
    </form>
  );
}
