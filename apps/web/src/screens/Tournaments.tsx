import { presetInfo } from '@mizerka/rules';
import { useState, type FormEvent } from 'react';
import { describeError, request } from '../api';
import {
  CreateTournamentDocument,
  JoinTournamentDocument,
  MyTournamentsDocument,
  TournamentsDocument,
  type CreateTournamentInput,
  type TournamentFieldsFragment,
} from '../gql/graphql';
import { RuleOptionsFields, TimeControlFields, useGameOptions } from '../components/GameOptionsFields';
import { useLoad } from '../hooks';
import { href, navigate } from '../router';
import { useToken } from '../session';
import { PRESETS } from '../terms';
import { formatName, RUNNING_FORMATS } from '../tournament-view';
import { ErrorText, formatDate, LoadState } from '../ui';

type StatusFilter = '' | 'open' | 'running' | 'finished' | 'cancelled';

/** Tournaments: the public ones by status, the caller's own, and a form to create one. */
export function TournamentsScreen() {
  const token = useToken();
  const [status, setStatus] = useState<StatusFilter>('');
  const open = useLoad(() => request(TournamentsDocument, { status: status || null }, token).then((r) => r.tournaments.items), [status, token]);
  const mine = useLoad(() => request(MyTournamentsDocument, {}, token).then((r) => r.myTournaments.items), [token]);

  return (
    <>
      <h1>Tournaments</h1>
      <div className="columns">
        <div className="grow">
          <section className="panel" aria-labelledby="my-tournaments">
            <h2 id="my-tournaments">Your tournaments</h2>
            <LoadState error={mine.error} loading={!mine.data} what="your tournaments">
              {mine.data && (mine.data.length === 0 ? <p className="muted">You have entered none yet.</p> : <TournamentList items={mine.data} caption="Your tournaments" />)}
            </LoadState>
          </section>
          <section className="panel" aria-labelledby="public-tournaments">
            <h2 id="public-tournaments">Public tournaments</h2>
            <div className="filters">
              <span className="filter">
                <label htmlFor="tournament-status">Status</label>
                <select id="tournament-status" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
                  <option value="">all</option>
                  <option value="open">open for entries</option>
                  <option value="running">running</option>
                  <option value="finished">finished</option>
                  <option value="cancelled">cancelled</option>
                </select>
              </span>
              <button type="button" className="secondary" onClick={() => (open.reload(), mine.reload())}>
                Refresh
              </button>
            </div>
            <LoadState error={open.error} loading={!open.data} what="tournaments">
              {open.data && (open.data.length === 0 ? <p className="muted">No tournament matches. Create one!</p> : <TournamentList items={open.data} caption="Public tournaments" />)}
            </LoadState>
          </section>
        </div>
        <CreateTournament token={token} />
      </div>
    </>
  );
}

export function statusText(t: Pick<TournamentFieldsFragment, 'status' | 'round' | 'rounds'>): string {
  if (t.status === 'running') return `running, round ${t.round}${t.rounds ? ` of ${t.rounds}` : ''}`;
  if (t.status === 'open') return 'open for entries';
  return t.status;
}

function TournamentList({ items, caption }: { items: TournamentFieldsFragment[]; caption: string }) {
  return (
    <table className="list">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Format</th>
          <th scope="col">Players</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {items.map((t) => (
          <tr key={t.id}>
            <td>
              <a href={href.tournament(t.id)}>{t.name}</a>
            </td>
            <td>
              {formatName(t.format)}, {t.preset}
            </td>
            <td>
              {t.players.filter((p) => !p.withdrawnAt).length} of {t.maxPlayers}
            </td>
            <td>
              {statusText(t)}
              {t.status === 'open' && t.startsAt ? `, starts ${formatDate(t.startsAt)}` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateTournament({ token }: { token: string }) {
  const [name, setName] = useState('');
  const [preset, setPreset] = useState('short');
  const [format, setFormat] = useState<(typeof RUNNING_FORMATS)[number]>('round-robin');
  const [rounds, setRounds] = useState(3);
  const [roundMinutes, setRoundMinutes] = useState(0);
  const [arenaMinutes, setArenaMinutes] = useState(60);
  const [arenaStreak, setArenaStreak] = useState(false);
  const [minPlayers, setMinPlayers] = useState(0);
  const [maxPlayers, setMaxPlayers] = useState(64);
  const [startsAt, setStartsAt] = useState('');
  const [visibility, setVisibility] = useState<'public' | 'invite'>('public');
  const [rated, setRated] = useState(false);
  const [botLevel, setBotLevel] = useState('');
  const [vacationAllowed, setVacationAllowed] = useState(true);
  const [enter, setEnter] = useState(true);
  const game = useGameOptions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const info = presetInfo(preset);
  const family = info?.family;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    // Options left at their defaults are left out: the server reads an explicit null as a value.
    const input: CreateTournamentInput = {
      name: name.trim(),
      preset,
      format,
      options: game.ruleOptions(family),
      maxPlayers,
      visibility,
      rated,
      vacationAllowed,
    };
    const formatOptions =
      format === 'arena'
        ? { minutes: arenaMinutes, ...(arenaStreak ? { arenaStreak } : {}) }
        : { ...(format === 'swiss' || format === 'duplicate' ? { rounds } : {}), ...(roundMinutes > 0 ? { roundMinutes } : {}) };
    if (Object.keys(formatOptions).length > 0) input.formatOptions = formatOptions;
    if (minPlayers > 0) input.minPlayers = minPlayers;
    if (startsAt) input.startsAt = new Date(startsAt).toISOString();
    if (botLevel) input.botLevel = botLevel;
    const timeControl = game.timeControl();
    if (timeControl) input.timeControl = timeControl;
    try {
      const { createTournament } = await request(CreateTournamentDocument, { input }, token);
      const code = createTournament.inviteCode ?? undefined;
      // The creator is not entered by the creation; entering is a join like anyone's.
      if (enter) await request(JoinTournamentDocument, { id: createTournament.id, inviteCode: code ?? null }, token);
      navigate(href.tournament(createTournament.id, code));
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };

  return (
    <form className="panel" onSubmit={create} aria-labelledby="create-tournament">
      <h2 id="create-tournament">Create a tournament</h2>
      <ErrorText error={error} />
      <label htmlFor="tournament-name">Name</label>
      <input id="tournament-name" required minLength={1} maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="tournament-preset">Preset</label>
      <select id="tournament-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
        {PRESETS.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name} ({p.players} players a table)
          </option>
        ))}
      </select>
      <label htmlFor="tournament-format">Format</label>
      <select id="tournament-format" value={format} onChange={(e) => setFormat(e.target.value as typeof format)} aria-describedby="tournament-format-hint">
        {RUNNING_FORMATS.map((f) => (
          <option key={f} value={f}>
            {formatName(f)}
          </option>
        ))}
      </select>
      <p id="tournament-format-hint" className="hint">
        {format === 'swiss'
          ? 'Swiss: each round seats players of similar scores together, avoiding repeated table-mates.'
          : format === 'duplicate'
            ? 'Duplicate: every table plays the same cards in each round (a board); results are compared among those who held the same cards. Two tables at least.'
            : format === 'arena'
              ? 'Arena: for a time window, players sit down again as soon as their game ends, with others of similar score; points by place.'
              : 'Round-robin: everyone meets everyone at tables as evenly as possible.'}
      </p>
      {(format === 'swiss' || format === 'duplicate') && (
        <>
          <label htmlFor="tournament-rounds">{format === 'duplicate' ? 'Boards (one round each)' : 'Rounds'}</label>
          <input id="tournament-rounds" type="number" min={1} max={30} required value={rounds} onChange={(e) => setRounds(Number(e.target.value))} />
        </>
      )}
      {format === 'arena' ? (
        <>
          <label htmlFor="tournament-arena-minutes">Minutes the arena lasts</label>
          <input id="tournament-arena-minutes" type="number" min={1} max={1440} required value={arenaMinutes} onChange={(e) => setArenaMinutes(Number(e.target.value))} />
          <label className="inline">
            <input type="checkbox" checked={arenaStreak} onChange={(e) => setArenaStreak(e.target.checked)} /> Streaks: after two wins in a row, games count double
          </label>
        </>
      ) : (
        <>
          <label htmlFor="tournament-round-minutes">Minutes a round may last (0: no deadline)</label>
          <input id="tournament-round-minutes" type="number" min={0} value={roundMinutes} onChange={(e) => setRoundMinutes(Number(e.target.value))} />
        </>
      )}
      <label htmlFor="tournament-min">Players to start (0: one table, {info?.players ?? 3})</label>
      <input id="tournament-min" type="number" min={0} max={512} value={minPlayers} onChange={(e) => setMinPlayers(Number(e.target.value))} />
      <label htmlFor="tournament-max">Most players</label>
      <input id="tournament-max" type="number" min={1} max={512} value={maxPlayers} onChange={(e) => setMaxPlayers(Number(e.target.value))} />
      <label htmlFor="tournament-starts">Starts at (empty: once enough players have joined)</label>
      <input id="tournament-starts" type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
      <fieldset>
        <legend>Who may enter</legend>
        <label className="inline">
          <input type="radio" name="tournament-visibility" checked={visibility === 'public'} onChange={() => setVisibility('public')} /> Public: listed here
        </label>
        <label className="inline">
          <input type="radio" name="tournament-visibility" checked={visibility === 'invite'} onChange={() => setVisibility('invite')} /> With an invite code
        </label>
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={rated} onChange={(e) => setRated(e.target.checked)} /> Rated
      </label>
      <label className="inline">
        <input type="checkbox" checked={vacationAllowed} onChange={(e) => setVacationAllowed(e.target.checked)} /> A vacation stops the clocks
      </label>
      <label htmlFor="tournament-bots">Bots fill the field at the start</label>
      <select id="tournament-bots" value={botLevel} onChange={(e) => setBotLevel(e.target.value)}>
        <option value="">no bots</option>
        <option value="random">random bots</option>
        <option value="basic">basic bots</option>
        <option value="strong">strong bots</option>
      </select>
      <RuleOptionsFields idPrefix="tournament" family={family} options={game} />
      <TimeControlFields idPrefix="tournament" options={game} />
      <label className="inline">
        <input type="checkbox" checked={enter} onChange={(e) => setEnter(e.target.checked)} /> Enter it myself
      </label>
      <button type="submit" disabled={busy}>
        Create tournament
      </button>
    </form>
  );
}

