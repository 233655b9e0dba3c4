import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError, describeError, newIdempotencyKey, request, subscribe } from '../api';
import { Hand } from '../components/Hand';
import { StandingsTable } from '../components/Standings';
import { ChatPanel } from '../components/ChatPanel';
import { CardBack, numberSetting, PlayingCard, setSetting, SETTINGS, TRICK_PAUSES, useSetting } from '../components/PlayingCard';
import { GameDocument, GameLogDocument, MakeMoveDocument, ResignDocument, type GameQuery, type MakeMoveInput } from '../gql/graphql';
import { useLoad, useNow } from '../hooks';
import { currentLanguage, formatDateTime, formatNumber } from '../i18n';
import { href } from '../router';
import { useToken } from '../session';
import { bidName, contractName, contractsOf, dealsInGame, presetLabel as presetName, quotaText } from '../terms';
import { ErrorText, LoadState } from '../ui';
import { cardName, suitSymbol } from '../cards';

export type TableGame = GameQuery['game'];
type View = TableGame['view'];
type TrickView = NonNullable<View['lastTrick']>;
type DealScore = View['dealScores'][number];
type MoveInput = Omit<MakeMoveInput, 'gameId' | 'expectedVersion' | 'idempotencyKey'>;
type T = TFunction<'table'>;

/**
 * The table as the player's seat sees it (or a spectator, with seat 0 at the bottom). Live: the
 * game's log (graphql-ws) tells of every new entry and the view is fetched again, so an
 * opponent's move shows without a reload.
 */
export function TableScreen({ gameId }: { gameId: string }) {
  const { t } = useTranslation('table');
  const token = useToken();
  const game = useLoad(() => request(GameDocument, { id: gameId }, token).then((r) => r.game), [gameId, token]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { reload } = game;
  const loaded = game.data !== null;
  const latest = useRef(0);
  if (game.data) latest.current = game.data.version;
  const [resubscribe, setResubscribe] = useState(0);
  // The seat view a move answered with: shown at once, until a fetch brings this version or a later one.
  const [answered, setAnswered] = useState<{ version: number; view: TableGame['view'] } | null>(null);
  const shown = game.data && answered && answered.version > game.data.version ? { ...game.data, version: answered.version, view: answered.view } : game.data;

  useEffect(() => {
    if (!loaded) return;
    return subscribe(GameLogDocument, { gameId, after: latest.current }, token, {
      next: () => reload(),
      // After a dropped socket: on from the last entry heard.
      resume: (data, variables) => ({ ...variables, after: data.gameLog.seq }),
      complete: () => reload(),
      error: (error) => {
        setMessage(describeError(error));
        // A refused subscription (a rate limit, a restart): try again from where the view is.
        setTimeout(() => setResubscribe((n) => n + 1), 3000);
      },
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [gameId, token, loaded, resubscribe]);

  const send = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
    } catch (error) {
      setMessage(describeError(error));
      if (error instanceof ApiError && error.code === 'RATE_LIMITED') {
        const wait = error.retryAfter || 5;
        setTimeout(() => setMessage(null), wait * 1000);
      }
      // Refused (CONFLICT, NOT_YOUR_TURN, …): show the game as it now is. An accepted move shows
      // its answer at once, and its log entry brings the rest (clock, totals) through the subscription.
      reload();
    } finally {
      setBusy(false);
    }
  };

  const move = (input: MoveInput) =>
    send(async () => {
      const { makeMove } = await request(
        MakeMoveDocument,
        { input: { ...input, gameId, expectedVersion: shown?.version, idempotencyKey: newIdempotencyKey() } },
        token,
        { idempotent: true },
      );
      setAnswered({ version: makeMove.version, view: makeMove.game });
    });
  const resign = () =>
    send(() => request(ResignDocument, { input: { gameId, expectedVersion: shown?.version, idempotencyKey: newIdempotencyKey() } }, token, { idempotent: true }));

  return (
    <LoadState error={game.data ? null : game.error} loading={!game.data} what={t('loadingWhat')}>
      {shown && (
        <Table game={shown} busy={busy} message={message ?? (game.error ? t('retrying', { error: game.error }) : null)} onMove={move} onResign={resign} />
      )}
    </LoadState>
  );
}

/** Where a seat sits, seen from the viewer's seat at the bottom, clockwise in play order. */
function seatPosition(seat: number, bottom: number, players: number): string {
  const rel = (seat - bottom + players) % players;
  if (rel === 0) return 'bottom';
  if (players === 3) return rel === 1 ? 'left' : 'right';
  return ['bottom', 'left', 'top', 'right'][rel] ?? 'top';
}

const trickKey = (trick: TrickView | null | undefined) => (trick ? `${trick.leader}:${trick.cards.map((c) => c.card).join(',')}` : '');
const COLLECT_MS = 400;

/**
 * The pace of the table: a trick just completed stays in the centre for the pause (a setting),
 * then goes to its winner; only tricks completed while the page is open (not the one a fresh load
 * finds) are held.
 */
function useHeldTrick(view: View, pauseMs: number) {
  const key = trickKey(view.lastTrick);
  const seen = useRef(key);
  const [held, setHeld] = useState<{ trick: TrickView; collecting: boolean } | null>(null);
  useEffect(() => {
    if (key === seen.current) return;
    seen.current = key;
    const trick = view.lastTrick;
    if (!trick || trick.winner === null || trick.winner === undefined || pauseMs <= 0) {
      setHeld(null);
      return;
    }
    setHeld({ trick, collecting: false });
    const collect = setTimeout(() => setHeld({ trick, collecting: true }), pauseMs);
    const done = setTimeout(() => setHeld(null), pauseMs + COLLECT_MS);
    return () => {
      clearTimeout(collect);
      clearTimeout(done);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return held;
}

/** The summary of a deal that ended while the page was open: shown until dismissed or `seconds` pass (0: until dismissed). */
function useDealSummary(view: View, seconds: number, waiting: boolean) {
  // By the deals the view has scored, not by its deal number: a finished game's last deal (and a
  // view that brings a deal's scores a fetch later) is summarised all the same.
  const lastScored = (v: View) => v.dealScores.reduce((a, b) => (b.deal > a.deal ? b : a), { deal: -1 } as DealScore);
  const seen = useRef(lastScored(view).deal);
  const [summary, setSummary] = useState<DealScore | null>(null);
  useEffect(() => {
    const latest = lastScored(view);
    if (latest.deal <= seen.current) return;
    seen.current = latest.deal;
    setSummary(latest);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.dealScores]);
  const visible = summary !== null && !waiting;
  useEffect(() => {
    if (!visible || seconds <= 0) return;
    const timer = setTimeout(() => setSummary(null), seconds * 1000);
    return () => clearTimeout(timer);
  }, [visible, seconds, summary]);
  return { summary: visible ? summary : null, dismiss: () => setSummary(null) };
}

function Table({
  game,
  busy,
  message,
  onMove,
  onResign,
}: {
  game: TableGame;
  busy: boolean;
  message: string | null;
  onMove: (input: MoveInput) => void;
  onResign: () => void;
}) {
  const { t } = useTranslation('table');
  const view = game.view;
  const me = game.mySeat;
  const seated = me !== null && me !== undefined;
  const bottom = seated ? me : (view.viewer ?? 0);
  const name = (seat: number | null | undefined) =>
    seat === null || seat === undefined ? '—' : (game.players.find((p) => p.seat === seat)?.name ?? t('seatNumber', { number: seat + 1 }));
  const deals = dealsInGame(game.preset);
  const legal = view.legalMoves && view.legalMoves.seat === me ? view.legalMoves : null;
  const [showLast, setShowLast] = useState(false);
  const fourColour = useSetting(SETTINGS.fourColour) === 'true';
  const pauseMs = numberSetting(useSetting(SETTINGS.trickPause), 0, 5000, 1000);
  const summarySeconds = numberSetting(useSetting(SETTINGS.summarySeconds), 0, 60, 6);
  const held = useHeldTrick(view, pauseMs);
  const { summary, dismiss } = useDealSummary(view, summarySeconds, held !== null);
  const presetLabel = presetName(game.preset);
  const position = (seat: number) => seatPosition(seat, bottom, view.players);
  const [selected, setSelected] = useState<string[]>([]);
  useEffect(() => setSelected([]), [game.version]);
  const selecting = !view.over && legal && (legal.kind === 'exchange' || legal.kind === 'discard') ? legal : null;
  const max = selecting ? (selecting.kind === 'exchange' ? Math.min(selecting.maxDiscards ?? 0, (selecting.cards ?? []).length) : (selecting.count ?? 2)) : 0;
  const toggle = (card: string) => setSelected((s) => (s.includes(card) ? s.filter((c) => c !== card) : [...s, card]));
  // Once as many cards are selected as may go, only those stay clickable (to take one back):
  // the talon replaces no more than maxDiscards, and an empty talon none at all.
  const selectable = selecting ? (selected.length >= max ? selected : (selecting.cards ?? [])) : undefined;

  return (
    <div
      className={`table${fourColour ? ' four-colour' : ''}`}
      data-version={game.version}
      data-phase={view.phase}
      data-to-move={view.toMove ?? ''}
      data-my-seat={me ?? ''}
      data-deal={view.deal}
    >
      <div className="table-head">
        <h1>{deals ? t('title', { preset: presetLabel, deal: view.deal + 1, deals }) : t('titleOpen', { preset: presetLabel, deal: view.deal + 1 })}</h1>
        <DealLine game={game} name={name} />
        <TurnLine game={game} name={name} />
        {!seated && <p className="spectating">{t('spectating')}</p>}
        <ErrorText error={message} />
      </div>

      {view.over ? <GameOver game={game} /> : null}

      <section className="felt" aria-labelledby="felt-title">
        <h2 id="felt-title" className="sr-only">
          {t('felt')}
        </h2>
        <ul className={`seats-ring players-${view.players}`}>
          {game.players.map((player) => (
            <Seat key={player.seat} game={game} seat={player.seat} pos={position(player.seat)} />
          ))}
        </ul>
        <div className="centre">
          {(view.family === 'contract' || view.talonSize > 0) && (
            <div className="talon" role="img" aria-label={t('talon.label', { count: view.talonSize })} data-count={view.talonSize}>
              {view.talonSize > 0 ? <CardBack /> : <span className="talon-empty" />}
              <span className="talon-count" aria-hidden="true">
                {formatNumber(view.talonSize)}
              </span>
            </div>
          )}
          <TrickArea view={view} held={held} position={position} name={name} />
          {summary && <DealSummary game={game} entry={summary} name={name} onDismiss={dismiss} />}
        </div>
      </section>

      <TableSettings fourColour={fourColour} pauseMs={pauseMs} summarySeconds={summarySeconds} />

      <ChatPanel table={{ gameId: game.id }} seated={seated} />

      <nav aria-label={t('actions.label')} className="actions">
        <a href={href.scores(game.id)}>{t('actions.scores')}</a>
        {view.over && <a href={href.replay(game.id)}>{t('actions.replay')}</a>}
        {!view.over && seated && <ResignButton busy={busy} onResign={onResign} />}
      </nav>

      {view.discards && view.discards.length > 0 && (
        <p className="put-away">
          {t('talon.putAway')}{' '}
          <span data-cards={view.discards.join(' ')}>{view.discards.map((card) => cardName(card)).join(', ')}</span>
        </p>
      )}

      {view.lastTrick && (
        <div className="last-trick">
          <button type="button" className="secondary" aria-expanded={showLast} aria-controls="last-trick" onClick={() => setShowLast(!showLast)}>
            {showLast ? t('lastTrick.hide') : t('lastTrick.show')}
            {view.tricks.every((taken) => !taken) ? t('lastTrick.previousDeal') : ''}
          </button>
          <div id="last-trick">{showLast && <LastTrick trick={view.lastTrick} name={name} />}</div>
        </div>
      )}


      {seated && !view.over && (
        <section className="dock" aria-labelledby="hand-title">
          {!view.over && legal && (
            <MoveChoices
              key={`${game.version}`}
              game={game}
              busy={busy}
              onMove={onMove}
              name={name}
              selected={selected}
              max={max}
            />
          )}
          <h2 id="hand-title" className="sr-only">
            {t('hand.title')}
          </h2>
          <div className="hand-slot">
            {view.hand && view.hand.length > 0 ? (
              <Hand
                cards={view.hand}
                label={t('hand.label', { count: view.hand.length })}
                playable={legal?.kind === 'play' ? (legal.cards ?? []) : []}
                selectable={selectable}
                selected={selecting ? selected : undefined}
                disabled={busy}
                onPlay={selecting ? toggle : (card) => onMove({ kind: 'play', card })}
              />
            ) : (
              <p className="muted">{t('hand.empty')}</p>
            )}
          </div>
        </section>
      )}
    </div>
  );
}

function Seat({ game, seat, pos }: { game: TableGame; seat: number; pos: string }) {
  const { t } = useTranslation('table');
  const view = game.view;
  const player = game.players.find((p) => p.seat === seat)!;
  const toMove = seat === view.toMove && !view.over;
  const quota = quotaText(view, seat, game.options.mizerkaQuotas);
  const sitsOut = view.family === 'bidding' && view.activeSeats.length > 0 && !view.activeSeats.includes(seat);
  const taken = view.tricks[seat];
  const bid = view.family === 'bidding' ? view.bids[seat] : null;
  return (
    <li
      className={`seat pos-${pos}${toMove ? ' to-move' : ''}${seat === game.mySeat ? ' mine' : ''}`}
      data-seat={seat}
      data-total={view.totals[seat]}
      aria-current={toMove ? 'true' : undefined}
    >
      <span className="seat-name">
        {player.name}
        {seat === game.mySeat ? <span className="you"> {t('seat.you')}</span> : null}
      </span>
      <span className="marks">
        {player.kind === 'bot' ? <span className="mark">{t('seat.bot')}</span> : null}
        {seat === view.dealer ? <span className="mark">{t('seat.dealer')}</span> : null}
        {view.family === 'contract' && seat === view.chooser ? <span className="mark">{t('seat.chooser')}</span> : null}
        {seat === view.declarer ? <span className="mark">{t('seat.declarer')}</span> : null}
        {game.awayUntil?.[seat] ? <span className="mark away">{t('seat.away', { until: formatDateTime(game.awayUntil[seat]!) })}</span> : null}
      </span>
      <span className="seat-stats">
        <span>{sitsOut ? t('seat.sitsOut') : t('seat.cards', { count: view.handSizes[seat] ?? 0 })}</span>
        <span>
          {t('seat.tricks', { count: taken ?? 0, tricks: taken === null || taken === undefined ? '—' : formatNumber(taken) })}
          {quota ? ` (${quota})` : ''}
        </span>
        <span>{t('seat.total', { total: formatNumber(view.totals[seat] ?? 0) })}</span>
        {/* Always a line, so the seat keeps its height when a bid or an exchange fills it. */}
        <span>
          {bid
            ? t('seat.bid', { bid: bidName(bid) })
            : view.family === 'contract' && view.exchanged[seat] !== null && view.exchanged[seat] !== undefined
              ? t('seat.exchanged', { count: view.exchanged[seat]! })
              : '\u00a0'}
        </span>
      </span>
      <span className="seat-turn">{toMove ? <TurnMark game={game} /> : null}</span>
    </li>
  );
}

function TurnMark({ game }: { game: TableGame }) {
  const { t } = useTranslation('table');
  const now = useNow();
  const deadline = game.clock?.deadline;
  return (
    <>
      <span className="turn-dot" aria-hidden="true" />
      {t('seat.toMove')}
      {deadline ? <span className="clock"> {clockText(t, deadline, now)}</span> : null}
    </>
  );
}

function clockText(t: T, deadline: string, now: number): string {
  const ms = Date.parse(deadline) - now;
  if (ms <= 0) return t('clock.up');
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return t('clock.days', { days: d, hours: h });
  if (h > 0) return t('clock.hours', { hours: h, minutes: m });
  return t('clock.minutes', { time: `${m}:${String(s % 60).padStart(2, '0')}` });
}

/**
 * The trick in the centre, each card in front of the seat that played it. Cards arriving come in
 * from their seat one after another (a bot's move is never instantaneous to the eye); a held trick
 * stays, says who takes it, then slides to its winner.
 */
function TrickArea({
  view,
  held,
  position,
  name,
}: {
  view: View;
  held: { trick: TrickView; collecting: boolean } | null;
  position: (seat: number) => string;
  name: (seat: number | null | undefined) => string;
}) {
  const { t } = useTranslation('table');
  const trick = held?.trick ?? view.currentTrick;
  const cards = trick?.cards ?? [];
  const before = useRef<string[]>([]);
  const fresh = cards.map((c) => c.card).filter((card) => !before.current.includes(card));
  useEffect(() => {
    before.current = cards.map((c) => c.card);
  });
  const winner = held ? held.trick.winner : null;
  return (
    <div
      className={`trick-area${held ? ' held' : ''}${held?.collecting && winner !== null && winner !== undefined ? ` collecting to-${position(winner)}` : ''}`}
      data-held={held ? 'true' : 'false'}
    >
      <ul className="trick-cards" aria-label={held ? t('trick.completed') : t('trick.current')} data-cards={cards.map((c) => c.card).join(' ')}>
        {cards.map((played) => {
          const delay = fresh.indexOf(played.card);
          return (
            <li
              key={played.card}
              className={`trick-card pos-${position(played.seat)}${delay > 0 ? ` delay-${Math.min(delay, 3)}` : ''}`}
              data-seat={played.seat}
              data-card={played.card}
            >
              <span className="sr-only">{t('trick.played', { name: name(played.seat), card: cardName(played.card) })}</span>
              <PlayingCard card={played.card} />
            </li>
          );
        })}
      </ul>
      <p className="trick-note" role="status">
        {held && winner !== null && winner !== undefined
          ? t('trick.takenBy', { name: name(winner) })
          : cards.length === 0 && view.phase === 'play' && !view.over
            ? t('trick.leads', { name: name(view.toMove) })
            : ''}
      </p>
    </div>
  );
}

/** The last trick on demand, in play order: who played what, and who took it. */
function LastTrick({ trick, name }: { trick: TrickView; name: (seat: number) => string }) {
  const { t } = useTranslation('table');
  return (
    <>
      <ol className="trick">
        {trick.cards.map((played) => (
          <li key={played.seat} data-seat={played.seat} data-card={played.card}>
            {t('trick.played', { name: name(played.seat), card: cardName(played.card) })}
          </li>
        ))}
      </ol>
      {trick.winner !== null && trick.winner !== undefined && <p>{t('trick.takenBy', { name: name(trick.winner) })}</p>}
    </>
  );
}

function DealSummary({ game, entry, name, onDismiss }: { game: TableGame; entry: DealScore; name: (seat: number) => string; onDismiss: () => void }) {
  const { t } = useTranslation('table');
  const view = game.view;
  const latest = view.dealScores.every((d) => d.deal <= entry.deal);
  const totals = latest
    ? view.totals
    : view.totals.map((_, seat) => view.dealScores.filter((d) => d.deal <= entry.deal).reduce((sum, d) => sum + (d.scores[seat] ?? 0), 0));
  const asDealt = { ...view, contract: entry.contract, dealer: entry.dealer, declarer: entry.declarer, bid: entry.bid };
  const what =
    view.family === 'contract'
      ? t('summary.contract', { contract: contractName(entry.contract) })
      : entry.declarer !== null && entry.declarer !== undefined
        ? t('summary.declarer', { name: name(entry.declarer), bid: bidName(entry.bid) }) + (entry.trump ? ` · ${t('summary.trump', { suit: suitSymbol(entry.trump) })}` : '')
        : t('summary.allPassed');
  return (
    <section className="deal-summary" aria-labelledby="summary-title" data-deal={entry.deal}>
      <h2 id="summary-title">{t('summary.title', { deal: entry.deal + 1 })}</h2>
      <p>{what}</p>
      <table className="list summary-table">
        <thead>
          <tr>
            <th scope="col">{t('summary.player')}</th>
            <th scope="col">{t('summary.tricks')}</th>
            <th scope="col">{t('summary.score')}</th>
            <th scope="col">{t('summary.total')}</th>
          </tr>
        </thead>
        <tbody>
          {game.players.map((p) => {
            const quota = quotaText(asDealt, p.seat, game.options.mizerkaQuotas);
            const tricks = entry.tricks[p.seat];
            return (
              <tr key={p.seat} data-seat={p.seat} data-score={entry.scores[p.seat]} data-total={totals[p.seat]}>
                <th scope="row">{name(p.seat)}</th>
                <td>
                  {tricks === null || tricks === undefined ? '—' : formatNumber(tricks)}
                  {quota ? <span className="quota"> ({quota})</span> : null}
                </td>
                <td>{formatNumber(entry.scores[p.seat] ?? 0, { signDisplay: 'exceptZero' })}</td>
                <td>{formatNumber(totals[p.seat] ?? 0)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" onClick={onDismiss}>
        {t('summary.dismiss')}
      </button>
    </section>
  );
}

function TableSettings({ fourColour, pauseMs, summarySeconds }: { fourColour: boolean; pauseMs: number; summarySeconds: number }) {
  const { t } = useTranslation('table');
  return (
    <details className="table-settings">
      <summary>{t('settings.title')}</summary>
      <label>
        <input type="checkbox" checked={fourColour} onChange={(e) => setSetting(SETTINGS.fourColour, String(e.target.checked))} /> {t('settings.fourColour')}
      </label>
      <label>
        {t('settings.trickPause')}{' '}
        <select value={String(pauseMs)} onChange={(e) => setSetting(SETTINGS.trickPause, e.target.value)}>
          {[...new Set([...TRICK_PAUSES, pauseMs])].map((ms) => (
            <option key={ms} value={String(ms)}>
              {ms === 0 ? t('settings.noPause') : t('settings.seconds', { seconds: formatNumber(ms / 1000) })}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('settings.summary')}{' '}
        <select value={String(summarySeconds)} onChange={(e) => setSetting(SETTINGS.summarySeconds, e.target.value)}>
          {[...new Set([0, 3, 6, 10, summarySeconds])].map((s) => (
            <option key={s} value={String(s)}>
              {s === 0 ? t('settings.untilDismissed') : t('settings.seconds', { seconds: formatNumber(s) })}
            </option>
          ))}
        </select>
      </label>
    </details>
  );
}

function DealLine({ game, name }: { game: TableGame; name: (seat: number | null | undefined) => string }) {
  const { t } = useTranslation('table');
  const view = game.view;
  if (view.family === 'contract') {
    return (
      <p className="deal-line">
        {t('deal.dealer', { name: name(view.dealer) })} ·{' '}
        {view.contract ? <strong>{t('deal.contract', { contract: contractName(view.contract) })}</strong> : t('deal.toBeChosen', { name: name(view.chooser) })}
      </p>
    );
  }
  return (
    <p className="deal-line">
      {t('deal.dealer', { name: name(view.dealer) })} ·{' '}
      {view.declarer !== null && view.declarer !== undefined ? t('deal.declarer', { name: name(view.declarer), bid: bidName(view.bid) }) : t('deal.bidding')}
      {view.trump ? ` · ${t('deal.trump', { suit: suitSymbol(view.trump) })}` : ''}
    </p>
  );
}

function TurnLine({ game, name }: { game: TableGame; name: (seat: number | null | undefined) => string }) {
  const { t } = useTranslation('table');
  const view = game.view;
  if (view.over)
    return (
      <p className="turn-line">
        <span role="status">{t('turn.over')}</span>
      </p>
    );
  const mine = view.toMove !== null && view.toMove === game.mySeat;
  const action = t(`phase.${view.phase}`, { defaultValue: view.phase });
  return (
    <p className={`turn-line${mine ? ' mine' : ''}`}>
      <span role="status">{mine ? t('turn.yours', { action }) : t('turn.waiting', { name: name(view.toMove), action })}</span>
      {!game.clock?.deadline && game.clock?.pausedAt ? <span className="deadline"> {t('clock.paused')}</span> : null}
    </p>
  );
}

function MoveChoices({
  game,
  busy,
  onMove,
  name,
  selected,
  max,
}: {
  game: TableGame;
  busy: boolean;
  onMove: (input: MoveInput) => void;
  name: (seat: number | null | undefined) => string;
  selected: string[];
  max: number;
}) {
  const { t } = useTranslation('table');
  const view = game.view;
  const legal = view.legalMoves!;

  switch (legal.kind) {
    case 'contract': {
      const offered = legal.contracts ?? [];
      // Every contract of the preset, with what each seat must take under it; the ones this seat
      // has already chosen this game stay, disabled.
      const all = contractsOf(view.preset);
      const seats = game.players.map((p) => p.seat);
      return (
        <Choices title={t('choose.contract')} hint={t('choose.contractHint')}>
          <table className="contract-table">
            <thead>
              <tr>
                <th scope="col">{t('choose.contractColumn')}</th>
                {seats.map((seat) => (
                  <th scope="col" key={seat}>
                    {seat === game.mySeat ? t('seat.you') : name(seat)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {all.map((contract) => (
                <tr key={contract}>
                  <th scope="row">
                    <ChoiceButton enabled={offered.includes(contract) && !busy} onClick={() => onMove({ kind: 'contract', contract })}>
                      {contractName(contract)}
                    </ChoiceButton>
                  </th>
                  {seats.map((seat) => (
                    <td key={seat}>{quotaText({ ...view, contract }, seat, game.options.mizerkaQuotas)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Choices>
      );
    }
    case 'bid':
      return (
        <Choices title={t('choose.bid')}>
          <p className="bids-so-far">
            {t('choose.bidsSoFar')}{' '}
            {game.players
              .filter((p) => view.activeSeats.length === 0 || view.activeSeats.includes(p.seat))
              .map((p) => `${name(p.seat)}: ${view.bids[p.seat] ? bidName(view.bids[p.seat]) : '—'}`)
              .join(' · ')}
          </p>
          <div className="choice-row">
            {(['pass', 'play', 'misere', 'double_misere'] as const)
              .filter((bid) => bid !== 'double_misere' || game.options.doubleMisere)
              .map((bid) => (
                <ChoiceButton key={bid} enabled={(legal.bids ?? []).includes(bid) && !busy} onClick={() => onMove({ kind: 'bid', bid })}>
                  {bidName(bid)}
                </ChoiceButton>
              ))}
          </div>
        </Choices>
      );
    case 'trump':
      return (
        <Choices title={t('choose.trump')}>
          <div className="choice-row">
            {(['clubs', 'diamonds', 'hearts', 'spades'] as const).map((suit) => (
              <ChoiceButton key={suit} enabled={(legal.suits ?? []).includes(suit) && !busy} onClick={() => onMove({ kind: 'trump', suit })}>
                {`${t(`suit.${suit}`)} ${suitSymbol(suit)}`}
              </ChoiceButton>
            ))}
          </div>
        </Choices>
      );
    case 'exchange':
    case 'discard': {
      const ready = legal.kind === 'exchange' ? selected.length <= max : selected.length === max;
      const full = selected.length >= max;
      const limitNote =
        max === 0 ? t('exchange.talonEmpty') : full ? t(legal.kind === 'exchange' ? 'exchange.full' : 'discard.full', { count: max }) : null;
      const label =
        legal.kind === 'exchange'
          ? selected.length === 0
            ? t('exchange.keep')
            : t('exchange.confirm', { count: selected.length })
          : t('discard.confirm', { selected: selected.length, count: max });
      return (
        <Choices title={legal.kind === 'exchange' ? t('exchange.title') : t('discard.title', { count: max })}>
          <p className="hint">{legal.kind === 'exchange' ? t('exchange.hint', { count: max }) : t('discard.hint', { count: max })}</p>
          {limitNote && (
            <p className="hint" role="status" data-testid="selection-limit">
              {limitNote}
            </p>
          )}
          <button
            type="button"
            className="confirm"
            aria-disabled={!ready || busy}
            onClick={() => {
              if (!ready || busy) return;
              onMove(legal.kind === 'exchange' ? { kind: 'exchange', discards: selected } : { kind: 'discard', cards: selected });
            }}
          >
            {label}
          </button>
        </Choices>
      );
    }
    default:
      return null;
  }
}

function Choices({ title, hint, children }: { title: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="choices" role="group" aria-labelledby="choice-title">
      <h3 id="choice-title">{title}</h3>
      {hint && <p className="hint">{hint}</p>}
      {children}
    </div>
  );
}

function ChoiceButton({ enabled, onClick, children }: { enabled: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button type="button" className={`choice${enabled ? ' legal' : ''}`} aria-disabled={!enabled} onClick={() => enabled && onClick()}>
      {children}
    </button>
  );
}

function ResignButton({ busy, onResign }: { busy: boolean; onResign: () => void }) {
  const { t } = useTranslation('table');
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" className="secondary" onClick={() => setConfirming(true)}>
        {t('resign.button')}
      </button>
    );
  return (
    <span className="confirm-resign" role="group" aria-label={t('resign.confirmLabel')}>
      {t('resign.question')}{' '}
      <button type="button" className="danger" disabled={busy} onClick={onResign}>
        {t('resign.yes')}
      </button>{' '}
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        {t('resign.no')}
      </button>
    </span>
  );
}

/** The end: who won, then the standings, above the table. */
function GameOver({ game }: { game: TableGame }) {
  const { t } = useTranslation('table');
  const winners = (game.view.winners.length > 0 ? game.view.winners : game.winners).map((seat) => game.players.find((p) => p.seat === seat)?.name ?? '—');
  return (
    <section aria-labelledby="over-title" className="panel over">
      <h2 id="over-title">{t('over.title')}</h2>
      {winners.length > 0 && (
        <p className="winner" data-winners={game.view.winners.join(' ')}>
          {t('over.winner', { count: winners.length, names: new Intl.ListFormat(currentLanguage(), { type: 'conjunction' }).format(winners) })}
        </p>
      )}
      {game.view.end && <p>{t(game.view.end.reason === 'resigned' ? 'over.resigned' : 'over.forfeited', { name: game.players[game.view.end.seat]?.name })}</p>}
      <StandingsTable players={game.players} caption={t('over.title')} />
    </section>
  );
}
