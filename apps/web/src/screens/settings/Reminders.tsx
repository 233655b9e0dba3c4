import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api';
import { MyReminderSettingsDocument, SetReminderSettingsDocument, type ReminderSettingsFieldsFragment } from '../../gql/graphql';
import { useAction, useLoad } from '../../hooks';
import { useToken } from '../../session';
import { ErrorText, LoadState } from '../../ui';

// The server's bounds (apps/api/src/reminders/reminder-points.ts): it checks them again.
const MAX_POINTS = 5;
/** Each channel's name: settings:reminders.channel.<key>. */
const CHANNELS = ['push', 'email'] as const;
type Channel = (typeof CHANNELS)[number];

/** A point as the form edits it: a share of the turn's time left, or minutes before the deadline. */
interface Draft {
  kind: 'percent' | 'minutes';
  value: string;
}

const DEFAULTS: Draft[] = [
  { kind: 'percent', value: '50' },
  { kind: 'percent', value: '10' },
  { kind: 'minutes', value: '60' },
];

function draftsOf(points: ReminderSettingsFieldsFragment['push']): Draft[] {
  return points.map((p) =>
    p.percent != null ? { kind: 'percent', value: String(p.percent) } : { kind: 'minutes', value: String((p.secondsBefore ?? 0) / 60) },
  );
}

function inputOf(drafts: Draft[]) {
  return drafts.map((d) => (d.kind === 'percent' ? { percent: Math.round(Number(d.value)) } : { secondsBefore: Math.round(Number(d.value) * 60) }));
}

/**
 * Reminders before a time-out: per channel, up to five moments, each a share of the turn's time
 * left or a number of minutes before the deadline. Each fires once per turn; a move cancels the rest.
 */
export function RemindersSection() {
  const { t } = useTranslation('settings');
  const token = useToken();
  const loaded = useLoad(() => request(MyReminderSettingsDocument, {}, token).then((r) => r.myReminderSettings), [token]);
  const [drafts, setDrafts] = useState<Record<Channel, Draft[]> | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    if (loaded.data) setDrafts({ push: draftsOf(loaded.data.push), email: draftsOf(loaded.data.email) });
  }, [loaded.data]);

  const { busy, error, run: save } = useAction(async () => {
    if (!drafts) return;
    setDone(null);
    const saved = await request(SetReminderSettingsDocument, { input: { push: inputOf(drafts.push), email: inputOf(drafts.email) } }, token);
    setDrafts({ push: draftsOf(saved.setReminderSettings.push), email: draftsOf(saved.setReminderSettings.email) });
    setDone(t('reminders.saved'));
  });

  const change = (channel: Channel, list: Draft[]) => drafts && setDrafts({ ...drafts, [channel]: list });

  return (
    <section className="panel" aria-labelledby="reminders-title">
      <h2 id="reminders-title">{t('reminders.title')}</h2>
      <p className="hint">{t('reminders.intro')}</p>
      <LoadState error={loaded.error} loading={!drafts} what={t('reminders.loading')}>
        {drafts && (
          <form onSubmit={save} aria-labelledby="reminders-title">
            <ErrorText error={error} />
            {done && <p role="status">{done}</p>}
            {CHANNELS.map((key) => (
              <fieldset key={key}>
                <legend>{t(`reminders.channel.${key}`)}</legend>
                {drafts[key].length === 0 && <p className="muted">{t('reminders.none')}</p>}
                {drafts[key].map((d, i) => (
                  <div className="actions" key={i}>
                    <label htmlFor={`reminder-${key}-${i}`}>{t('reminders.when')}</label>
                    <input
                      id={`reminder-${key}-${i}`}
                      type="number"
                      required
                      min={1}
                      max={d.kind === 'percent' ? 99 : 43200}
                      step={1}
                      value={d.value}
                      onChange={(e) => change(key, drafts[key].map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
                    />
                    <select
                      aria-label={t('reminders.unit')}
                      value={d.kind}
                      onChange={(e) => change(key, drafts[key].map((x, j) => (j === i ? { ...x, kind: e.target.value as Draft['kind'] } : x)))}
                    >
                      <option value="percent">{t('reminders.percent')}</option>
                      <option value="minutes">{t('reminders.minutes')}</option>
                    </select>
                    <button type="button" className="secondary" onClick={() => change(key, drafts[key].filter((_, j) => j !== i))}>
                      {t('common:remove')}
                    </button>
                  </div>
                ))}
                {drafts[key].length < MAX_POINTS && (
                  <button type="button" className="secondary" onClick={() => change(key, [...drafts[key], { kind: 'minutes', value: '60' }])}>
                    {t('reminders.add')}
                  </button>
                )}
              </fieldset>
            ))}
            <div className="actions">
              <button type="submit" disabled={busy}>
                {t('reminders.save')}
              </button>
              <button type="button" className="secondary" onClick={() => setDrafts({ push: [...DEFAULTS], email: [...DEFAULTS] })}>
                {t('reminders.defaults')}
              </button>
            </div>
          </form>
        )}
      </LoadState>
    </section>
  );
}
