// Games that end early (docs/rules.md, "Games that end early"): endGame in every
// phase of both families, with 3 and 4 players; places and winners; refusals; serialisation;
// views and the gameEnded event; placesOf.
import { describe, expect, it } from 'vitest';
import {
  apply,
  currentPlayer,
  deal,
  dealIndex,
  decodeState,
  endGame,
  eventView,
  gameEnd,
  isOver,
  legalMoves,
  newGame,
  outcome,
  phase,
  placesOf,
  encodeState,
  shuffledDeck,
  view,
  type EndReason,
  type GameEnd,
  type GameState,
  type Outcome,
  type Preset,
  type Seat,
} from './index.js';
import { copyState } from './fast.js';
import { canon, makeRng, mustRules, playRandomGame, randomMove } from '../test-kit/index.js';

const CARD = /\b[2-9TJQKA][CDHS]\b/g;

/** Every state of random games (after each deal and each move), in order, until `pred` holds. */
function reach(preset: Preset, pred: (state: GameState) => boolean, what: string): GameState {
  const rules = mustRules(preset);
  for (let seed = 1; seed <= 300; seed++) {
    let found: GameState | null = null;
    const look = (state: GameState) => {
      if (found === null && pred(state)) found = state;
    };
    playRandomGame(rules, makeRng(seed), {
      firstDealer: seed % rules.players,
      maxDeals: 3,
      keepSteps: false,
      onDeal: (d) => look(d.after),
      onStep: (s) => look(s.after),
    });
    if (found) return found;
  }
  throw new Error(`no random game of ${preset} reached: ${what}`);
}

const trickCards = (state: GameState) => view(state, null).currentTrick?.cards.length ?? 0;
const tricksTaken = (state: GameState) => view(state, null).tricks.reduce<number>((a, t) => a + (t ?? 0), 0);

const SITUATIONS: Record<string, (state: GameState) => boolean> = {
  'before the first deal': () => false, // newGame itself, below
  'the contract pause': (s) => phase(s) === 'contract' && dealIndex(s) >= 1,
  'the exchange, half done': (s) => phase(s) === 'exchange' && view(s, null).exchanged.some((e) => e !== null),
  'play, mid-trick': (s) => phase(s) === 'play' && trickCards(s) > 0 && tricksTaken(s) > 0,
  'play, between tricks': (s) => phase(s) === 'play' && trickCards(s) === 0 && tricksTaken(s) > 0,
  'bidding, half done': (s) => phase(s) === 'bidding' && view(s, null).bids.some((b) => b !== null),
  'the discard': (s) => phase(s) === 'discard',
  'the trump': (s) => phase(s) === 'trump',
  'between deals': (s) => phase(s) === 'dealing' && dealIndex(s) >= 1 && outcome(s).totals.some((t) => t !== 0),
};

const CASES: [Preset, string][] = [];
for (const preset of ['classic', 'classic-4'] as Preset[]) {
  for (const what of ['before the first deal', 'the contract pause', 'the exchange, half done', 'play, mid-trick', 'play, between tricks', 'between deals']) {
    CASES.push([preset, what]);
  }
}
for (const preset of ['bidding', 'bidding-4'] as Preset[]) {
  for (const what of ['before the first deal', 'bidding, half done', 'the discard', 'the trump', 'play, mid-trick', 'between deals']) {
    CASES.push([preset, what]);
  }
}

function situation(preset: Preset, what: string): GameState {
  if (what === 'before the first deal') return newGame(mustRules(preset), 1);
  return reach(preset, SITUATIONS[what], what);
}

/** Ends `before` for `end` and checks everything docs/rules.md and the README say about the result. */
function checkEnd(before: GameState, end: GameEnd): { after: GameState; outcome: Outcome } {
  const rules = before.rules;
  const n = rules.players;
  const snapshot = canon(JSON.parse(encodeState(before)));
  const o0 = outcome(before);
  const moving = phase(before) !== 'dealing';
  const r = endGame(before, end);
  if (!r.ok) throw new Error(`endGame refused: ${JSON.stringify(r.error)}`);
  expect(canon(JSON.parse(encodeState(before)))).toBe(snapshot); // pure: the given state is not changed
  const after = r.value.state;

  expect(phase(after)).toBe('over');
  expect(isOver(after)).toBe(true);
  expect(currentPlayer(after)).toBeNull();
  expect(legalMoves(after)).toBeNull();
  expect(gameEnd(after)).toStrictEqual(end);
  expect(gameEnd(before)).toBeNull();

  // The deal in progress is abandoned: reported like an unfinished deal; totals are the finished deals'.
  const o = outcome(after);
  expect(o.deals).toStrictEqual(o0.deals);
  if (moving) expect(o.deals.at(-1)!.scores).toBeNull();
  const sums = new Array<number>(n).fill(0);
  for (const d of o.deals) if (d.scores) d.scores.forEach((x, seat) => (sums[seat] += x));
  expect(o.totals).toStrictEqual(sums);
  expect(o.totals).toStrictEqual(o0.totals);
  expect(o.deals.filter((d) => d.scores === null).length).toBe(moving ? 1 : 0);

  // Places: the ending seat last, alone; the others by their totals; winners the first place.
  const places = placesOf(o.totals, end.seat);
  expect(places[end.seat]).toBe(n);
  for (let seat = 0; seat < n; seat++) {
    if (seat === end.seat) continue;
    expect(places[seat]).toBeLessThan(n);
    expect(places[seat]).toBe(1 + o.totals.filter((t, other) => other !== end.seat && t > o.totals[seat]).length);
  }
  const winners = places.flatMap((p, seat) => (p === 1 ? [seat] : []));
  expect(winners).not.toContain(end.seat);
  expect(winners.length).toBeGreaterThan(0);
  expect(o).toStrictEqual({ deals: o0.deals, totals: o0.totals, finished: true, winners, end });
  expect(Object.keys(o)).toEqual(['deals', 'totals', 'finished', 'winners', 'end']);
  expect(r.value.events).toStrictEqual([
    { type: 'gameEnded', seat: end.seat, reason: end.reason },
    { type: 'gameOver', totals: o0.totals, winners },
  ]);

  // Nobody moves again; the game cannot end twice.
  const legal = legalMoves(before);
  if (legal) {
    const move = randomMove(legal, makeRng(7));
    expect(apply(before, move).ok).toBe(true);
    const refused = apply(after, move);
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'GAME_OVER', rule: 'game-over' });
  } else {
    const refused = deal(after, shuffledDeck(rules, '0123456789abcdef0123456789abcdef'));
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'GAME_OVER', rule: 'game-over' });
  }
  for (let seat = 0; seat < n; seat++) {
    const again = endGame(after, { seat, reason: 'forfeit' });
    expect(again.ok ? null : again.error).toMatchObject({ code: 'GAME_OVER', rule: 'game-over' });
  }

  // Views: the end, nobody to move, no cards at all of the abandoned deal (not even one's own).
  const lastTrick = view(before, null).lastTrick;
  const publicCards = new Set(lastTrick ? lastTrick.cards.map((c) => c.card) : []);
  for (const viewer of [null, ...Array.from({ length: n }, (_, i) => i)]) {
    const v = view(after, viewer);
    expect(v).toMatchObject({
      phase: 'over', toMove: null, legalMoves: null, over: true, winners, end, totals: o0.totals,
      hand: viewer === null ? null : [], discards: viewer === null ? null : [], talonSize: 0, currentTrick: null,
    });
    expect(v.handSizes).toStrictEqual(new Array(n).fill(0));
    const named = JSON.stringify(v).match(CARD) ?? [];
    expect(named.filter((c) => !publicCards.has(c))).toStrictEqual([]);
    expect(view(before, viewer).end).toBeNull();
  }

  // Copies and serialisation keep the end.
  const json = JSON.parse(JSON.stringify(JSON.parse(encodeState(after))));
  for (const copy of [decodeState(json), copyState(after)]) {
    expect(gameEnd(copy)).toStrictEqual(end);
    expect(isOver(copy)).toBe(true);
    expect(canon(outcome(copy))).toBe(canon(o));
    expect(canon(JSON.parse(encodeState(copy)))).toBe(canon(JSON.parse(encodeState(after))));
    for (const viewer of [null, 0]) expect(canon(view(copy, viewer))).toBe(canon(view(after, viewer)));
  }
  return { after, outcome: o };
}

describe('endGame: any phase, any seat, both families, 3 and 4 players', () => {
  it.each(CASES)('%s, %s', (preset, what) => {
    const before = situation(preset, what);
    const n = before.rules.players;
    const toMove = currentPlayer(before);
    for (let seat = 0; seat < n; seat++) {
      const reason: EndReason = seat % 2 === 0 ? 'resigned' : 'forfeit';
      checkEnd(before, { seat, reason });
    }
    // Not only the seat to move may end it.
    if (toMove !== null) checkEnd(before, { seat: (toMove + 1) % n, reason: 'resigned' });
  });
});

describe('places and winners', () => {
  it('the resigning seat is last alone even with the highest total; the others share by their totals', () => {
    const before = reach('bidding', (s) => phase(s) === 'dealing' && new Set(outcome(s).totals).size === 2, 'a tie and one other total');
    const totals = outcome(before).totals;
    // The seat whose total differs from the two equal ones.
    const odd = totals.findIndex((t) => totals.filter((u) => u === t).length === 1);
    const tied = [0, 1, 2].filter((s) => s !== odd);
    const { outcome: o } = checkEnd(before, { seat: odd, reason: 'resigned' });
    expect(o.winners).toStrictEqual(tied); // the two others share the first place
    const places = placesOf(o.totals, odd);
    expect(places[odd]).toBe(3);
    for (const s of tied) expect(places[s]).toBe(1);
    // A tied seat resigns: the other tied seat wins alone only if it beats the odd one.
    const { outcome: p } = checkEnd(before, { seat: tied[0], reason: 'forfeit' });
    expect(p.winners).toStrictEqual(totals[tied[1]] > totals[odd] ? [tied[1]] : [odd]);
  });

  it('the seat with the highest total resigns and does not win', () => {
    const before = reach('classic-4', (s) => phase(s) === 'dealing' && outcome(s).totals.some((t) => t > 0), 'a positive total');
    const totals = outcome(before).totals;
    const top = totals.indexOf(Math.max(...totals));
    const { outcome: o } = checkEnd(before, { seat: top, reason: 'resigned' });
    expect(o.winners).not.toContain(top);
    expect(placesOf(o.totals, top)[top]).toBe(4);
    const rest = totals.filter((_, s) => s !== top);
    expect(o.winners).toStrictEqual(totals.flatMap((t, s) => (s !== top && t === Math.max(...rest) ? [s] : [])));
  });

  it('before any deal: all totals 0, every other seat wins', () => {
    const { outcome: o } = checkEnd(newGame(mustRules('short-4'), 3), { seat: 2, reason: 'forfeit' });
    expect(o).toStrictEqual({ deals: [], totals: [0, 0, 0, 0], finished: true, winners: [0, 1, 3], end: { seat: 2, reason: 'forfeit' } });
  });
});

describe('endGame refuses', () => {
  const state = reach('classic', (s) => phase(s) === 'play' && trickCards(s) > 0, 'play');

  it.each([
    [{ seat: 3, reason: 'resigned' }, 'no-such-seat'],
    [{ seat: -1, reason: 'resigned' }, 'no-such-seat'],
    [{ seat: 1.5, reason: 'resigned' }, 'no-such-seat'],
    [{ seat: '1', reason: 'resigned' }, 'no-such-seat'],
    [{ reason: 'resigned' }, 'no-such-seat'],
    [{ seat: 1, reason: 'quit' }, 'bad-end-reason'],
    [{ seat: 1 }, 'bad-end-reason'],
    [null, 'bad-end'],
    ['resigned', 'bad-end'],
  ])('%j → BAD_MOVE %s, state unchanged', (end, rule) => {
    const snapshot = canon(JSON.parse(encodeState(state)));
    const r = endGame(state, end as unknown as GameEnd);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ code: 'BAD_MOVE', rule });
      expect(r.error.message).not.toMatch(CARD);
    }
    expect(canon(JSON.parse(encodeState(state)))).toBe(snapshot);
    expect(isOver(state)).toBe(false);
  });

  it('a game that ended normally: GAME_OVER', () => {
    const rules = mustRules('bidding', { target: 10 });
    const game = playRandomGame(rules, makeRng(3), { keepSteps: false });
    expect(game.over).toBe(true);
    const r = endGame(game.state, { seat: 0, reason: 'resigned' });
    expect(r.ok ? null : r.error).toMatchObject({ code: 'GAME_OVER', rule: 'game-over' });
    expect(gameEnd(game.state)).toBeNull();
    expect(view(game.state, 0).end).toBeNull();
    expect('end' in outcome(game.state)).toBe(false);
  });
});

describe('serialisation', () => {
  it('a state serialised before early ends existed (no endSeat, endReason, abandoned) still loads', () => {
    const state = reach('bidding-4', (s) => phase(s) === 'play', 'play');
    const json = JSON.parse(encodeState(state)) as Record<string, unknown>;
    expect(json).toMatchObject({ endSeat: -1, endReason: -1, abandoned: [] });
    const old = { ...json };
    delete old.v; // stored before the codec wrote versions
    delete old.endSeat;
    delete old.endReason;
    delete old.abandoned;
    const back = decodeState(old);
    expect(canon(JSON.parse(encodeState(back)))).toBe(canon(json));
    expect(gameEnd(back)).toBeNull();
    const ended = endGame(back, { seat: 1, reason: 'forfeit' });
    expect(ended.ok).toBe(true);
  });
});

describe('eventView of gameEnded', () => {
  it('is public: every seat and spectators see who ended it and why', () => {
    const state = reach('classic', (s) => phase(s) === 'exchange', 'exchange');
    const r = endGame(state, { seat: 0, reason: 'forfeit' });
    if (!r.ok) throw new Error(r.error.message);
    for (const viewer of [null, 0, 1, 2]) {
      expect(r.value.events.map((e) => eventView(e, viewer))).toStrictEqual([
        { type: 'gameEnded', seat: 0, reason: 'forfeit' },
        { type: 'gameOver', totals: outcome(state).totals, winners: r.value.events[1].type === 'gameOver' ? r.value.events[1].winners : [] },
      ]);
    }
  });
});

/** The server's formula (apps/api/src/scoring/standings.ts) before this library had placesOf. */
const serverPlaces = (totals: readonly number[]) => totals.map((t) => 1 + totals.filter((o) => o > t).length);

describe('placesOf', () => {
  it.each<[number[], Seat | null | undefined, number[]]>([
    [[0, 0, 0], undefined, [1, 1, 1]],
    [[10, -20, 10], undefined, [1, 3, 1]],
    [[10, -20, 10], null, [1, 3, 1]],
    [[3, 2, 1], undefined, [1, 2, 3]],
    [[1, 2, 3, 4], undefined, [4, 3, 2, 1]],
    [[5, 5, 1, 1], undefined, [1, 1, 3, 3]],
    [[-1, 0, -1, 0], undefined, [3, 1, 3, 1]],
    [[0, 30, 0], 1, [1, 3, 1]], // the highest total resigns: last alone
    [[10, -20, 10], 0, [3, 2, 1]],
    [[10, -20, 10], 1, [1, 3, 1]],
    [[0, 0, 0], 2, [1, 1, 3]],
    [[7, 7, 7, 7], 0, [4, 1, 1, 1]],
    [[5, 5, 1, 1], 2, [1, 1, 4, 3]],
    [[5, 5, 1, 1], 0, [4, 1, 2, 2]],
    [[-3, 4, 4, -3], 3, [3, 1, 1, 4]],
  ])('placesOf(%j, %j) = %j', (totals, last, places) => {
    expect(placesOf(totals, last)).toStrictEqual(places);
    if (last === undefined || last === null) expect(placesOf(totals)).toStrictEqual(serverPlaces(totals));
  });

  it('agrees with the server formula on many totals when no seat ended the game', () => {
    const rng = makeRng(11);
    for (let i = 0; i < 500; i++) {
      const totals = Array.from({ length: 3 + rng.int(2) }, () => rng.int(7) - 3);
      expect(placesOf(totals)).toStrictEqual(serverPlaces(totals));
      expect(placesOf(totals, null)).toStrictEqual(serverPlaces(totals));
    }
  });

  it('a last that is not a seat is a programming error', () => {
    expect(() => placesOf([1, 2, 3], 3)).toThrow(RangeError);
    expect(() => placesOf([1, 2, 3], -1)).toThrow(RangeError);
  });
});
