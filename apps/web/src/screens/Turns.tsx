import { useEffect } from 'react';
import { request, subscribe } from '../api';
import { MyEventsDocument, MyTurnDocument } from '../gql/graphql';
import { timeLeft, useLoad, useNow } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { LoadState, formatDate } from '../ui';

/** The inbox: games waiting for your move, soonest deadline first; live through the player's feed. */
export function TurnsScreen() {
  const token = useToken();
  const turns = useLoad(() => request(MyTurnDocument, {}, token).then((r) => r.myTurn.items), [token]);
  const now = useNow();
  const { reload } = turns;
  useEffect(() => subscribe(MyEventsDocument, {}, token, { next: () => reload() }), [token, reload]);

  return (
    <>
      <h1>Your turns</h1>
      <LoadState error={turns.error} loading={!turns.data} what="your turns">
        {turns.data && turns.data.length === 0 && <p className="muted">No game is waiting for you. This list updates by itself.</p>}
        {turns.data && turns.data.length > 0 && (
          <ul className="cards-list">
            {turns.data.map((turn) => (
              <li key={turn.gameId} className="panel">
                <h2>
                  <a href={href.table(turn.gameId)}>
                    {turn.preset} against {turn.opponents.map((o) => o.name).join(' and ')}
                  </a>
                </h2>
                <p>
                  {turn.deadline ? `Move by ${formatDate(turn.deadline)} (${timeLeft(turn.deadline, now)}).` : 'Untimed.'}{' '}
                  {turn.lastMove ? `Last move ${formatDate(turn.lastMove.createdAt)}.` : 'No move yet.'}
                </p>
              </li>
            ))}
          </ul>
        )}
      </LoadState>
    </>
  );
}
