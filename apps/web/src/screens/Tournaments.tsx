import { presetInfo } from '@mizerka/rules';
import { useTranslation } from 'react-i18next';
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
import i18n from '../i18n';
import { PRESETS, presetLabel } from '../terms';
import { formatName, RUNNING_FORMATS } from '../tournament-view';
import { ErrorText, formatDate, LoadState } from '../ui';

type StatusFilter = '' | 'open' | 'running' | 'finished' | 'cancelled';

/** Tournaments: the public ones by status, the caller's own, and a form to create one. */
export function TournamentsScreen() {
  const { t } = useTranslation('tournaments');
  const token = useToken();
  const [status, setStatus] = useState<StatusFilter>('');
  const open = useLoad(() => request(TournamentsDocument, { status: status || null }, token).then((r) => r.tournaments.items), [status, token]);
  const mine = useLoad(() => request(MyTournamentsDocument, {}, token).then((r) => r.myTournaments.items), [token]);

  return (
    <>
      <h1>{t('title')}</h1>
      <div className="columns">
        <div className="grow">
          <section className="panel" aria-labelledby="my-tournaments">
            <h2 id="my-tournaments">{t('mine')}</h2>
            <LoadState error={mine.error} loading={!mine.data} what={t('mineLoading')}>
              {mine.data && (mine.data.length === 0 ? <p className="muted">{t('mineNone')}</p> : <TournamentList items={mine.data} caption={t('mine')} />)}
            </LoadState>
          </section>
          <section className="panel" aria-labelledby="public-tournaments">
            <h2 id="public-tournaments">{t('public')}</h2>
            <div className="filters">
              <span className="filter">
                <label htmlFor="tournament-status">{t('status')}</label>
                <select id="tournament-status" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
                  <option value="">{t('all')}</option>
                  <option value="open">{t('statusName.open')}</option>
                  <option value="running">{t('statusName.running')}</option>
                  <option value="finished">{t('statusName.finished')}</option>
                  <option value="cancelled">{t('statusName.cancelled')}</option>
                </select>
              </span>
              <button type="button" className="secondary" onClick={() => (open.reload(), mine.reload())}>
                {t('common:refresh')}
              </button>
            </div>
            <LoadState error={open.error} loading={!open.data} what={t('loading')}>
              {open.data && (open.data.length === 0 ? <p className="muted">{t('none')}</p> : <TournamentList items={open.data} caption={t('public')} />)}
            </LoadState>
          </section>
        </div>
        <CreateTournament token={token} />
      </div>
    </>
  );
}

export function statusText(t: Pick<TournamentFieldsFragment, 'status' | 'round' | 'rounds'>): string {
  if (t.status === 'running') return t.rounds ? i18n.t('tournaments:runningRoundOf', { round: t.round, rounds: t.rounds }) : i18n.t('tournaments:runningRound', { round: t.round });
  return i18n.t(`tournaments:statusName.${t.status}`, { defaultValue: t.status });
}

function TournamentList({ items, caption }: { items: TournamentFieldsFragment[]; caption: string }) {
  const { t } = useTranslation('tournaments');
  return (
    <table className="list">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('name')}</th>
          <th scope="col">{t('format')}</th>
          <th scope="col">{t('players')}</th>
          <th scope="col">{t('status')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id}>
            <td>
              <a href={href.tournament(item.id)}>{item.name}</a>
            </td>
            <td>
              {formatName(item.format)}, {item.preset}
            </td>
            <td>
              {t('ofMax', { n: item.players.filter((p) => !p.withdrawnAt).length, max: item.maxPlayers })}
            </td>
            <td>
              {statusText(item)}
              {item.status === 'open' && item.startsAt ? `, ${t('starts', { date: formatDate(item.startsAt) })}` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateTournament({ token }: { token: string }) {
  const { t } = useTranslation('tournaments');
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
      <h2 id="create-tournament">{t('create.title')}</h2>
      <ErrorText error={error} />
      <label htmlFor="tournament-name">{t('name')}</label>
      <input id="tournament-name" required minLength={1} maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="tournament-preset">{t('create.preset')}</label>
      <select id="tournament-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
        {PRESETS.map((p) => (
          <option key={p.name} value={p.name}>
            {t('create.presetOption', { preset: presetLabel(p.name), count: p.players })}
          </option>
        ))}
      </select>
      <label htmlFor="tournament-format">{t('format')}</label>
      <select id="tournament-format" value={format} onChange={(e) => setFormat(e.target.value as typeof format)} aria-describedby="tournament-format-hint">
        {RUNNING_FORMATS.map((f) => (
          <option key={f} value={f}>
            {formatName(f)}
          </option>
        ))}
      </select>
      <p id="tournament-format-hint" className="hint">
        {t(`create.formatHint.${format}`)}
      </p>
      {(format === 'swiss' || format === 'duplicate') && (
        <>
          <label htmlFor="tournament-rounds">{format === 'duplicate' ? t('create.boards') : t('create.rounds')}</label>
          <input id="tournament-rounds" type="number" min={1} max={30} required value={rounds} onChange={(e) => setRounds(Number(e.target.value))} />
        </>
      )}
      {format === 'arena' ? (
        <>
          <label htmlFor="tournament-arena-minutes">{t('create.arenaMinutes')}</label>
          <input id="tournament-arena-minutes" type="number" min={1} max={1440} required value={arenaMinutes} onChange={(e) => setArenaMinutes(Number(e.target.value))} />
          <label className="inline">
            <input type="checkbox" checked={arenaStreak} onChange={(e) => setArenaStreak(e.target.checked)} /> {t('create.streaks')}
          </label>
        </>
      ) : (
        <>
          <label htmlFor="tournament-round-minutes">{t('create.roundMinutes')}</label>
          <input id="tournament-round-minutes" type="number" min={0} value={roundMinutes} onChange={(e) => setRoundMinutes(Number(e.target.value))} />
        </>
      )}
      <label htmlFor="tournament-min">{t('create.minPlayers', { n: info?.players ?? 3 })}</label>
      <input id="tournament-min" type="number" min={0} max={512} value={minPlayers} onChange={(e) => setMinPlayers(Number(e.target.value))} />
      <label htmlFor="tournament-max">{t('create.maxPlayers')}</label>
      <input id="tournament-max" type="number" min={1} max={512} value={maxPlayers} onChange={(e) => setMaxPlayers(Number(e.target.value))} />
      <label htmlFor="tournament-starts">{t('create.startsAt')}</label>
      <input id="tournament-starts" type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
      <fieldset>
        <legend>{t('create.who')}</legend>
        <label className="inline">
          <input type="radio" name="tournament-visibility" checked={visibility === 'public'} onChange={() => setVisibility('public')} /> {t('create.public')}
        </label>
        <label className="inline">
          <input type="radio" name="tournament-visibility" checked={visibility === 'invite'} onChange={() => setVisibility('invite')} /> {t('create.invite')}
        </label>
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={rated} onChange={(e) => setRated(e.target.checked)} /> {t('create.rated')}
      </label>
      <label className="inline">
        <input type="checkbox" checked={vacationAllowed} onChange={(e) => setVacationAllowed(e.target.checked)} /> {t('create.vacation')}
      </label>
      <label htmlFor="tournament-bots">{t('create.bots')}</label>
      <select id="tournament-bots" value={botLevel} onChange={(e) => setBotLevel(e.target.value)}>
        <option value="">{t('create.botsNone')}</option>
        <option value="random">{t('create.botsRandom')}</option>
        <option value="basic">{t('create.botsBasic')}</option>
        <option value="strong">{t('create.botsStrong')}</option>
      </select>
      <RuleOptionsFields idPrefix="tournament" family={family} options={game} />
      <TimeControlFields idPrefix="tournament" options={game} />
      <label className="inline">
        <input type="checkbox" checked={enter} onChange={(e) => setEnter(e.target.checked)} /> {t('create.enter')}
      </label>
      <button type="submit" disabled={busy}>
        {t('create.submit')}
      </button>
    </form>
  );
}

