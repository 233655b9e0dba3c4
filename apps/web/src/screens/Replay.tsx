import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import i18n, { formatNumber } from '../i18n';
import { bidName, contractName, trumpName } from '../terms';
import type { Bid, Contract } from '../gql/graphql';

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
  const who = players[move.seat] ?? i18n.t('replay:seat', { n: move.seat + 1 });
  if (move.play) return i18n.t('replay:move.play', { who, card: cardName(move.play) });
  if (move.contract) return i18n.t('replay:move.contract', { who, contract: contractName(move.contract as Contract) });
  if (move.exchange) return move.exchange.length ? i18n.t('replay:move.exchange', { who, cards: move.exchange.map(cardName).join(', ') }) : i18n.t('replay:move.keep', { who });
  if (move.bid) return i18n.t('replay:move.bid', { who, bid: bidName(move.bid as Bid) });
  if (move.discard) return i18n.t('replay:move.discard', { who, cards: move.discard.map(cardName).join(', ') });
  if (move.trump) return i18n.t('replay:move.trump', { who, suit: trumpName(move.trump) });
  return i18n.t('replay:move.other', { who });
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
    steps.push({ deal: d, move: -1, text: i18n.t('replay:dealt', { n: d + 1 }), state });
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
  const { t } = useTranslation('replay');
  const token = useToken();
  const record = useLoad(() => request(GameRecordDocument, { gameId }, token).then((r) => r.gameRecord), [gameId, token]);
  return (
    <LoadState error={record.error} loading={!record.data} what={t('loading')}>
      {record.data && <Replay gameId={gameId} record={record.data} />}
    </LoadState>
  );
}

function Replay({ gameId, record }: { gameId: string; record: GameRecord }) {
  const { t } = useTranslation('replay');
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

  if (typeof steps === 'string') return <p role="alert">{t('cannot', { reason: steps })}</p>;
  const step = steps[at];
  const dealStarts = steps.map((s, i) => (s.move === -1 ? i : -1)).filter((i) => i >= 0);
  const table = view(step.state, null);
  const hands = record.players.map((_, seat) => view(step.state, seat).hand ?? []);
  const name = (seat: number) => record.players[seat] ?? t('seat', { n: seat + 1 });

  return (
    <div className="replay">
      <h1>{t('title')}</h1>
      <nav aria-label={t('thisGame')} className="actions">
        <a href={href.scores(gameId)}>{t('scoreSheet')}</a>
      </nav>
      <div className="replay-controls" role="group" aria-label={t('steps')}>
        <button type="button" onClick={() => go(0)} disabled={at === 0}>
          {t('first')}
        </button>
        <button type="button" onClick={() => go(at - 1)} disabled={at === 0}>
          {t('previous')}
        </button>
        <button type="button" onClick={() => go(at + 1)} disabled={at === count - 1}>
          {t('next')}
        </button>
        <button type="button" onClick={() => go(count - 1)} disabled={at === count - 1}>
          {t('last')}
        </button>
        <label htmlFor="replay-deal">{t('deal')}</label>
        <select id="replay-deal" value={step.deal} onChange={(e) => go(dealStarts[Number(e.target.value)])}>
            {dealStarts.map((_, d) => (
              <option key={d} value={d}>
                {d + 1}
              </option>
            ))}
        </select>
      </div>
      <p role="status" className="turn-line">
        {t('step', { n: at + 1, total: count, text: step.text })}
      </p>
      <p>
        {table.contract ? t('contract', { contract: contractName(table.contract) }) : table.bid ? t('bid', { bid: bidName(table.bid as Bid) }) : t('noContract')}
        {table.trump ? `, ${t('trump', { suit: trumpName(table.trump) })}` : ''} · {t('tricks', { list: table.tricks.map((n, seat) => `${name(seat)} ${n ?? '—'}`).join(', ') })} ·{' '}
        {t('totals', { list: table.totals.map((n, seat) => `${name(seat)} ${formatNumber(n)}`).join(', ') })}
      </p>
      <section className="panel" aria-labelledby="replay-trick">
        <h2 id="replay-trick">{t('trick')}</h2>
        {table.currentTrick && table.currentTrick.cards.length > 0 ? (
          <Trick trick={table.currentTrick} name={name} />
        ) : table.lastTrick ? (
          <Trick trick={table.lastTrick} name={name} />
        ) : (
          <p className="muted">{t('noCard')}</p>
        )}
      </section>
      <section className="panel" aria-labelledby="replay-hands">
        <h2 id="replay-hands">{t('hands')}</h2>
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
