import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('lobbies');
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
    <LoadState error={lobby.error} loading={!lobby.data} what={t('lobby.loading')}>
      {lobby.data && me.data && <LobbyDetails lobby={lobby.data} myId={me.data.id} token={token} onChange={reload} />}
    </LoadState>
  );
}

export function LobbySeats({ lobby }: { lobby: LobbyFieldsFragment }) {
  const { t } = useTranslation('lobbies');
  return (
    <ol className="seats" aria-label={t('seats')}>
      {lobby.seats.map((seat) => (
        <li key={seat.seat}>
          {t('lobby.seat', { n: seat.seat + 1 })}{' '}
          {seat.player ? (
            <strong>
              {seat.player.name}
              {seat.player.kind === 'bot' ? ` ${seat.player.botLevel ? t('lobby.botLevelMark', { level: t(`botLevel.${seat.player.botLevel}`) }) : t('lobby.botMark')}` : ''}
            </strong>
          ) : (
            <span className="muted">{t('lobby.free')}</span>
          )}
        </li>
      ))}
    </ol>
  );
}

export function LobbySummary({ lobby }: { lobby: LobbyFieldsFragment }) {
  const { t } = useTranslation('lobbies');
  return (
    <p>
      {t('lobby.summary', {
        preset: lobby.preset,
        count: lobby.players,
        tempo: tempo(lobby.timeControl),
        rated: lobby.rated ? t('lobby.rated') : t('lobby.unrated'),
        visibility: t(`lobby.visibility.${lobby.visibility}`, { defaultValue: lobby.visibility }),
        host: lobby.host.name,
      })}
    </p>
  );
}

function LobbyDetails({ lobby, myId, token, onChange }: { lobby: LobbyFieldsFragment; myId: string; token: string; onChange: () => void }) {
  const { t } = useTranslation('lobbies');
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
      <h1>{t('lobby.title', { preset: lobby.preset })}</h1>
      <LobbySummary lobby={lobby} />
      <ErrorText error={error} />
      <LobbySeats lobby={lobby} />
      {lobby.status === 'open' && (
        <section className="panel" aria-labelledby="invite-title">
          <h2 id="invite-title">{t('invite.title')}</h2>
          <label htmlFor="invite-link">{t('invite.link')}</label>
          <div className="row">
            <input id="invite-link" readOnly value={inviteUrl} onFocus={(e) => e.target.select()} />
            <button
              type="button"
              className="secondary"
              onClick={() => void navigator.clipboard?.writeText(inviteUrl).then(() => setCopied(true), () => setCopied(false))}
            >
              {t('common:copy')}
            </button>
          </div>
          <p role="status" className="hint">
            {copied ? t('common:copied') : t('invite.code', { code: lobby.inviteCode })}
          </p>
        </section>
      )}
      <div className="actions">
        {isHost && lobby.status === 'open' && lobby.seatsFree > 0 && (
          <>
            <label htmlFor="bot-level">{t('lobby.botLevel')}</label>
            <select id="bot-level" value={level} onChange={(e) => setLevel(e.target.value as BotLevel)}>
              <option value="random">{t('botLevel.random')}</option>
              <option value="basic">{t('botLevel.basic')}</option>
              <option value="strong">{t('botLevel.strong')}</option>
            </select>
            <button type="button" disabled={busy} onClick={() => void act(() => request(AddBotDocument, { lobbyId: lobby.id, level }, token))}>
              {t('lobby.addBot')}
            </button>
          </>
        )}
        {isHost && lobby.status === 'open' && lobby.seatsFree === 0 && (
          <button type="button" disabled={busy} onClick={() => void act(() => request(StartLobbyDocument, { lobbyId: lobby.id }, token))}>
            {t('lobby.start')}
          </button>
        )}
        {seated && lobby.status === 'open' && (
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => void act(() => request(LeaveLobbyDocument, { lobbyId: lobby.id }, token).then(() => navigate(href.lobbies())))}
          >
            {t('lobby.leave')}
          </button>
        )}
        {!seated && lobby.status === 'open' && <a href={href.join(lobby.inviteCode)}>{t('takeSeat')}</a>}
        {lobby.gameId && <a href={href.table(lobby.gameId)}>{t('lobby.toTable')}</a>}
      </div>
      <ChatPanel table={{ lobbyId: lobby.id }} seated={seated} />
    </>
  );
}
