import { useEffect, useMemo, useState } from 'react';
import { apply, deal, makeRules, moveFromJson, newGame, parseCard, view, type Card, type GameState } from '@mizerka/rules';
import { request } from '../api';
import { CardText } from '../components/Hand';
import { Trick } from '../components/Trick';
import { GameRecordDocument, type GameRecordQuery } from '../gql/graphql';
import { useLoad } from '../hooks';
import { href } from '../router';
import { useToken } from '../session';
import { LoadState } from '../ui';
import { cardName, sortCards } from '../cards';
import { contractName } from '../terms';

type GameRecord = GameRecordQuery['gameRecord'];
type RecordMove = GameRecord['deals'][number]['moves'][number];

interface Step {
  deal: number;
  /** Index of the move within its deal; -1 for the deal itself. */
  move: number;
  text: string;
  state: GameState;
}

function withoutNulls(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

function describeMove(move: RecordMove, players: readonly string[]): string {
  const who = players[move.seat] ?? `Seat ${move.seat + 1}`;
  if (move.play) return `${who} plays ${cardName(move.play)}`;
  if (move.contract) return `${who} chooses ${move.contract}`;
  if (move.exchange) return move.exchange.length ? `${who} exchanges ${move.exchange.map(cardName).join(', ')}` : `${who} keeps their hand`;
  if (move.bid) return `${who} bids ${move.bid}`;
  if (move.discard) return `${who} discards ${move.discard.map(cardName).join(', ')}`;
  if (move.trump) return `${who} names ${move.trump} trumps`;
  return `${who} moves`;
}

/** Every position of a finished game, by replaying its record with the rules library itself. */
function stepsOf(record: GameRecord): Step[] | string {
  const rules = makeRules(record.rules.preset, withoutNulls(record.rules.options));
  if (!rules.ok) return rules.error.message;
  let state = newGame(rules.value, record.firstDealer);
  const steps: Step[] = [];
  for (let d = 0; d < record.deals.length; d++) {
    const dealt = deal(state, record.deals[d].deck.map((name) => parseCard(name) as Card));
    if (!dealt.ok) return dealt.error.message;
    state = dealt.value;
    steps.push({ deal: d, move: -1, text: `Deal ${d + 1} is dealt`, state });
    const moves = record.deals[d].moves;
    for (let m = 0; m < moves.length; m++) {
      const move = moveFromJson(withoutNulls(moves[m]));
      if (!move.ok) return move.error.message;
      const next = apply(state, move.value);
      if (!next.ok) return next.error.message;
      state = next.value.state;
      steps.push({ deal: d, move: m, text: describeMove(moves[m], record.players), state });
    }
  }
  return steps;
}

export function ReplayScreen({ gameId }: { gameId: string }) {
  const token = useToken();
  const record = useLoad(() => request(GameRecordDocument, { gameId }, token).then((r) => r.gameRecord), [gameId, token]);
  return (
    <LoadState error={record.error} loading={!record.data} what="the game record">
      {record.data && <Replay gameId={gameId} record={record.data} />}
    </LoadState>
  );
}

function Replay({ gameId, record }: { gameId: string; record: GameRecord }) {
  const steps = useMemo(() => stepsOf(record), [record]);
  const [at, setAt] = useState(0);
  const count = typeof steps === 'string' ? 0 : steps.length;
  const go = (n: number) => setAt(Math.max(0, Math.min(count - 1, n)));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
      if (event.key === 'ArrowRight') setAt((n) => Math.min(count - 1, n + 1));
      if (event.key === 'ArrowLeft') setAt((n) => Math.max(0, n - 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count]);

  if (typeof steps === 'string') return <p role="alert">This record cannot be replayed: {steps}</p>;
  const step = steps[at];
  const dealStarts = steps.map((s, i) => (s.move === -1 ? i : -1)).filter((i) => i >= 0);
  const table = view(step.state, null);
  const hands = record.players.map((_, seat) => view(step.state, seat).hand ?? []);
  const name = (seat: number) => record.players[seat] ?? `Seat ${seat + 1}`;

  return (
    <div className="replay">
      <h1>Replay</h1>
      <nav aria-label="This game" className="actions">
        <a href={href.scores(gameId)}>Score sheet</a>
      </nav>
      <div className="replay-controls" role="group" aria-label="Step through the game">
        <button type="button" onClick={() => go(0)} disabled={at === 0}>
          First
        </button>
        <button type="button" onClick={() => go(at - 1)} disabled={at === 0}>
          Previous
        </button>
        <button type="button" onClick={() => go(at + 1)} disabled={at === count - 1}>
          Next
        </button>
        <button type="button" onClick={() => go(count - 1)} disabled={at === count - 1}>
          Last
        </button>
        <label htmlFor="replay-deal">Deal</label>
        <select id="replay-deal" value={step.deal} onChange={(e) => go(dealStarts[Number(e.target.value)])}>
            {dealStarts.map((_, d) => (
              <option key={d} value={d}>
                {d + 1}
              </option>
            ))}
        </select>
      </div>
      <p role="status" className="turn-line">
        Step {at + 1} of {count}: {step.text}.
      </p>
      <p>
        {table.contract ? `Contract ${contractName(table.contract)}` : table.bid ? `Bid ${table.bid}` : 'No contract yet'}
        {table.trump ? `, trump ${table.trump}` : ''} · tricks {table.tricks.map((t, seat) => `${name(seat)} ${t ?? '—'}`).join(', ')} · totals{' '}
        {table.totals.map((t, seat) => `${name(seat)} ${t}`).join(', ')}
      </p>
      <section className="panel" aria-labelledby="replay-trick">
        <h2 id="replay-trick">Trick</h2>
        {table.currentTrick && table.currentTrick.cards.length > 0 ? (
          <Trick trick={table.currentTrick} name={name} />
        ) : table.lastTrick ? (
          <Trick trick={table.lastTrick} name={name} />
        ) : (
          <p className="muted">No card on the table.</p>
        )}
      </section>
      <section className="panel" aria-labelledby="replay-hands">
        <h2 id="replay-hands">Hands</h2>
        <ul className="replay-hands">
          {hands.map((hand, seat) => (
            <li key={seat}>
              <h3>{name(seat)}</h3>
              <ul className="card-row">
                {sortCards(hand).map((card) => (
                  <li key={card}>
                    <CardText card={card} />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
