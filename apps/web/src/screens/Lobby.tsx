import { useEffect, useState } from 'react';
import { describeError, request, subscribe } from '../api';
import {
  AddBotDocument,
  LeaveLobbyDocument,
  LobbyDocument,
  MeDocument,
  MyEventsDocument,
  StartLobbyDocument,
  type BotLevel,
  type LobbyFieldsFragment,
} from '../gql/graphql';
import { ChatPanel } from '../components/ChatPanel';
import { useLoad } from '../hooks';
import { href, navigate } from '../router';
import { useToken } from '../session';
import { ErrorText, LoadState, tempo } from '../ui';

/** The waiting room: seats, the invite link, bots; the table opens by itself once the game starts. */
export function LobbyScreen({ lobbyId }: { lobbyId: string }) {
  const token = useToken();
  const lobby = useLoad(() => request(LobbyDocument, { id: lobbyId }, token).then((r) => r.lobby), [lobbyId, token]);
  const me = useLoad(() => request(MeDocument, {}, token).then((r) => r.me), [token]);
  const { reload } = lobby;
  const seated = !!lobby.data && !!me.data && lobby.data.seats.some((s) => s.player?.id === me.data?.id);

  // Live: someone joins or leaves, the game starts (the player's feed), with a slow poll as a fallback.
  useEffect(() => {
    const stop = subscribe(MyEventsDocument, {}, token, { next: () => reload() });
    const timer = setInterval(reload, 5000);
    return () => (stop(), clearInterval(timer));
  }, [token, reload]);

  const gameId = lobby.data?.gameId;
  useEffect(() => {
    if (gameId && seated) navigate(href.table(gameId));
  }, [gameId, seated]);

  return (
    <LoadState error={lobby.error} loading={!lobby.data} what="the lobby">
      {lobby.data && me.data && <LobbyDetails lobby={lobby.data} myId={me.data.id} token={token} onChange={reload} />}
    </LoadState>
  );
}

export function LobbySeats({ lobby }: { lobby: LobbyFieldsFragment }) {
  return (
    <ol className="seats" aria-label="Seats">
      {lobby.seats.map((seat) => (
        <li key={seat.seat}>
          Seat {seat.seat + 1}:{' '}
          {seat.player ? (
            <strong>
              {seat.player.name}
              {seat.player.kind === 'bot' ? ` (bot${seat.player.botLevel ? `, ${seat.player.botLevel}` : ''})` : ''}
            </strong>
          ) : (
            <span className="muted">free</span>
          )}
        </li>
      ))}
    </ol>
  );
}

export function LobbySummary({ lobby }: { lobby: LobbyFieldsFragment }) {
  return (
    <p>
      {lobby.preset}, {lobby.players} players, {tempo(lobby.timeControl)}, {lobby.rated ? 'rated' : 'unrated'}, {lobby.visibility}; hosted by {lobby.host.name}.
    </p>
  );
}

function LobbyDetails({ lobby, myId, token, onChange }: { lobby: LobbyFieldsFragment; myId: string; token: string; onChange: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [level, setLevel] = useState<BotLevel>('basic');
  const [copied, setCopied] = useState(false);
  const isHost = lobby.host.id === myId;
  const seated = lobby.seats.some((s) => s.player?.id === myId);
  const inviteUrl = `${location.origin}/${href.join(lobby.inviteCode)}`;

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      onChange();
    } catch (e) {
      setError(describeError(e));
      onChange();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Lobby: {lobby.preset}</h1>
      <LobbySummary lobby={lobby} />
      <ErrorText error={error} />
      <LobbySeats lobby={lobby} />
      {lobby.status === 'open' && (
        <section className="panel" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite players</h2>
          <label htmlFor="invite-link">Invite link</label>
          <div className="row">
            <input id="invite-link" readOnly value={inviteUrl} onFocus={(e) => e.target.select()} />
            <button
              type="button"
              className="secondary"
              onClick={() => void navigator.clipboard?.writeText(inviteUrl).then(() => setCopied(true), () => setCopied(false))}
            >
              Copy
            </button>
          </div>
          <p role="status" className="hint">
            {copied ? 'Copied.' : `Invite code: ${lobby.inviteCode}`}
          </p>
        </section>
      )}
      <div className="actions">
        {isHost && lobby.status === 'open' && lobby.seatsFree > 0 && (
          <>
            <label htmlFor="bot-level">Bot level</label>
            <select id="bot-level" value={level} onChange={(e) => setLevel(e.target.value as BotLevel)}>
              <option value="random">random</option>
              <option value="basic">basic</option>
              <option value="strong">strong</option>
            </select>
            <button type="button" disabled={busy} onClick={() => void act(() => request(AddBotDocument, { lobbyId: lobby.id, level }, token))}>
              Add a bot
            </button>
          </>
        )}
        {isHost && lobby.status === 'open' && lobby.seatsFree === 0 && (
          <button type="button" disabled={busy} onClick={() => void act(() => request(StartLobbyDocument, { lobbyId: lobby.id }, token))}>
            Start the game
          </button>
        )}
        {seated && lobby.status === 'open' && (
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => void act(() => request(LeaveLobbyDocument, { lobbyId: lobby.id }, token).then(() => navigate(href.lobbies())))}
          >
            Leave the lobby
          </button>
        )}
        {!seated && lobby.status === 'open' && <a href={href.join(lobby.inviteCode)}>Take a seat</a>}
        {lobby.gameId && <a href={href.table(lobby.gameId)}>Go to the table</a>}
      </div>
      <ChatPanel table={{ lobbyId: lobby.id }} seated={seated} />
    </>
  );
}
