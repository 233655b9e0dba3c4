import { useEffect, useState } from 'react';
import { describeError, request, subscribe } from '../api';
import { JoinTournamentDocument, MeDocument, MyEventsDocument, TournamentDocument, WithdrawFromTournamentDocument, type TournamentQuery } from '../gql/graphql';
import { useLoad } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { ordinal } from '../terms';
import { boardComparison, formatName, namesOf, nextGame, percentOfTops, points, tieBreakWords, type Board, type Rounds } from '../tournament-view';
import { ErrorText, formatDate, LoadState, tempo } from '../ui';
import { statusText } from './Tournaments';

type Tournament = TournamentQuery['tournament'];
type Name = (id: string) => string;

/** A tournament: what it is, joining and withdrawing, your next game, the standings, a duplicate's boards and the rounds' tables. */
export function TournamentScreen({ tournamentId, inviteCode }: { tournamentId: string; inviteCode: string }) {
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
    <LoadState error={data.error} loading={!data.data || !me.data} what="the tournament">
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
  const name = namesOf(t.entrantPlayers);
  const entry = t.players.find((p) => p.playerId === myId);
  const entered = !!entry && !entry.withdrawnAt;
  const active = t.players.filter((p) => !p.withdrawnAt);

  return (
    <>
      <h1>Tournament: {t.name}</h1>
      <p>
        {formatName(t.format)}
        {t.rounds ? ` in ${t.rounds} rounds` : ''}, {t.preset} at tables of {t.tableSize}, {tempo(t.timeControl)}
        {t.roundMinutes ? `, ${t.roundMinutes} minutes a round` : ''}, {t.rated ? 'rated' : 'unrated'}, {t.visibility === 'invite' ? 'by invitation' : 'public'}
        {t.vacationAllowed ? '' : ', no vacations'}
        {t.botLevel ? `, ${t.botLevel} bots fill the field` : ''}.
      </p>
      <p role="status">
        <strong>{statusText(t)}</strong>
        {t.status === 'open' &&
          (t.startsAt
            ? `: starts ${formatDate(t.startsAt)}`
            : `: starts once ${t.minPlayers} have joined (${active.length} so far, at most ${t.maxPlayers})`)}
        {t.status === 'finished' && t.finishedAt ? ` ${formatDate(t.finishedAt)}` : ''}.
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
  const [copied, setCopied] = useState(false);
  const link = `${location.origin}/${href.tournament(tournamentId, inviteCode)}`;
  return (
    <section className="panel" aria-labelledby="tournament-invite">
      <h2 id="tournament-invite">Invite players</h2>
      <label htmlFor="tournament-invite-link">Invite link</label>
      <div className="row">
        <input id="tournament-invite-link" readOnly value={link} onFocus={(e) => e.target.select()} />
        <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => setCopied(false))}>
          Copy
        </button>
      </div>
      <p role="status" className="hint">
        {copied ? 'Copied.' : `Invite code: ${inviteCode}`}
      </p>
    </section>
  );
}

function EntryActions({ tournament: t, entered, inviteCode, token, onChange }: { tournament: Tournament; entered: boolean; inviteCode: string; token: string; onChange: () => void }) {
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
      <h2 id="tournament-entry">{entered ? 'Your entry' : 'Enter'}</h2>
      <ErrorText error={error} />
      {canJoin && (
        <form onSubmit={(e) => (e.preventDefault(), void join())}>
          {t.visibility === 'invite' && (
            <>
              <label htmlFor="tournament-code">Invite code</label>
              <input id="tournament-code" required value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" />
            </>
          )}
          <div className="actions">
            <button type="submit" disabled={busy}>
              Join the tournament
            </button>
          </div>
        </form>
      )}
      {canWithdraw && t.status === 'open' && (
        <div className="actions">
          <p>You are entered.</p>
          <button type="button" className="secondary" disabled={busy} onClick={() => void withdraw()}>
            Withdraw
          </button>
        </div>
      )}
      {canWithdraw && t.status === 'running' && (
        <div className="actions">
          {confirming ? (
            <>
              <p id="withdraw-warning">Withdrawing now forfeits your games under way, and you are paired no more.</p>
              <button type="button" className="secondary" disabled={busy} aria-describedby="withdraw-warning" onClick={() => void withdraw()}>
                Withdraw and forfeit
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(false)}>
                Stay in
              </button>
            </>
          ) : (
            <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(true)}>
              Withdraw…
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function YourNextGame({ tournament: t, rounds, myId }: { tournament: Tournament; rounds: Rounds; myId: string }) {
  const next = nextGame(rounds, myId, t.status);
  if (next.kind === 'none') return null;
  return (
    <section className="panel" aria-labelledby="tournament-next">
      <h2 id="tournament-next">Your next game</h2>
      {next.kind === 'play' && (
        <p>
          Round {next.round}, table {next.table + 1}: <a href={href.table(next.gameId)}>Go to your table</a>
        </p>
      )}
      {next.kind === 'bye' && <p>You sit round {next.round} out (a bye). Your next table comes with the next round.</p>}
      {next.kind === 'wait' && <p>Your game of round {next.round} is over. The next round starts when every table of this one has finished.</p>}
    </section>
  );
}

function Entrants({ tournament: t, name, myId }: { tournament: Tournament; name: Name; myId: string }) {
  const active = t.players.filter((p) => !p.withdrawnAt);
  return (
    <section className="panel" aria-labelledby="tournament-entrants">
      <h2 id="tournament-entrants">Players ({active.length})</h2>
      {active.length === 0 ? (
        <p className="muted">No one has joined yet.</p>
      ) : (
        <ul>
          {active.map((p) => (
            <li key={p.playerId}>
              {name(p.playerId)}
              {p.bot ? ' (bot)' : ''}
              {p.playerId === myId ? ' (you)' : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StandingsTable({ tournament: t, name, myId }: { tournament: Tournament; name: Name; myId: string }) {
  const withdrawn = new Set(t.players.filter((p) => p.withdrawnAt).map((p) => p.playerId));
  return (
    <section className="panel" aria-labelledby="tournament-standings">
      <h2 id="tournament-standings">Standings</h2>
      <p className="hint" id="tournament-tiebreaks">
        Points by place at each table (first of {t.tableSize}: {t.tableSize - 1}, last: 0; a bye {points((t.tableSize - 1) / 2)}). Ties are broken by{' '}
        {t.tieBreaks.map((name) => tieBreakWords(name).long).join(', then ')}; players equal on all of them share a rank.
      </p>
      {/* Focusable: a keyboard scrolls the table sideways on a phone. */}
      <div className="scroll-x" tabIndex={0} role="region" aria-label="Standings table">
        <table className="list tournament-standings" aria-describedby="tournament-tiebreaks">
          <caption className="sr-only">Standings of {t.name}</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Player</th>
              <th scope="col">Points</th>
              <th scope="col">Games</th>
              {t.tieBreaks.map((name, i) => (
                <th key={name} scope="col">
                  <abbr title={`Tie-break ${i + 1}: ${tieBreakWords(name).long}`}>{tieBreakWords(name).short}</abbr>
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
                  {s.bot && <span className="badge">bot</span>}
                  {withdrawn.has(s.playerId) && <span className="badge">withdrawn</span>}
                  {s.playerId === myId && <span className="sr-only"> (you)</span>}
                </th>
                <td>{points(s.points)}</td>
                <td>
                  {s.games}
                  {s.byes ? ` + ${s.byes} ${s.byes === 1 ? 'bye' : 'byes'}` : ''}
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
  return (
    <section aria-labelledby="tournament-boards">
      <h2 id="tournament-boards">Boards</h2>
      <p className="hint">
        Every table of round n plays board n. Each board&apos;s seed was fixed at the creation: its SHA-256 hash is shown from the start, the seed itself once every table has
        finished the board, so anyone can check the cards were not changed.
      </p>
      {boards.map((board) => (
        <section key={board.number} className="panel" aria-labelledby={`board-${board.number}`} data-board={board.number}>
          <h3 id={`board-${board.number}`}>
            Board {board.number}: {board.released ? 'released' : 'not released yet'}
          </h3>
          <dl className="board-seed">
            <dt>Seed hash (SHA-256)</dt>
            <dd>
              <code>{board.seedHash}</code>
            </dd>
            {board.seed && (
              <>
                <dt>Seed</dt>
                <dd>
                  <code>{board.seed}</code>
                </dd>
              </>
            )}
          </dl>
          {board.released && board.results ? (
            boardComparison(board.results).map(({ position, results }) => {
              const label = `Board ${board.number}, seat ${position + 1}`;
              return (
                // Focusable: a keyboard scrolls the table sideways on a phone.
                <div key={position} className="scroll-x" tabIndex={0} role="region" aria-label={`${label} comparison`}>
                  <table className="list board-comparison">
                    <caption>
                      {label}: the same cards at every table
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Player</th>
                        <th scope="col">Score</th>
                        <th scope="col">Matchpoints</th>
                        <th scope="col">
                          <abbr title="Percentage of tops: the matchpoints out of the most possible">% of tops</abbr>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {results.map((r) => (
                        <tr key={r.playerId} data-player={name(r.playerId)} aria-current={r.playerId === myId ? 'true' : undefined}>
                          <th scope="row">
                            {name(r.playerId)}
                            {r.playerId === myId && <span className="sr-only"> (you)</span>}
                          </th>
                          <td>{r.score}</td>
                          <td>
                            {points(r.matchpoints)} of {r.tops}
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
            <p className="muted">The comparison is shown once every table has finished this board.</p>
          )}
        </section>
      ))}
    </section>
  );
}

function RoundList({ rounds, name, myId }: { rounds: Rounds; name: Name; myId: string }) {
  const newest = [...rounds].sort((a, b) => b.number - a.number);
  return (
    <section aria-labelledby="tournament-rounds">
      <h2 id="tournament-rounds">Rounds</h2>
      {newest.map((round) => (
        <section key={round.number} className="panel" aria-labelledby={`round-${round.number}`}>
          <h3 id={`round-${round.number}`}>
            Round {round.number}: {round.status === 'running' ? 'under way' : 'finished'}
          </h3>
          <p className="hint">
            Started {formatDate(round.startedAt)}
            {round.finishedAt ? `, finished ${formatDate(round.finishedAt)}` : round.deadline ? `, deadline ${formatDate(round.deadline)}` : ''}.
            {round.byes.length > 0 && ` Bye: ${round.byes.map(name).join(', ')}.`}
          </p>
          <ul className="tournament-tables">
            {round.tables.map(({ table: index, ...table }) => ({ ...table, table: index + 1 })).map((table) => (
              <li key={table.table} data-game={table.gameId}>
                <h4>
                  Table {table.table}
                  {table.board !== null ? `, board ${table.board}` : ''}: {table.status === 'finished' ? 'over' : 'playing'}
                </h4>
                <ol aria-label={`Table ${table.table} by seat`}>
                  {table.players.map((id, seat) => (
                    <li key={id}>
                      {name(id)}
                      {id === myId ? ' (you)' : ''}: {table.totals[seat] ?? 0}
                      {table.places ? `, ${ordinal(table.places[seat])}` : ''}
                    </li>
                  ))}
                </ol>
                <p>
                  {table.status === 'finished' ? (
                    <>
                      <a href={href.scores(table.gameId)}>Score sheet of table {table.table}</a> · <a href={href.replay(table.gameId)}>Replay</a>
                    </>
                  ) : (
                    <a href={href.table(table.gameId)}>{table.players.includes(myId) ? `Play at table ${table.table}` : `Watch table ${table.table}`}</a>
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
