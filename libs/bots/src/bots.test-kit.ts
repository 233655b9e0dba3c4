// Helpers for the bots' tests: a seat's BotInput made from a GameState (only tests and the bench
// hold one), and games played by bots through the public rules API.
import {
  apply,
  cardName,
  currentPlayer,
  dealWithEvents,
  eventView,
  isOver,
  newGame,
  phase,
  shuffledDeck,
  view,
  type Card,
  type EventView,
  type GameEvent,
  type GameState,
  type Move,
  type Rules,
  type Seat,
} from '@mizerka/rules';
import { makeRng } from '../../rules/test-kit/index.js';
import type { BotInput } from './bot.js';

/** What `seat` is given: its view, and the current deal's events as it saw them. */
export function fromViewOf(state: GameState, seat: Seat, dealEvents: readonly GameEvent[]): BotInput {
  const seen: EventView[] = [];
  for (const e of dealEvents) {
    const v = eventView(e, seat);
    if (v) seen.push(v);
  }
  return { view: view(state, seat), dealEvents: seen };
}

export interface Turn {
  state: GameState;
  seat: Seat;
  input: BotInput;
  /** The deal's deck and the moves made in it before this turn, to replay it. */
  deck: Card[];
  dealer: Seat;
  movesBefore: Move[];
  /** The state before the deal was dealt. */
  beforeDeal: GameState;
}

/** Plays a game (at most maxDeals deals) with `choose` for every seat; throws when a move is refused. */
export function playGame(
  rules: Rules,
  firstDealer: Seat,
  seed: number,
  maxDeals: number,
  choose: (turn: Turn) => Move,
): GameState {
  const rng = makeRng(seed);
  let state = newGame(rules, firstDealer);
  for (let deals = 0; deals < maxDeals && !isOver(state); deals++) {
    const beforeDeal = state;
    const deck = shuffledDeck(rules, rng.hexSeed());
    const dealt = dealWithEvents(state, deck);
    if (!dealt.ok) throw new Error(dealt.error.message);
    state = dealt.value.state;
    const events: GameEvent[] = [...dealt.value.events];
    const moves: Move[] = [];
    const dealer = view(state, null).dealer;
    while (phase(state) !== 'dealing' && !isOver(state)) {
      const seat = currentPlayer(state) as Seat;
      const move = choose({ state, seat, input: fromViewOf(state, seat, events), deck, dealer, movesBefore: [...moves], beforeDeal });
      const next = apply(state, move);
      if (!next.ok) throw new Error(`refused ${JSON.stringify(move)}: ${next.error.rule}: ${next.error.message}`);
      state = next.value.state;
      events.push(...next.value.events);
      moves.push(move);
    }
  }
  return state;
}

/**
 * The same deal with the cards `seat` has not seen moved about: the hidden cards that no move
 * names change places within their suit (so every earlier move stays legal and every void stays
 * true), then the deal's moves are replayed. Returns the new state and deal events, or null when
 * nothing could move.
 */
export function reshuffleHidden(turn: Turn, seed: number): { state: GameState; events: GameEvent[] } | null {
  const { input, deck, movesBefore } = turn;
  const named = new Set<number>();
  for (const m of movesBefore) {
    if (m.kind === 'play') named.add(m.card);
    if (m.kind === 'exchange') m.discards.forEach((c) => named.add(c));
    if (m.kind === 'discard') m.cards.forEach((c) => named.add(c));
  }
  const known = new Set<string>([...(input.view.hand ?? []), ...(input.view.discards ?? [])]);
  for (const e of input.dealEvents) {
    if (e.type === 'exchanged' && e.drawn) e.drawn.forEach((c) => known.add(c));
    if (e.type === 'talonTaken' && e.cards) e.cards.forEach((c) => known.add(c));
  }
  const movable = deck.map((c, i) => i).filter((i) => !named.has(deck[i]) && !known.has(cardName(deck[i])));
  const rng = makeRng(seed);
  const next = [...deck];
  let moved = false;
  for (let suit = 0; suit < 4; suit++) {
    const places = movable.filter((i) => ((deck[i] / 13) | 0) === suit);
    const cards = rng.shuffle(places.map((i) => deck[i]));
    places.forEach((p, j) => {
      next[p] = cards[j];
      if (cards[j] !== deck[p]) moved = true;
    });
  }
  if (!moved) return null;
  const dealt = dealWithEvents(turn.beforeDeal, next);
  if (!dealt.ok) throw new Error(dealt.error.message);
  let state = dealt.value.state;
  const events = [...dealt.value.events];
  for (const move of movesBefore) {
    const r = apply(state, move);
    if (!r.ok) throw new Error(`replay refused ${JSON.stringify(move)}: ${r.error.message}`);
    state = r.value.state;
    events.push(...r.value.events);
  }
  return { state, events };
}
