import { useTranslation } from 'react-i18next';
import { formatNumber } from '../i18n';
import { ordinal } from '../terms';

export interface Standing {
  seat: number;
  name: string;
  place?: number | null;
  total: number;
}

/** Place, player and total, best place first (seats without a place yet last, by seat). */
export function StandingsTable({ players, caption }: { players: readonly Standing[]; caption?: string }) {
  const { t } = useTranslation('game');
  const standings = [...players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
  return (
    <table className="list standings">
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>
          <th scope="col">{t('standings.place')}</th>
          <th scope="col">{t('standings.player')}</th>
          <th scope="col">{t('standings.total')}</th>
        </tr>
      </thead>
      <tbody>
        {standings.map((p) => (
          <tr key={p.seat} data-seat={p.seat} data-place={p.place ?? ''} data-total={p.total}>
            <td>{p.place ? ordinal(p.place) : '—'}</td>
            <td>{p.name}</td>
            <td>{formatNumber(p.total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
