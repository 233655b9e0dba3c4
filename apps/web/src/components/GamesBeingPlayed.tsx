import { useTranslation } from 'react-i18next';
import { request } from '../api';
import { GamesBeingPlayedDocument } from '../gql/graphql';
import { useLoad } from '../hooks';
import { formatDateTime } from '../i18n';
import { useCursorPages, useLiveReload } from '../live';
import { href } from '../router';
import { useToken } from '../session';
import { LoadState } from '../ui';
import { Pager } from './Pager';
import './features.css';

const PAGE = 10;

/**
 * The games being played now, newest first, each a link to watch its table as a spectator (with
 * the spectators' chat). Paged by cursor, and live like the lobby list.
 */
export function GamesBeingPlayed() {
  const { t } = useTranslation('features');
  const token = useToken();
  const pages = useCursorPages('');
  const games = useLoad(() => request(GamesBeingPlayedDocument, { after: pages.after }, token).then((r) => r.games), [pages.after, token]);
  useLiveReload(games.reload);
  const edges = games.data?.edges ?? [];

  return (
    <section className="panel" aria-labelledby="games-being-played">
      <h2 id="games-being-played">{t('watch.title')}</h2>
      <LoadState error={games.error} loading={games.loading && !games.data} what={t('watch.what')}>
        {edges.length === 0 ? (
          <p className="muted">{t('watch.none')}</p>
        ) : (
          <ul className="watch-list">
            {edges.map(({ node: game }) => {
              const players = [...game.players].sort((a, b) => a.seat - b.seat).map((p) => (p.kind === 'bot' ? t('watch.bot', { name: p.name }) : p.name));
              return (
                <li key={game.id} data-game={game.id}>
                  <span>
                    <strong>{game.preset}</strong>
                    {game.rated ? '' : ` (${t('watch.unrated')})`}: {players.join(', ')}
                    <span className="muted"> · {formatDateTime(game.createdAt)}</span>
                  </span>{' '}
                  <a href={href.table(game.id)} aria-label={t('watch.linkLabel', { preset: game.preset, players: players.join(', ') })}>
                    {t('watch.link')}
                  </a>
                </li>
              );
            })}
          </ul>
        )}
        {(pages.page > 1 || games.data?.pageInfo.hasNextPage) && (
          <Pager label={t('watch.pager')} pages={pages} nextCursor={games.data?.pageInfo.endCursor} hasMore={!!games.data?.pageInfo.hasNextPage} pageSize={PAGE} />
        )}
      </LoadState>
    </section>
  );
}
