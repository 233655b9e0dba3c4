import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, request } from '../api';
import { JoinLobbyDocument, LobbyByInviteCodeDocument } from '../gql/graphql';
import { useLoad } from '../hooks';
import { href, navigate } from '../router';
import { useToken } from '../session';
import { ErrorText, LoadState } from '../ui';
import { LobbySeats, LobbySummary } from './Lobby';

/** An invite link (/#/join/<code>): the lobby it names, and a button to take a seat. */
export function JoinScreen({ inviteCode }: { inviteCode: string }) {
  const { t } = useTranslation('lobbies');
  const token = useToken();
  const lobby = useLoad(() => request(LobbyByInviteCodeDocument, { code: inviteCode }, token).then((r) => r.lobbyByInviteCode), [inviteCode, token]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const join = async () => {
    setBusy(true);
    setError(null);
    try {
      const { joinLobby } = await request(JoinLobbyDocument, { input: { inviteCode } }, token);
      navigate(joinLobby.gameId ? href.table(joinLobby.gameId) : href.lobby(joinLobby.id));
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
      lobby.reload();
    }
  };

  return (
    <LoadState error={lobby.error} loading={!lobby.data} what={t('join.loading')}>
      {lobby.data && (
        <>
          <h1>{t('join.title', { preset: lobby.data.preset })}</h1>
          <LobbySummary lobby={lobby.data} />
          <LobbySeats lobby={lobby.data} />
          <ErrorText error={error} />
          {lobby.data.status === 'open' ? (
            <button type="button" disabled={busy} onClick={() => void join()}>
              {t('takeSeat')}
            </button>
          ) : (
            <p>
              {t('join.status', { status: t(`join.statusName.${lobby.data.status}`, { defaultValue: lobby.data.status }) })}{' '}
              {lobby.data.gameId && <a href={href.table(lobby.data.gameId)}>{t('join.watch')}</a>}
            </p>
          )}
        </>
      )}
    </LoadState>
  );
}
