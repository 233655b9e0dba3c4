import { useEffect } from 'react';
import { request } from '../api';
import { ScoreSheetDocument, type ScoreSheetQuery } from '../gql/graphql';
import { useLoad } from '../hooks';
import { StandingsTable } from '../components/Standings';
import { href } from '../router';
import { useToken } from '../session';
import { bidName, contractName } from '../terms';
import { LoadState } from '../ui';

type Sheet = ScoreSheetQuery['scoreSheet'];

/** Deal by deal: what was played, tricks, scores and running totals; then the standings. */
export function ScoreSheetScreen({ gameId }: { gameId: string }) {
  const token = useToken();
  const sheet = useLoad(() => request(ScoreSheetDocument, { gameId }, token).then((r) => r.scoreSheet), [gameId, token]);
  const active = sheet.data?.status === 'active';
  const { reload } = sheet;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, 10_000);
    return () => clearInterval(timer);
  }, [active, reload]);

  return (
    <LoadState error={sheet.error} loading={!sheet.data} what="the score sheet">
      {sheet.data && <Sheet sheet={sheet.data} />}
    </LoadState>
  );
}

function Sheet({ sheet }: { sheet: Sheet }) {
  const seats = [...sheet.standings].sort((a, b) => a.seat - b.seat);
  return (
    <div className="score-sheet">
      <h1>Score sheet</h1>
      <p>
        {sheet.status === 'finished' ? 'The game is over.' : 'The game is being played.'}{' '}
        {sheet.end && `${seats[sheet.end.seat]?.name} ${sheet.end.reason === 'resigned' ? 'resigned' : 'forfeited on time'}.`}
      </p>
      <nav aria-label="This game" className="actions">
        <a href={href.table(sheet.gameId)}>Back to the table</a>
        {sheet.status === 'finished' && <a href={href.replay(sheet.gameId)}>Replay</a>}
      </nav>
      <section aria-labelledby="standings-title" className="panel">
        <h2 id="standings-title">{sheet.status === 'finished' ? 'Final standings' : 'Standings'}</h2>
        <StandingsTable players={sheet.standings} />
      </section>
      <section aria-labelledby="deals-title" className="panel scroll" tabIndex={0}>
        <h2 id="deals-title">Deals</h2>
        <table className="list deals">
          <thead>
            <tr>
              <th scope="col">Deal</th>
              <th scope="col">Played</th>
              {seats.map((p) => (
                <th key={p.seat} scope="col">
                  {p.name}
                  <span className="sr-only"> tricks, score and total</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sheet.deals.map((deal) => (
              <tr key={deal.index}>
                <th scope="row">{deal.index + 1}</th>
                <td>
                  {deal.contract ? contractName(deal.contract) : deal.bid ? `${bidName(deal.bid)} by ${seats[deal.declarer ?? -1]?.name ?? '—'}` : '—'}
                  {deal.trump && !deal.contract ? `, trump ${deal.trump}` : ''}
                  {deal.finished ? '' : ' (not finished)'}
                </td>
                {seats.map((p) => (
                  <td key={p.seat}>
                    {tricksText(deal.tricksTaken?.[p.seat])} · {deal.scores ? signed(deal.scores[p.seat]) : '—'} · <strong>{deal.runningTotals?.[p.seat] ?? '—'}</strong>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function tricksText(n: number | null | undefined): string {
  if (n === null || n === undefined) return '— tricks';
  return `${n} ${n === 1 ? 'trick' : 'tricks'}`;
}

function signed(n: number | undefined): string {
  if (n === undefined) return '—';
  return n > 0 ? `+${n}` : String(n);
}

