import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
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

// Their words: settings:notify.kind.<kind> and settings:notify.mode.<mode>.
const KINDS: NoticeKind[] = ['yourTurn', 'turnReminder', 'deadlineNear', 'timedOut', 'gameFinished', 'invited'];
const MODES: EmailMode[] = ['immediate', 'digest', 'never'];

/** The browser's own time zone: the quiet hours' default. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Email notifications: which kinds, at once or as a digest, quiet hours, and not while here. */
export function EmailNotificationsSection() {
  const { t } = useTranslation('settings');
  const token = useToken();
  const loaded = useLoad(() => request(MyNotificationSettingsDocument, {}, token).then((r) => r.myNotificationSettings), [token]);
  return (
    <section className="panel" aria-labelledby="notify-title">
      <h2 id="notify-title">{t('notify.title')}</h2>
      <LoadState error={loaded.error} loading={!loaded.data} what={t('notify.loading')}>
        {loaded.data && <EmailForm settings={loaded.data} onSaved={loaded.reload} />}
      </LoadState>
    </section>
  );
}

function EmailForm({ settings, onSaved }: { settings: NotificationSettingsFieldsFragment; onSaved: () => void }) {
  const { t } = useTranslation('settings');
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
      {!settings.emailAvailable && <p className="notice">{t('notify.noEmail')}</p>}
      {settings.emailAvailable && !settings.emailVerified && (
        <p className="notice">{t('notify.verifyFirst')}</p>
      )}
      <fieldset>
        <legend>{t('notify.emailMe')}</legend>
        {MODES.map((m) => (
          <label key={m}>
            <input type="radio" name="email-mode" checked={mode === m} onChange={() => setMode(m)} /> {t(`notify.mode.${m}`)}
          </label>
        ))}
        {mode === 'digest' && (
          <>
            <label htmlFor="digest-hours">{t('notify.digestHours')}</label>
            <input id="digest-hours" type="number" min={0.25} max={168} step={0.25} required value={digestHours} onChange={(e) => setDigestHours(e.target.value)} />
          </>
        )}
      </fieldset>
      <fieldset disabled={mode === 'never'}>
        <legend>{t('notify.about')}</legend>
        {KINDS.map((kind) => (
          <label key={kind}>
            <input type="checkbox" checked={kinds.includes(kind)} onChange={() => toggle(kind)} /> {t(`notify.kind.${kind}`)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t('notify.quiet')}</legend>
        <label>
          <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} /> {t('notify.quietHold')}
        </label>
        {quiet && (
          <>
            <label htmlFor="quiet-start">{t('notify.from')}</label>
            <input id="quiet-start" type="time" required value={quietStart} onChange={(e) => setQuietStart(e.target.value)} />
            <label htmlFor="quiet-end">{t('notify.to')}</label>
            <input id="quiet-end" type="time" required value={quietEnd} onChange={(e) => setQuietEnd(e.target.value)} />
            <label htmlFor="quiet-zone">{t('notify.zone')}</label>
            <input id="quiet-zone" maxLength={64} required value={zone} onChange={(e) => setZone(e.target.value)} />
          </>
        )}
      </fieldset>
      <label htmlFor="active-minutes">{t('notify.activeMinutes')}</label>
      <input id="active-minutes" type="number" min={0} max={120} required value={activeMinutes} onChange={(e) => setActiveMinutes(e.target.value)} />
      <ErrorText error={error} />
      {saved && <p role="status">{t('common:saved')}</p>}
      <div className="actions">
        <button type="submit" disabled={busy}>
          {t('common:save')}
        </button>
      </div>
    </form>
  );
}
