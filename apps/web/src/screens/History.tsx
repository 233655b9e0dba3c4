import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../api';
import { MyGamesDocument, type GameStatus, type MyGamesQuery } from '../gql/graphql';
import { useLoad } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { formatNumber } from '../i18n';
import { ordinal } from '../terms';
import { LoadState, formatDate } from '../ui';

type Item = MyGamesQuery['myGames']['items'][number];

/** Your games: those being played, and the finished ones with their score sheets and replays. */
export function HistoryScreen() {
  const { t } = useTranslation('history');
  const token = useToken();
  const [status, setStatus] = useState<GameStatus>('finished');
  const [pages, setPages] = useState<string[]>([]);
  const after = pages[pages.length - 1] ?? null;
  const games = useLoad(() => request(MyGamesDocument, { status, after }, token).then((r) => r.myGames), [status, after, token]);

  return (
    <>
      <h1>{t('title')}</h1>
      <div className="tabs" role="group" aria-label={t('which')}>
        {(['finished', 'active'] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={status === s ? '' : 'secondary'}
            aria-pressed={status === s}
            onClick={() => (setStatus(s), setPages([]))}
          >
            {s === 'finished' ? t('finished') : t('active')}
          </button>
        ))}
      </div>
      <LoadState error={games.error} loading={!games.data} what={t('loading')}>
        {games.data && games.data.items.length === 0 && <p className="muted">{t('none')}</p>}
        {games.data && games.data.items.length > 0 && (
          <table className="list">
            <thead>
              <tr>
                <th scope="col">{t('game')}</th>
                <th scope="col">{t('players')}</th>
                <th scope="col">{status === 'finished' ? t('yourPlace') : t('turn')}</th>
                <th scope="col">{t('open')}</th>
              </tr>
            </thead>
            <tbody>
              {games.data.items.map((game) => (
                <GameRow key={game.id} game={game} />
              ))}
            </tbody>
          </table>
        )}
        <div className="actions">
          {pages.length > 0 && (
            <button type="button" className="secondary" onClick={() => setPages(pages.slice(0, -1))}>
              {t('newer')}
            </button>
          )}
          {games.data?.hasMore && games.data.nextCursor && (
            <button type="button" className="secondary" onClick={() => setPages([...pages, games.data!.nextCursor!])}>
              {t('older')}
            </button>
          )}
        </div>
      </LoadState>
    </>
  );
}

function GameRow({ game }: { game: Item }) {
  const { t } = useTranslation('history');
  const mine = game.players.find((p) => p.seat === game.mySeat);
  return (
    <tr>
      <td>
        {game.preset}, {formatDate(game.finishedAt ?? game.createdAt)}
      </td>
      <td>{game.players.map((p) => `${p.name} ${formatNumber(p.total)}`).join(', ')}</td>
      <td>{game.status === 'finished' ? (mine?.place ? ordinal(mine.place) : '—') : game.myTurn ? t('yourTurn') : t('waiting')}</td>
      <td className="links">
        <a href={href.table(game.id)} aria-label={t('tableLabel', { preset: game.preset, date: formatDate(game.createdAt) })}>
          {t('table')}
        </a>{' '}
        <a href={href.scores(game.id)} aria-label={t('scoresLabel', { preset: game.preset, date: formatDate(game.createdAt) })}>
          {t('scores')}
        </a>{' '}
        {game.status === 'finished' && (
          <a href={href.replay(game.id)} aria-label={t('replayLabel', { preset: game.preset, date: formatDate(game.createdAt) })}>
            {t('replay')}
          </a>
        )}
      </td>
    </tr>
  );
}
