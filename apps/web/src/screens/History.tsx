import { useState } from 'react';
import { request } from '../api';
import { MyGamesDocument, type GameStatus, type MyGamesQuery } from '../gql/graphql';
import { useLoad } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { ordinal } from '../terms';
import { LoadState, formatDate } from '../ui';

type Item = MyGamesQuery['myGames']['items'][number];

/** Your games: those being played, and the finished ones with their score sheets and replays. */
export function HistoryScreen() {
  const token = useToken();
  const [status, setStatus] = useState<GameStatus>('finished');
  const [pages, setPages] = useState<string[]>([]);
  const after = pages[pages.length - 1] ?? null;
  const games = useLoad(() => request(MyGamesDocument, { status, after }, token).then((r) => r.myGames), [status, after, token]);

  return (
    <>
      <h1>Your games</h1>
      <div className="tabs" role="group" aria-label="Which games">
        {(['finished', 'active'] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={status === s ? '' : 'secondary'}
            aria-pressed={status === s}
            onClick={() => (setStatus(s), setPages([]))}
          >
            {s === 'finished' ? 'Finished' : 'Being played'}
          </button>
        ))}
      </div>
      <LoadState error={games.error} loading={!games.data} what="your games">
        {games.data && games.data.items.length === 0 && <p className="muted">No games here yet.</p>}
        {games.data && games.data.items.length > 0 && (
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Players</th>
                <th scope="col">{status === 'finished' ? 'Your place' : 'Turn'}</th>
                <th scope="col">Open</th>
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
              Newer
            </button>
          )}
          {games.data?.hasMore && games.data.nextCursor && (
            <button type="button" className="secondary" onClick={() => setPages([...pages, games.data!.nextCursor!])}>
              Older
            </button>
          )}
        </div>
      </LoadState>
    </>
  );
}

function GameRow({ game }: { game: Item }) {
  const mine = game.players.find((p) => p.seat === game.mySeat);
  return (
    <tr>
      <td>
        {game.preset}, {formatDate(game.finishedAt ?? game.createdAt)}
      </td>
      <td>{game.players.map((p) => `${p.name} ${p.total}`).join(', ')}</td>
      <td>{game.status === 'finished' ? (mine?.place ? ordinal(mine.place) : '—') : game.myTurn ? 'your turn' : 'waiting'}</td>
      <td className="links">
        <a href={href.table(game.id)} aria-label={`Table of the ${game.preset} game of ${formatDate(game.createdAt)}`}>
          Table
        </a>{' '}
        <a href={href.scores(game.id)} aria-label={`Score sheet of the ${game.preset} game of ${formatDate(game.createdAt)}`}>
          Scores
        </a>{' '}
        {game.status === 'finished' && (
          <a href={href.replay(game.id)} aria-label={`Replay of the ${game.preset} game of ${formatDate(game.createdAt)}`}>
            Replay
          </a>
        )}
      </td>
    </tr>
  );
}
