import { useState } from 'react';
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
      <h2 id="vacation-title">Vacation</h2>
      <LoadState error={status.error} loading={!v} what="your vacation">
        {v && (
          <>
            <p>
              {v.daysLeft} of {v.allowanceDays} vacation days left in {v.year} (each day begun counts).
            </p>
            {v.away ? (
              <>
                <p role="status">
                  You are on vacation until {formatDate(v.until)}: your clocks are stopped in the games that allow it, and start again, with the time
                  they had, when you come back.
                </p>
                <KeptRunning games={v.keptRunning} />
                <ErrorText error={end.error} />
                <button type="button" onClick={() => end.run()} disabled={end.busy}>
                  I am back: end the vacation
                </button>
              </>
            ) : (
              <form onSubmit={start.run} aria-labelledby="vacation-title">
                <label htmlFor="vacation-until">Back on (leave empty for as long as your days last)</label>
                <input id="vacation-until" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
                {preview.data && (
                  <>
                    <p>
                      It would count {preview.data.days} {preview.data.days === 1 ? 'day' : 'days'}, until {formatDate(preview.data.until)}.
                      {preview.data.stopped.length > 0 ? ` Clocks stopped in ${preview.data.stopped.length} ${preview.data.stopped.length === 1 ? 'game' : 'games'}.` : ''}
                    </p>
                    <KeptRunning games={preview.data.keptRunning} />
                    {!preview.data.allowed && <p className="notice">Not enough vacation days left for that.</p>}
                  </>
                )}
                <ErrorText error={start.error ?? preview.error} />
                <button type="submit" disabled={start.busy || v.daysLeft === 0 || preview.data?.allowed === false}>
                  Start the vacation
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
  if (games.length === 0) return null;
  return (
    <div className="notice">
      <p>These games do not allow vacation: their clocks keep running.</p>
      <ul>
        {games.map((g) => (
          <li key={g.gameId}>
            <a href={href.table(g.gameId)}>{g.preset}</a>
            {g.deadline ? ` (deadline ${formatDate(g.deadline)})` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}
