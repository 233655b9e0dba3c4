import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api';
import { EndVacationDocument, MyVacationDocument, StartVacationDocument, VacationPreviewDocument } from '../../gql/graphql';
import { useAction, useLoad } from '../../hooks';
import { href } from '../../router';
import { useToken } from '../../session';
import { ErrorText, formatDate, LoadState } from '../../ui';

type Game = { gameId: string; preset: string; deadline?: string | null };

/**
 * Vacation: while away, the player's clocks stop in their timed games that allow it. Before it
 * starts, the games that keep running (a tournament's) are listed, so nothing comes as a surprise.
 */
export function VacationSection() {
  const { t } = useTranslation('settings');
  const token = useToken();
  const status = useLoad(() => request(MyVacationDocument, {}, token).then((r) => r.myVacation), [token]);
  // A datetime-local value (the browser's time zone); empty: as long as the allowance lasts.
  const [until, setUntil] = useState('');
  const untilIso = until ? new Date(until).toISOString() : null;
  const preview = useLoad(
    () => (status.data && !status.data.away ? request(VacationPreviewDocument, { until: untilIso }, token).then((r) => r.vacationPreview) : Promise.resolve(null)),
    [token, untilIso, status.data?.away],
  );
  const start = useAction(async () => {
    await request(StartVacationDocument, { until: untilIso }, token);
    status.reload();
  });
  const end = useAction(async () => {
    await request(EndVacationDocument, {}, token);
    status.reload();
  });
  const v = status.data;

  return (
    <section className="panel" aria-labelledby="vacation-title">
      <h2 id="vacation-title">{t('vacation.title')}</h2>
      <LoadState error={status.error} loading={!v} what={t('vacation.loading')}>
        {v && (
          <>
            <p>
              {t('vacation.daysLeft', { count: v.daysLeft, allowance: v.allowanceDays, year: v.year })}
            </p>
            {v.away ? (
              <>
                <p role="status">{t('vacation.away', { date: formatDate(v.until) })}</p>
                <KeptRunning games={v.keptRunning} />
                <ErrorText error={end.error} />
                <button type="button" onClick={() => end.run()} disabled={end.busy}>
                  {t('vacation.end')}
                </button>
              </>
            ) : (
              <form onSubmit={start.run} aria-labelledby="vacation-title">
                <label htmlFor="vacation-until">{t('vacation.until')}</label>
                <input id="vacation-until" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
                {preview.data && (
                  <>
                    <p>
                      {t('vacation.wouldCount', { count: preview.data.days, date: formatDate(preview.data.until) })}
                      {preview.data.stopped.length > 0 ? ` ${t('vacation.clocksStopped', { count: preview.data.stopped.length })}` : ''}
                    </p>
                    <KeptRunning games={preview.data.keptRunning} />
                    {!preview.data.allowed && <p className="notice">{t('vacation.notEnough')}</p>}
                  </>
                )}
                <ErrorText error={start.error ?? preview.error} />
                <button type="submit" disabled={start.busy || v.daysLeft === 0 || preview.data?.allowed === false}>
                  {t('vacation.start')}
                </button>
              </form>
            )}
          </>
        )}
      </LoadState>
    </section>
  );
}

function KeptRunning({ games }: { games: Game[] }) {
  const { t } = useTranslation('settings');
  if (games.length === 0) return null;
  return (
    <div className="notice">
      <p>{t('vacation.keptRunning')}</p>
      <ul>
        {games.map((g) => (
          <li key={g.gameId}>
            <a href={href.table(g.gameId)}>{g.preset}</a>
            {g.deadline ? ` ${t('vacation.deadline', { date: formatDate(g.deadline) })}` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}
