import { presetInfo } from '@mizerka/rules';
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
import { PRESETS } from '../terms';
import { ErrorText, LoadState, tempo } from '../ui';

type Tempo = 'any' | 'untimed' | 'timed';

export function LobbiesScreen() {
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
      <h1>Lobbies</h1>
      <div className="columns">
        <section className="panel grow" aria-labelledby="open-lobbies">
          <h2 id="open-lobbies">Open tables</h2>
          <div className="filters">
            <span className="filter">
              <label htmlFor="filter-preset">Preset</label>
              <select id="filter-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
                <option value="">all</option>
                {PRESETS.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}
                  </option>
                ))}
              </select>
            </span>
            <span className="filter">
              <label htmlFor="filter-tempo">Tempo</label>
              <select id="filter-tempo" value={tempoFilter} onChange={(e) => setTempoFilter(e.target.value as Tempo)}>
                <option value="any">any</option>
                <option value="untimed">untimed</option>
                <option value="timed">with a move clock</option>
              </select>
            </span>
            <button type="button" className="secondary" onClick={lobbies.reload}>
              Refresh
            </button>
          </div>
          <LoadState error={lobbies.error} loading={lobbies.loading && !lobbies.data} what="lobbies">
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
  if (lobbies.length === 0) return <p className="muted">No open table matches. Create one!</p>;
  return (
    <table className="list">
      <caption className="sr-only">Open lobbies</caption>
      <thead>
        <tr>
          <th scope="col">Preset</th>
          <th scope="col">Host</th>
          <th scope="col">Seats</th>
          <th scope="col">Tempo</th>
          <th scope="col">
            <span className="sr-only">Open</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {lobbies.map((lobby) => (
          <tr key={lobby.id}>
            <td>
              {lobby.preset}
              {lobby.rated ? '' : ' (unrated)'}
            </td>
            <td>{lobby.host.name}</td>
            <td>
              {lobby.seatsTaken} of {lobby.players}
            </td>
            <td>{tempo(lobby.timeControl)}</td>
            <td>
              <a href={href.lobby(lobby.id)} aria-label={`Open the ${lobby.preset} lobby of ${lobby.host.name}`}>
                Open
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateLobby({ token }: { token: string }) {
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
      <h2 id="create-lobby">Create a lobby</h2>
      <ErrorText error={error} />
      <label htmlFor="create-preset">Preset</label>
      <select id="create-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
        {PRESETS.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name} ({p.players} players)
          </option>
        ))}
      </select>
      <fieldset>
        <legend>Who may find it</legend>
        <label className="inline">
          <input type="radio" name="visibility" checked={visibility === 'public'} onChange={() => setVisibility('public')} /> Public: listed here
        </label>
        <label className="inline">
          <input type="radio" name="visibility" checked={visibility === 'unlisted'} onChange={() => setVisibility('unlisted')} /> Unlisted: invite link only
        </label>
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={rated} onChange={(e) => setRated(e.target.checked)} /> Rated
      </label>
      <label className="inline">
        <input type="checkbox" checked={spectatorsSeeTableChat} onChange={(e) => setSpectatorsSeeTableChat(e.target.checked)} /> Spectators may read the
        players' chat
      </label>
      <RuleOptionsFields idPrefix="create" family={family} options={game} />
      <TimeControlFields idPrefix="create" options={game} />
      <button type="submit" disabled={busy}>
        Create lobby
      </button>
    </form>
  );
}
