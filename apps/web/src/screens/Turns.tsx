import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { request, subscribe } from '../api';
import { MyEventsDocument, MyTurnDocument } from '../gql/graphql';
import { currentLanguage } from '../i18n';
import { timeLeft, useLoad, useNow } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { LoadState, formatDate } from '../ui';

/** The inbox: games waiting for your move, soonest deadline first; live through the player's feed. */
export function TurnsScreen() {
  const { t } = useTranslation('history');
  const token = useToken();
  const turns = useLoad(() => request(MyTurnDocument, {}, token).then((r) => r.myTurn.items), [token]);
  const now = useNow();
  const { reload } = turns;
  useEffect(() => subscribe(MyEventsDocument, {}, token, { next: () => reload() }), [token, reload]);

  return (
    <>
      <h1>{t('turns.title')}</h1>
      <LoadState error={turns.error} loading={!turns.data} what={t('turns.loading')}>
        {turns.data && turns.data.length === 0 && <p className="muted">{t('turns.none')}</p>}
        {turns.data && turns.data.length > 0 && (
          <ul className="cards-list">
            {turns.data.map((turn) => (
              <li key={turn.gameId} className="panel">
                <h2>
                  <a href={href.table(turn.gameId)}>
                    {t('turns.against', { preset: turn.preset, opponents: new Intl.ListFormat(currentLanguage(), { type: 'conjunction' }).format(turn.opponents.map((o) => o.name)) })}
                  </a>
                </h2>
                <p>
                  {turn.deadline ? t('turns.moveBy', { date: formatDate(turn.deadline), left: timeLeft(turn.deadline, now) }) : t('turns.untimed')}{' '}
                  {turn.lastMove ? t('turns.lastMove', { date: formatDate(turn.lastMove.createdAt) }) : t('turns.noMove')}
                </p>
              </li>
            ))}
          </ul>
        )}
      </LoadState>
    </>
  );
}
