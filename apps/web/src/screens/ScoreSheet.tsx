import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../api';
import { ScoreSheetDocument, type ScoreSheetQuery } from '../gql/graphql';
import { useLoad } from '../hooks';
import { StandingsTable } from '../components/Standings';
import { href } from '../router';
import { useToken } from '../session';
import i18n, { formatNumber } from '../i18n';
import { bidName, contractName, trumpName } from '../terms';
import { LoadState } from '../ui';

type Sheet = ScoreSheetQuery['scoreSheet'];

/** Deal by deal: what was played, tricks, scores and running totals; then the standings. */
export function ScoreSheetScreen({ gameId }: { gameId: string }) {
  const { t } = useTranslation('history');
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
    <LoadState error={sheet.error} loading={!sheet.data} what={t('sheet.loading')}>
      {sheet.data && <Sheet sheet={sheet.data} />}
    </LoadState>
  );
}

function Sheet({ sheet }: { sheet: Sheet }) {
  const { t } = useTranslation('history');
  const seats = [...sheet.standings].sort((a, b) => a.seat - b.seat);
  return (
    <div className="score-sheet">
      <h1>{t('sheet.title')}</h1>
      <p>
        {sheet.status === 'finished' ? t('sheet.over') : t('sheet.playing')}{' '}
        {sheet.end && (sheet.end.reason === 'resigned' ? t('sheet.resigned', { name: seats[sheet.end.seat]?.name }) : t('sheet.forfeited', { name: seats[sheet.end.seat]?.name }))}
      </p>
      <nav aria-label={t('sheet.thisGame')} className="actions">
        <a href={href.table(sheet.gameId)}>{t('sheet.backToTable')}</a>
        {sheet.status === 'finished' && <a href={href.replay(sheet.gameId)}>{t('replay')}</a>}
      </nav>
      <section aria-labelledby="standings-title" className="panel">
        <h2 id="standings-title">{sheet.status === 'finished' ? t('sheet.finalStandings') : t('sheet.standings')}</h2>
        <StandingsTable players={sheet.standings} />
      </section>
      <section aria-labelledby="deals-title" className="panel scroll" tabIndex={0}>
        <h2 id="deals-title">{t('sheet.deals')}</h2>
        <table className="list deals">
          <thead>
            <tr>
              <th scope="col">{t('sheet.deal')}</th>
              <th scope="col">{t('sheet.played')}</th>
              {seats.map((p) => (
                <th key={p.seat} scope="col">
                  {p.name}
                  <span className="sr-only"> {t('sheet.columnsHint')}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sheet.deals.map((deal) => (
              <tr key={deal.index}>
                <th scope="row">{deal.index + 1}</th>
                <td>
                  {deal.contract ? contractName(deal.contract) : deal.bid ? t('sheet.bidBy', { bid: bidName(deal.bid), name: seats[deal.declarer ?? -1]?.name ?? '—' }) : '—'}
                  {deal.trump && !deal.contract ? `, ${t('sheet.trump', { suit: trumpName(deal.trump) })}` : ''}
                  {deal.finished ? '' : ` ${t('sheet.notFinished')}`}
                </td>
                {seats.map((p) => (
                  <td key={p.seat}>
                    {tricksText(deal.tricksTaken?.[p.seat])} · {deal.scores ? signed(deal.scores[p.seat]) : '—'} · <strong>{deal.runningTotals?.[p.seat] !== undefined ? formatNumber(deal.runningTotals[p.seat]) : '—'}</strong>
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
  if (n === null || n === undefined) return i18n.t('history:sheet.noTricks');
  return i18n.t('history:sheet.tricks', { count: n });
}

function signed(n: number | undefined): string {
  if (n === undefined) return '—';
  return formatNumber(n, { signDisplay: 'exceptZero' });
}

