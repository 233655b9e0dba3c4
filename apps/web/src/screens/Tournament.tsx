import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, request, subscribe } from '../api';
import { JoinTournamentDocument, MeDocument, MyEventsDocument, TournamentDocument, WithdrawFromTournamentDocument, type TournamentQuery } from '../gql/graphql';
import { useLoad } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { formatNumber } from '../i18n';
import { ordinal } from '../terms';
import { boardComparison, formatName, namesOf, nextGame, percentOfTops, points, tieBreakWords, type Board, type Rounds } from '../tournament-view';
import { ErrorText, formatDate, LoadState, tempo } from '../ui';
import { statusText } from './Tournaments';

type Tournament = TournamentQuery['tournament'];
type Name = (id: string) => string;

/** A tournament: what it is, joining and withdrawing, your next game, the standings, a duplicate's boards and the rounds' tables. */
export function TournamentScreen({ tournamentId, inviteCode }: { tournamentId: string; inviteCode: string }) {
  const { t: tr } = useTranslation('tournaments');
  const token = useToken();
  const data = useLoad(() => request(TournamentDocument, { id: tournamentId }, token), [tournamentId, token]);
  const me = useLoad(() => request(MeDocument, {}, token).then((r) => r.me), [token]);
  const { reload } = data;

  // Live for an entrant (tournamentUpdated and the games' starts reach the player's feed), with a
  // slow poll for a spectator, whose feed carries none of it.
  useEffect(() => {
    const stop = subscribe(MyEventsDocument, {}, token, { next: () => reload() });
    const timer = setInterval(reload, 5000);
    return () => (stop(), clearInterval(timer));
  }, [token, reload]);

  return (
    <LoadState error={data.error} loading={!data.data || !me.data} what={tr('tournament.loading')}>
      {data.data && me.data && (
        <TournamentDetails tournament={data.data.tournament} rounds={data.data.tournamentRounds} myId={me.data.id} inviteCode={inviteCode} token={token} onChange={reload} />
      )}
    </LoadState>
  );
}

function TournamentDetails({
  tournament: t,
  rounds,
  myId,
  inviteCode,
  token,
  onChange,
}: {
  tournament: Tournament;
  rounds: Rounds;
  myId: string;
  inviteCode: string;
  token: string;
  onChange: () => void;
}) {
  const { t: tr } = useTranslation('tournaments');
  const name = namesOf(t.entrantPlayers);
  const entry = t.players.find((p) => p.playerId === myId);
  const entered = !!entry && !entry.withdrawnAt;
  const active = t.players.filter((p) => !p.withdrawnAt);

  return (
    <>
      <h1>{tr('tournament.title', { name: t.name })}</h1>
      <p>
        {[
          t.rounds ? tr('tournament.formatRounds', { format: formatName(t.format), count: t.rounds }) : formatName(t.format),
          tr('tournament.tables', { preset: t.preset, size: t.tableSize }),
          tempo(t.timeControl),
          ...(t.roundMinutes ? [tr('tournament.roundMinutes', { count: t.roundMinutes })] : []),
          t.rated ? tr('tournament.rated') : tr('tournament.unrated'),
          t.visibility === 'invite' ? tr('tournament.byInvitation') : tr('tournament.public'),
          ...(t.vacationAllowed ? [] : [tr('tournament.noVacations')]),
          ...(t.botLevel ? [tr('tournament.botsFill', { level: tr(`tournament.botLevel.${t.botLevel}`, { defaultValue: t.botLevel }) })] : []),
        ].join(tr('tournament.separator'))}
        {tr('tournament.end')}
      </p>
      <p role="status">
        <strong>{statusText(t)}</strong>
        {t.status === 'open' &&
          (t.startsAt
            ? `: ${tr('starts', { date: formatDate(t.startsAt) })}`
            : `: ${tr('tournament.startsOnce', { min: t.minPlayers, joined: active.length, max: t.maxPlayers })}`)}
        {t.status === 'finished' && t.finishedAt ? ` ${formatDate(t.finishedAt)}` : ''}
        {tr('tournament.end')}
      </p>
      {inviteCode && t.status === 'open' && <InvitePanel tournamentId={t.id} inviteCode={inviteCode} />}
      <EntryActions tournament={t} entered={entered} inviteCode={inviteCode} token={token} onChange={onChange} />
      {entered && <YourNextGame tournament={t} rounds={rounds} myId={myId} />}
      {t.status === 'open' ? <Entrants tournament={t} name={name} myId={myId} /> : <StandingsTable tournament={t} name={name} myId={myId} />}
      {t.format === 'duplicate' && t.boards.length > 0 && <BoardList boards={t.boards} name={name} myId={myId} />}
      {rounds.length > 0 && <RoundList rounds={rounds} name={name} myId={myId} />}
    </>
  );
}

function InvitePanel({ tournamentId, inviteCode }: { tournamentId: string; inviteCode: string }) {
  const { t: tr } = useTranslation('tournaments');
  const [copied, setCopied] = useState(false);
  const link = `${location.origin}/${href.tournament(tournamentId, inviteCode)}`;
  return (
    <section className="panel" aria-labelledby="tournament-invite">
      <h2 id="tournament-invite">{tr('invite.title')}</h2>
      <label htmlFor="tournament-invite-link">{tr('invite.link')}</label>
      <div className="row">
        <input id="tournament-invite-link" readOnly value={link} onFocus={(e) => e.target.select()} />
        <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => setCopied(false))}>
          {tr('common:copy')}
        </button>
      </div>
      <p role="status" className="hint">
        {copied ? tr('common:copied') : tr('invite.code', { code: inviteCode })}
      </p>
    </section>
  );
}

function EntryActions({ tournament: t, entered, inviteCode, token, onChange }: { tournament: Tournament; entered: boolean; inviteCode: string; token: string; onChange: () => void }) {
  const { t: tr } = useTranslation('tournaments');
  const [code, setCode] = useState(inviteCode);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
      setConfirming(false);
      onChange();
    }
  };
  const join = () => act(() => request(JoinTournamentDocument, { id: t.id, inviteCode: code.trim() || null }, token));
  const withdraw = () => act(() => request(WithdrawFromTournamentDocument, { id: t.id }, token));
  const canJoin = !entered && t.status === 'open';
  const canWithdraw = entered && (t.status === 'open' || t.status === 'running');
  if (!canJoin && !canWithdraw) return <ErrorText error={error} />;

  return (
    <section className="panel" aria-labelledby="tournament-entry">
      <h2 id="tournament-entry">{entered ? tr('entry.yours') : tr('entry.enter')}</h2>
      <ErrorText error={error} />
      {canJoin && (
        <form onSubmit={(e) => (e.preventDefault(), void join())}>
          {t.visibility === 'invite' && (
            <>
              <label htmlFor="tournament-code">{tr('invite.codeLabel')}</label>
              <input id="tournament-code" required value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" />
            </>
          )}
          <div className="actions">
            <button type="submit" disabled={busy}>
              {tr('entry.join')}
            </button>
          </div>
        </form>
      )}
      {canWithdraw && t.status === 'open' && (
        <div className="actions">
          <p>{tr('entry.entered')}</p>
          <button type="button" className="secondary" disabled={busy} onClick={() => void withdraw()}>
            {tr('entry.withdraw')}
          </button>
        </div>
      )}
      {canWithdraw && t.status === 'running' && (
        <div className="actions">
          {confirming ? (
            <>
              <p id="withdraw-warning">{tr('entry.warning')}</p>
              <button type="button" className="secondary" disabled={busy} aria-describedby="withdraw-warning" onClick={() => void withdraw()}>
                {tr('entry.withdrawForfeit')}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(false)}>
                {tr('entry.stay')}
              </button>
            </>
          ) : (
            <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(true)}>
              {tr('entry.withdrawAsk')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function YourNextGame({ tournament: t, rounds, myId }: { tournament: Tournament; rounds: Rounds; myId: string }) {
  const { t: tr } = useTranslation('tournaments');
  const next = nextGame(rounds, myId, t.status);
  if (next.kind === 'none') return null;
  return (
    <section className="panel" aria-labelledby="tournament-next">
      <h2 id="tournament-next">{tr('next.title')}</h2>
      {next.kind === 'play' && (
        <p>
          {tr('next.play', { round: next.round, table: next.table + 1 })} <a href={href.table(next.gameId)}>{tr('next.go')}</a>
        </p>
      )}
      {next.kind === 'bye' && <p>{tr('next.bye', { round: next.round })}</p>}
      {next.kind === 'wait' && <p>{tr('next.wait', { round: next.round })}</p>}
    </section>
  );
}

function Entrants({ tournament: t, name, myId }: { tournament: Tournament; name: Name; myId: string }) {
  const { t: tr } = useTranslation('tournaments');
  const active = t.players.filter((p) => !p.withdrawnAt);
  return (
    <section className="panel" aria-labelledby="tournament-entrants">
      <h2 id="tournament-entrants">{tr('entrants.title', { n: active.length })}</h2>
      {active.length === 0 ? (
        <p className="muted">{tr('entrants.none')}</p>
      ) : (
        <ul>
          {active.map((p) => (
            <li key={p.playerId}>
              {name(p.playerId)}
              {p.bot ? ` ${tr('botMark')}` : ''}
              {p.playerId === myId ? ` ${tr('youMark')}` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StandingsTable({ tournament: t, name, myId }: { tournament: Tournament; name: Name; myId: string }) {
  const { t: tr } = useTranslation('tournaments');
  const withdrawn = new Set(t.players.filter((p) => p.withdrawnAt).map((p) => p.playerId));
  return (
    <section className="panel" aria-labelledby="tournament-standings">
      <h2 id="tournament-standings">{tr('standings.title')}</h2>
      <p className="hint" id="tournament-tiebreaks">
        {tr('standings.hint', { size: t.tableSize, first: t.tableSize - 1, bye: points((t.tableSize - 1) / 2), tieBreaks: t.tieBreaks.map((name) => tieBreakWords(name).long).join(tr('standings.then')) })}
      </p>
      {/* Focusable: a keyboard scrolls the table sideways on a phone. */}
      <div className="scroll-x" tabIndex={0} role="region" aria-label={tr('standings.table')}>
        <table className="list tournament-standings" aria-describedby="tournament-tiebreaks">
          <caption className="sr-only">{tr('standings.caption', { name: t.name })}</caption>
          <thead>
            <tr>
              <th scope="col">{tr('standings.rank')}</th>
              <th scope="col">{tr('player')}</th>
              <th scope="col">{tr('standings.points')}</th>
              <th scope="col">{tr('standings.games')}</th>
              {t.tieBreaks.map((name, i) => (
                <th key={name} scope="col">
                  <abbr title={tr('standings.tieBreakTitle', { n: i + 1, words: tieBreakWords(name).long })}>{tieBreakWords(name).short}</abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {t.standings.map((s) => (
              <tr key={s.playerId} data-player={name(s.playerId)} aria-current={s.playerId === myId ? 'true' : undefined}>
                <td>{s.rank}</td>
                <th scope="row">
                  {name(s.playerId)}
                  {s.bot && <span className="badge">{tr('standings.bot')}</span>}
                  {withdrawn.has(s.playerId) && <span className="badge">{tr('standings.withdrawn')}</span>}
                  {s.playerId === myId && <span className="sr-only"> {tr('youMark')}</span>}
                </th>
                <td>{points(s.points)}</td>
                <td>
                  {s.games}
                  {s.byes ? ` + ${tr('standings.byes', { count: s.byes })}` : ''}
                </td>
                {s.tieBreaks.map((value, i) => (
                  <td key={t.tieBreaks[i] ?? i}>{points(value)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * Duplicate: each board's seed hash from the creation (the cards were fixed then), and once every
 * table has finished it the seed and, per seat position, the results compared among those who held
 * the same cards.
 */
function BoardList({ boards, name, myId }: { boards: readonly Board[]; name: Name; myId: string }) {
  const { t: tr } = useTranslation('tournaments');
  return (
    <section aria-labelledby="tournament-boards">
      <h2 id="tournament-boards">{tr('boards.title')}</h2>
      <p className="hint">
        {tr('boards.hint')}
      </p>
      {boards.map((board) => (
        <section key={board.number} className="panel" aria-labelledby={`board-${board.number}`} data-board={board.number}>
          <h3 id={`board-${board.number}`}>
            {tr('boards.board', { n: board.number })}: {board.released ? tr('boards.released') : tr('boards.notReleased')}
          </h3>
          <dl className="board-seed">
            <dt>{tr('boards.seedHash')}</dt>
            <dd>
              <code>{board.seedHash}</code>
            </dd>
            {board.seed && (
              <>
                <dt>{tr('boards.seed')}</dt>
                <dd>
                  <code>{board.seed}</code>
                </dd>
              </>
            )}
          </dl>
          {board.released && board.results ? (
            boardComparison(board.results).map(({ position, results }) => {
              const label = tr('boards.position', { n: board.number, seat: position + 1 });
              return (
                // Focusable: a keyboard scrolls the table sideways on a phone.
                <div key={position} className="scroll-x" tabIndex={0} role="region" aria-label={tr('boards.comparison', { label })}>
                  <table className="list board-comparison">
                    <caption>
                      {tr('boards.caption', { label })}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">{tr('player')}</th>
                        <th scope="col">{tr('boards.score')}</th>
                        <th scope="col">{tr('boards.matchpoints')}</th>
                        <th scope="col">
                          <abbr title={tr('boards.topsTitle')}>{tr('boards.tops')}</abbr>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {results.map((r) => (
                        <tr key={r.playerId} data-player={name(r.playerId)} aria-current={r.playerId === myId ? 'true' : undefined}>
                          <th scope="row">
                            {name(r.playerId)}
                            {r.playerId === myId && <span className="sr-only"> {tr('youMark')}</span>}
                          </th>
                          <td>{formatNumber(r.score)}</td>
                          <td>
                            {tr('boards.ofTops', { mp: points(r.matchpoints), tops: points(r.tops) })}
                          </td>
                          <td>{percentOfTops(r.percent)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              );
            })
          ) : (
            <p className="muted">{tr('boards.later')}</p>
          )}
        </section>
      ))}
    </section>
  );
}

function RoundList({ rounds, name, myId }: { rounds: Rounds; name: Name; myId: string }) {
  const { t: tr } = useTranslation('tournaments');
  const newest = [...rounds].sort((a, b) => b.number - a.number);
  return (
    <section aria-labelledby="tournament-rounds">
      <h2 id="tournament-rounds">{tr('rounds.title')}</h2>
      {newest.map((round) => (
        <section key={round.number} className="panel" aria-labelledby={`round-${round.number}`}>
          <h3 id={`round-${round.number}`}>
            {tr('rounds.round', { n: round.number })}: {round.status === 'running' ? tr('rounds.running') : tr('rounds.finished')}
          </h3>
          <p className="hint">
            {tr('rounds.started', { date: formatDate(round.startedAt) })}
            {round.finishedAt ? `, ${tr('rounds.finishedAt', { date: formatDate(round.finishedAt) })}` : round.deadline ? `, ${tr('rounds.deadline', { date: formatDate(round.deadline) })}` : ''}
            {tr('tournament.end')}
            {round.byes.length > 0 && ` ${tr('rounds.bye', { names: round.byes.map(name).join(', ') })}`}
          </p>
          <ul className="tournament-tables">
            {round.tables.map(({ table: index, ...table }) => ({ ...table, table: index + 1 })).map((table) => (
              <li key={table.table} data-game={table.gameId}>
                <h4>
                  {table.board !== null ? tr('rounds.tableBoard', { n: table.table, board: table.board }) : tr('rounds.table', { n: table.table })}:{' '}
                  {table.status === 'finished' ? tr('rounds.over') : tr('rounds.playing')}
                </h4>
                <ol aria-label={tr('rounds.bySeat', { n: table.table })}>
                  {table.players.map((id, seat) => (
                    <li key={id}>
                      {name(id)}
                      {id === myId ? ` ${tr('youMark')}` : ''}: {formatNumber(table.totals[seat] ?? 0)}
                      {table.places ? `, ${ordinal(table.places[seat])}` : ''}
                    </li>
                  ))}
                </ol>
                <p>
                  {table.status === 'finished' ? (
                    <>
                      <a href={href.scores(table.gameId)}>{tr('rounds.scoreSheet', { n: table.table })}</a> · <a href={href.replay(table.gameId)}>{tr('rounds.replay')}</a>
                    </>
                  ) : (
                    <a href={href.table(table.gameId)}>{table.players.includes(myId) ? tr('rounds.playAt', { n: table.table }) : tr('rounds.watch', { n: table.table })}</a>
                  )}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
