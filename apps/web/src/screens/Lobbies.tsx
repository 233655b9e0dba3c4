import { presetInfo } from '@mizerka/rules';
import { useTranslation } from 'react-i18next';
import { useState, type FormEvent } from 'react';
import { describeError, request } from '../api';
import { CreateLobbyDocument, LobbiesDocument, type CreateLobbyInput, type LobbyFieldsFragment } from '../gql/graphql';
import { RuleOptionsFields, TimeControlFields, useGameOptions } from '../components/GameOptionsFields';
import { LobbyPager } from '../components/LobbyPager';
import { GamesBeingPlayed } from '../components/GamesBeingPlayed';
import { useCursorPages, useLiveReload } from '../live';
import { useLoad } from '../hooks';
import { href, navigate } from '../router';
import { useToken } from '../session';
import { PRESETS, presetLabel } from '../terms';
import { ErrorText, LoadState, tempo } from '../ui';

type Tempo = 'any' | 'untimed' | 'timed';

export function LobbiesScreen() {
  const { t } = useTranslation('lobbies');
  const token = useToken();
  const [preset, setPreset] = useState('');
  const [tempoFilter, setTempoFilter] = useState<Tempo>('any');
  const pages = useCursorPages(`${preset}|${tempoFilter}`);
  const lobbies = useLoad(
    () => request(LobbiesDocument, { preset: preset || null, timed: tempoFilter === 'any' ? null : tempoFilter === 'timed', after: pages.after }, token),
    [preset, tempoFilter, token, pages.after],
  );
  useLiveReload(lobbies.reload);

  return (
    <>
      <h1>{t('title')}</h1>
      <div className="columns">
        <section className="panel grow" aria-labelledby="open-lobbies">
          <h2 id="open-lobbies">{t('openTables')}</h2>
          <div className="filters">
            <span className="filter">
              <label htmlFor="filter-preset">{t('preset')}</label>
              <select id="filter-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
                <option value="">{t('all')}</option>
                {PRESETS.map((p) => (
                  <option key={p.name} value={p.name}>
                    {presetLabel(p.name)}
                  </option>
                ))}
              </select>
            </span>
            <span className="filter">
              <label htmlFor="filter-tempo">{t('tempo')}</label>
              <select id="filter-tempo" value={tempoFilter} onChange={(e) => setTempoFilter(e.target.value as Tempo)}>
                <option value="any">{t('any')}</option>
                <option value="untimed">{t('common:tempo.untimed')}</option>
                <option value="timed">{t('timed')}</option>
              </select>
            </span>
            <button type="button" className="secondary" onClick={lobbies.reload}>
              {t('common:refresh')}
            </button>
          </div>
          <LoadState error={lobbies.error} loading={lobbies.loading && !lobbies.data} what={t('loading')}>
            {lobbies.data && <LobbyList lobbies={lobbies.data.lobbies.lobbies} />}
            {lobbies.data && <LobbyPager pages={pages} page={lobbies.data.lobbies} />}
          </LoadState>
        </section>
        {/* What follows the list comes once it is there: nothing moves when it arrives (no layout shift). */}
        {(lobbies.data || lobbies.error) && <CreateLobby token={token} />}
      </div>
      {(lobbies.data || lobbies.error) && <GamesBeingPlayed />}
    </>
  );
}

function LobbyList({ lobbies }: { lobbies: LobbyFieldsFragment[] }) {
  const { t } = useTranslation('lobbies');
  if (lobbies.length === 0) return <p className="muted">{t('none')}</p>;
  return (
    <table className="list">
      <caption className="sr-only">{t('caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('preset')}</th>
          <th scope="col">{t('host')}</th>
          <th scope="col">{t('seats')}</th>
          <th scope="col">{t('tempo')}</th>
          <th scope="col">
            <span className="sr-only">{t('open')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {lobbies.map((lobby) => (
          <tr key={lobby.id}>
            <td>
              {lobby.preset}
              {lobby.rated ? '' : ` ${t('unratedMark')}`}
            </td>
            <td>{lobby.host.name}</td>
            <td>
              {t('seatsTaken', { taken: lobby.seatsTaken, players: lobby.players })}
            </td>
            <td>{tempo(lobby.timeControl)}</td>
            <td>
              <a href={href.lobby(lobby.id)} aria-label={t('openLabel', { preset: lobby.preset, host: lobby.host.name })}>
                {t('open')}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateLobby({ token }: { token: string }) {
  const { t } = useTranslation('lobbies');
  const [preset, setPreset] = useState('short');
  const [visibility, setVisibility] = useState<'public' | 'unlisted'>('public');
  const [rated, setRated] = useState(true);
  const [spectatorsSeeTableChat, setSpectatorsSeeTableChat] = useState(false);
  const game = useGameOptions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const family = presetInfo(preset)?.family;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const input: CreateLobbyInput = {
      preset,
      visibility,
      rated,
      spectatorsSeeTableChat,
      options: game.ruleOptions(family),
      timeControl: game.timeControl(),
    };
    try {
      const { createLobby } = await request(CreateLobbyDocument, { input }, token);
      navigate(href.lobby(createLobby.id));
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };

  return (
    <form className="panel" onSubmit={create} aria-labelledby="create-lobby">
      <h2 id="create-lobby">{t('create.title')}</h2>
      <ErrorText error={error} />
      <label htmlFor="create-preset">{t('preset')}</label>
      <select id="create-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
        {PRESETS.map((p) => (
          <option key={p.name} value={p.name}>
            {t('create.presetOption', { preset: presetLabel(p.name), count: p.players })}
          </option>
        ))}
      </select>
      <fieldset>
        <legend>{t('create.who')}</legend>
        <label className="inline">
          <input type="radio" name="visibility" checked={visibility === 'public'} onChange={() => setVisibility('public')} /> {t('create.public')}
        </label>
        <label className="inline">
          <input type="radio" name="visibility" checked={visibility === 'unlisted'} onChange={() => setVisibility('unlisted')} /> {t('create.unlisted')}
        </label>
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={rated} onChange={(e) => setRated(e.target.checked)} /> {t('create.rated')}
      </label>
      <label className="inline">
        <input type="checkbox" checked={spectatorsSeeTableChat} onChange={(e) => setSpectatorsSeeTableChat(e.target.checked)} /> {t('create.spectatorsRead')}
      </label>
      <RuleOptionsFields idPrefix="create" family={family} options={game} />
      <TimeControlFields idPrefix="create" options={game} />
      <button type="submit" disabled={busy}>
        {t('create.submit')}
      </button>
    </form>
  );
}
