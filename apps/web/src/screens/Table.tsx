import { useEffect, useRef, useState } from 'react';
import { ApiError, describeError, newIdempotencyKey, request, subscribe } from '../api';
import { Hand } from '../components/Hand';
import { Trick } from '../components/Trick';
import { StandingsTable } from '../components/Standings';
import { ChatPanel } from '../components/ChatPanel';
import { GameDocument, GameLogDocument, MakeMoveDocument, ResignDocument, type GameQuery, type MakeMoveInput } from '../gql/graphql';
import { timeLeft, useLoad, useNow } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { bidName, contractName, contractsOf, dealsInGame, quotaText } from '../terms';
import { ErrorText, formatDate, LoadState } from '../ui';
import { cardName, suitSymbol } from '../cards';

export type TableGame = GameQuery['game'];
type MoveInput = Omit<MakeMoveInput, 'gameId' | 'expectedVersion' | 'idempotencyKey'>;

/**
 * The table as the player's seat sees it. Live: the game's log (graphql-ws) tells of every new
 * entry and the view is fetched again, so an opponent's move shows without a reload.
 */
export function TableScreen({ gameId }: { gameId: string }) {
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
    <LoadState error={game.data ? null : game.error} loading={!game.data} what="the table">
      {shown && (
        <Table game={shown} busy={busy} message={message ?? (game.error ? `${game.error} Retrying…` : null)} onMove={move} onResign={resign} />
      )}
    </LoadState>
  );
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
  const view = game.view;
  const me = game.mySeat;
  const name = (seat: number | null | undefined) => (seat === null || seat === undefined ? '—' : (game.players.find((p) => p.seat === seat)?.name ?? `Seat ${seat + 1}`));
  const deals = dealsInGame(game.preset);
  const legal = view.legalMoves && view.legalMoves.seat === me ? view.legalMoves : null;
  const [showLast, setShowLast] = useState(false);

  return (
    <div className="table" data-version={game.version} data-phase={view.phase} data-to-move={view.toMove ?? ''} data-my-seat={me ?? ''}>
      <h1>
        {game.preset} · deal {view.deal + 1}
        {deals ? ` of ${deals}` : ''}
      </h1>
      <DealLine game={game} name={name} />
      <TurnLine game={game} name={name} />
      <ErrorText error={message} />

      <section aria-labelledby="seats-title" className="panel">
        <h2 id="seats-title">Players</h2>
        <ul className="players">
          {game.players.map((player) => (
            <li key={player.seat} className={player.seat === view.toMove ? 'to-move' : undefined} data-seat={player.seat} data-total={view.totals[player.seat]}>
              <strong>
                {player.name}
                {player.seat === me ? ' (you)' : ''}
              </strong>
              {player.kind === 'bot' ? <span className="tag">bot</span> : null}
              {game.awayUntil?.[player.seat] ? <span className="tag away">away until {formatDate(game.awayUntil[player.seat])}</span> : null}
              {player.seat === view.dealer ? <span className="tag">dealer</span> : null}
              {view.family === 'contract' && player.seat === view.chooser ? <span className="tag">chooser</span> : null}
              {player.seat === view.declarer ? <span className="tag">declarer</span> : null}
              {player.seat === view.toMove ? <span className="tag turn">to move</span> : null}
              <span className="stats">
                {view.handSizes[player.seat]} cards · tricks {view.tricks[player.seat] ?? '—'}
                {quotaText(view, player.seat, game.options.mizerkaQuotas) ? ` (${quotaText(view, player.seat, game.options.mizerkaQuotas)})` : ''} · total{' '}
                {view.totals[player.seat]}
                {view.family === 'contract' && view.exchanged[player.seat] !== null && view.exchanged[player.seat] !== undefined
                  ? ` · exchanged ${view.exchanged[player.seat]}`
                  : ''}
                {view.family === 'bidding' && view.bids[player.seat] ? ` · bid ${bidName(view.bids[player.seat])}` : ''}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="trick-title" className="panel">
        <h2 id="trick-title">Current trick</h2>
        {view.currentTrick && view.currentTrick.cards.length > 0 ? (
          <Trick trick={view.currentTrick} name={name} />
        ) : (
          <p className="muted">{view.phase === 'play' ? `${name(view.toMove)} leads the next trick.` : 'No card played yet.'}</p>
        )}
        {view.lastTrick && (
          <>
            <button type="button" className="secondary" aria-expanded={showLast} aria-controls="last-trick" onClick={() => setShowLast(!showLast)}>
              {showLast ? 'Hide the last trick' : 'Show the last trick'}
              {view.tricks.every((taken) => !taken) ? ' (of the previous deal)' : ''}
            </button>
            <div id="last-trick">{showLast && <Trick trick={view.lastTrick} name={name} />}</div>
          </>
        )}
      </section>

      {view.family === 'contract' || view.talonSize > 0 ? (
        <section aria-labelledby="talon-title" className="panel">
          <h2 id="talon-title">Talon</h2>
          <p>
            {view.talonSize} {view.talonSize === 1 ? 'card' : 'cards'} face down.
          </p>
          {view.discards && view.discards.length > 0 && (
            <p>
              You put away: <span data-cards={view.discards.join(' ')}>{view.discards.map(cardName).join(', ')}</span>.
            </p>
          )}
        </section>
      ) : null}

      {!view.over && legal && <MoveChoices key={`${game.version}`} game={game} busy={busy} onMove={onMove} />}

      {view.hand && view.hand.length > 0 && (!legal || legal.kind === 'play' || legal.kind === 'contract' || legal.kind === 'bid' || legal.kind === 'trump') && (
        <section aria-labelledby="hand-title" className="panel">
          <h2 id="hand-title">Your hand</h2>
          <Hand
            cards={view.hand}
            playable={legal?.kind === 'play' ? (legal.cards ?? []) : []}
            disabled={busy}
            onPlay={(card) => onMove({ kind: 'play', card })}
          />
        </section>
      )}

      {view.over ? <GameOver game={game} /> : null}

      <ChatPanel table={{ gameId: game.id }} seated={me !== null && me !== undefined} />

      <nav aria-label="This game" className="actions">
        <a href={href.scores(game.id)}>Score sheet</a>
        {view.over && <a href={href.replay(game.id)}>Replay</a>}
        {!view.over && me !== null && me !== undefined && <ResignButton busy={busy} onResign={onResign} />}
      </nav>
    </div>
  );
}

function DealLine({ game, name }: { game: TableGame; name: (seat: number | null | undefined) => string }) {
  const view = game.view;
  if (view.family === 'contract') {
    return (
      <p className="deal-line">
        Dealer {name(view.dealer)} · contract {view.contract ? <strong>{contractName(view.contract)}</strong> : `to be chosen by ${name(view.chooser)}`}
      </p>
    );
  }
  return (
    <p className="deal-line">
      Dealer {name(view.dealer)} · {view.declarer !== null && view.declarer !== undefined ? `declarer ${name(view.declarer)}, bid ${bidName(view.bid)}` : 'bidding'}
      {view.trump ? ` · trump ${view.trump} ${suitSymbol(view.trump)}` : ''}
    </p>
  );
}

const PHASE_ACTION: Record<string, string> = {
  contract: 'choose the contract',
  exchange: 'exchange with the talon',
  bidding: 'bid',
  discard: 'discard two cards',
  trump: 'name the trump',
  play: 'play a card',
};

function TurnLine({ game, name }: { game: TableGame; name: (seat: number | null | undefined) => string }) {
  const now = useNow();
  const view = game.view;
  if (view.over)
    return (
      <p className="turn-line">
        <span role="status">The game is over.</span>
      </p>
    );
  const mine = view.toMove !== null && view.toMove === game.mySeat;
  const action = PHASE_ACTION[view.phase] ?? view.phase;
  const deadline = game.clock?.deadline;
  // Only whose turn it is is announced; the countdown ticks outside the live region.
  return (
    <p className={`turn-line${mine ? ' mine' : ''}`}>
      <span role="status">{mine ? `Your turn: ${action}.` : `Waiting for ${name(view.toMove)} to ${action}.`}</span>
      {deadline ? <span className="deadline"> {timeLeft(deadline, now)}</span> : null}
      {!deadline && game.clock?.pausedAt ? <span className="deadline"> Clock stopped: the player is on vacation.</span> : null}
    </p>
  );
}

function MoveChoices({ game, busy, onMove }: { game: TableGame; busy: boolean; onMove: (input: MoveInput) => void }) {
  const view = game.view;
  const legal = view.legalMoves!;
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (card: string) => setSelected((s) => (s.includes(card) ? s.filter((c) => c !== card) : [...s, card]));

  switch (legal.kind) {
    case 'contract': {
      const offered = legal.contracts ?? [];
      // Every contract of the preset; the ones this seat has already chosen this game stay, disabled.
      const all = contractsOf(view.preset);
      return (
        <Choices title="Choose the contract" hint="Your first six cards are below; a contract you have already chosen this game cannot be chosen again.">
          {all.map((contract) => (
            <ChoiceButton key={contract} enabled={offered.includes(contract) && !busy} onClick={() => onMove({ kind: 'contract', contract })}>
              {contractName(contract)}
            </ChoiceButton>
          ))}
        </Choices>
      );
    }
    case 'bid':
      return (
        <Choices title="Your bid">
          {(['pass', 'play', 'misere', 'double_misere'] as const)
            .filter((bid) => bid !== 'double_misere' || game.options.doubleMisere)
            .map((bid) => (
              <ChoiceButton key={bid} enabled={(legal.bids ?? []).includes(bid) && !busy} onClick={() => onMove({ kind: 'bid', bid })}>
                {bidName(bid)}
              </ChoiceButton>
            ))}
        </Choices>
      );
    case 'trump':
      return (
        <Choices title="Name the trump">
          {(['clubs', 'diamonds', 'hearts', 'spades'] as const).map((suit) => (
            <ChoiceButton key={suit} enabled={(legal.suits ?? []).includes(suit) && !busy} onClick={() => onMove({ kind: 'trump', suit })}>
              {`${suit[0].toUpperCase()}${suit.slice(1)} ${suitSymbol(suit)}`}
            </ChoiceButton>
          ))}
        </Choices>
      );
    case 'exchange':
    case 'discard': {
      const max = legal.kind === 'exchange' ? Math.min(legal.maxDiscards ?? 0, (legal.cards ?? []).length) : (legal.count ?? 2);
      const ready = legal.kind === 'exchange' ? selected.length <= max : selected.length === max;
      // Once as many cards are selected as may go, only those stay clickable (to take one back):
      // the talon replaces no more than maxDiscards, and an empty talon none at all.
      const full = selected.length >= max;
      const selectable = full ? selected : (legal.cards ?? []);
      const limitNote =
        max === 0
          ? 'The talon is empty: there is nothing to exchange with, so you keep your hand.'
          : full
            ? `You have selected ${max} ${max === 1 ? 'card' : 'cards'}, as many as ${legal.kind === 'exchange' ? 'the talon can replace' : 'go away'}; unselect one to choose another.`
            : null;
      const label =
        legal.kind === 'exchange'
          ? selected.length === 0
            ? 'Keep my hand (exchange none)'
            : `Exchange ${selected.length} ${selected.length === 1 ? 'card' : 'cards'}`
          : `Discard ${selected.length} of ${max}`;
      return (
        <section aria-labelledby="choice-title" className="panel choices">
          <h2 id="choice-title">{legal.kind === 'exchange' ? 'Exchange with the talon' : 'Discard two cards'}</h2>
          <p className="hint">
            {legal.kind === 'exchange'
              ? `Select up to ${max} cards to put away; you draw as many from the talon.`
              : 'Select exactly two cards to put away face down.'}
          </p>
          {limitNote && (
            <p className="hint" role="status" data-testid="selection-limit">
              {limitNote}
            </p>
          )}
          <Hand cards={view.hand ?? []} selectable={selectable} selected={selected} disabled={busy} onPlay={toggle} />
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
        </section>
      );
    }
    default:
      return null;
  }
}

function Choices({ title, hint, children }: { title: string; hint?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby="choice-title" className="panel choices">
      <h2 id="choice-title">{title}</h2>
      {hint && <p className="hint">{hint}</p>}
      <div className="choice-row">{children}</div>
    </section>
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
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" className="secondary" onClick={() => setConfirming(true)}>
        Resign…
      </button>
    );
  return (
    <span className="confirm-resign" role="group" aria-label="Confirm resignation">
      Resign and end the game now?{' '}
      <button type="button" className="danger" disabled={busy} onClick={onResign}>
        Yes, resign
      </button>{' '}
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        No
      </button>
    </span>
  );
}

function GameOver({ game }: { game: TableGame }) {
  return (
    <section aria-labelledby="over-title" className="panel over">
      <h2 id="over-title">Final standings</h2>
      {game.view.end && (
        <p>
          {game.players[game.view.end.seat]?.name} {game.view.end.reason === 'resigned' ? 'resigned' : 'forfeited on time'}.
        </p>
      )}
      <StandingsTable players={game.players} caption="Final standings" />
    </section>
  );
}
