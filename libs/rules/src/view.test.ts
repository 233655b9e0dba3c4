import { describe, expect, it } from 'vitest';
import {
  buildDeck,
  cardName,
  dealWithEvents,
  decodeState,
  eventView,
  legalMoves,
  makeRules,
  newGame,
  parseCard,
  PRESETS,
  encodeState,
  shuffledDeck,
  view,
  Xoshiro128,
  type GameEvent,
  type GameState,
} from './index.js';
import { randomPlayout } from './fast.js';
import { makeRng, playRandomGame } from '../test-kit/index.js';
import { dealt, must, rulesOf, step, stepEvents } from './test-support.js';

describe('cards', () => {
  it('names and parses every card', () => {
    expect(cardName(51)).toBe('AS');
    expect(cardName(0)).toBe('2C');
    expect(parseCard('TD')).toBe(13 + 8);
    expect(parseCard('7C')).toBe(5);
    for (let c = 0; c < 52; c++) expect(parseCard(cardName(c))).toBe(c);
    for (const bad of ['', 'A', 'as', '10H', '1S', 'AX', 'ASS', ' AS']) expect(parseCard(bad)).toBeNull();
  });
});

describe('rules', () => {
  it('knows the presets and normalises options', () => {
    expect(PRESETS).toEqual(['classic', 'classic-4', 'short', 'short-4', 'bidding', 'bidding-4']);
    const r = must(makeRules('bidding-4', { doubleMisere: true }));
    expect(r).toMatchObject({ family: 'bidding', players: 4, contracts: [], target: 300, doubleMisere: true, deals: null, options: { doubleMisere: true } });
    expect(r.deck).toHaveLength(32);
    expect(must(makeRules('classic', null))).toMatchObject({ mizerkaQuotas: 'reversed', options: {} });
  });

  it.each([
    ['poker', {}],
    ['classic', { target: 5 }],
    ['bidding', { mizerkaQuotas: 'same' }],
    ['bidding', { target: 0 }],
    ['bidding', { target: 2.5 }],
    ['bidding', { target: '300' }],
    ['bidding', { doubleMisere: 'yes' }],
    ['classic', { colour: 'red' }],
    ['classic', [1]],
    ['classic', 'same'],
  ])('%s %j → BAD_RULES', (preset, options) => {
    const r = makeRules(preset, options);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'BAD_RULES', rule: 'bad-rules' });
  });
});

describe('shuffledDeck', () => {
  it('is xoshiro128** from the four seed words', () => {
    const rng = Xoshiro128.fromSeed('00000001000000020000000300000004');
    // Reference outputs of xoshiro128** for the state {1, 2, 3, 4}.
    expect([rng.next(), rng.next(), rng.next(), rng.next()]).toEqual([11520, 0, 5927040, 70819200]);
  });

  it('is a deterministic permutation of the family deck', () => {
    const rules = rulesOf('classic');
    const a = shuffledDeck(rules, '0123456789abcdef0123456789ABCDEF');
    expect(shuffledDeck(rules, '0123456789abcdef0123456789ABCDEF')).toEqual(a);
    expect([...a].sort((x, y) => x - y)).toEqual([...rules.deck]);
    expect(a).not.toEqual(rules.deck);
    expect(shuffledDeck(rules, '0123456789abcdef0123456789abcdee')).not.toEqual(a);
    const b = shuffledDeck(rulesOf('bidding'), '0123456789abcdef0123456789abcdef');
    expect([...b].sort((x, y) => x - y)).toEqual([...rulesOf('bidding').deck]);
  });

  it('pins the first deck of a fixed seed (a regression anchor)', () => {
    const deck = shuffledDeck(rulesOf('bidding'), '00000001000000020000000300000004').map(cardName);
    // Checked against an independent Python implementation of the same steps.
    expect(deck.join(' ')).toBe('TH 8D AC KC TS QC QS KH 8S JS 9C JC JH JD 9H 8H KD 9D TC QH 7D 8C 9S QD 7S 7H AD AH TD KS AS 7C');
  });

  it('refuses a seed that is not 32 hex digits', () => {
    expect(() => shuffledDeck(rulesOf('classic'), 'abc')).toThrow(RangeError);
  });
});

describe('views: the one redaction point', () => {
  const rules = rulesOf('classic');
  const deck = shuffledDeck(rules, 'feedfacecafebeef0123456789abcdef');

  function cardsIn(json: unknown): Set<string> {
    const out = new Set<string>();
    JSON.stringify(json, (_k, v) => {
      if (typeof v === 'string' && parseCard(v) !== null) out.add(v);
      return v;
    });
    return out;
  }

  it('a seat sees only its first 6 cards during the pause, and no other hand or the talon', () => {
    const { state, events } = must(dealWithEvents(newGame(rules, 0), deck));
    const v1 = view(state, 1);
    expect(v1.hand).toHaveLength(6);
    expect(v1.legalMoves).toMatchObject({ kind: 'contract' });
    expect(view(state, 2).legalMoves).toBeNull();
    expect(cardsIn(v1)).toEqual(new Set(v1.hand));
    expect(cardsIn(view(state, null)).size).toBe(0);
    const dealtEvent = eventView(events[0], 2);
    expect(dealtEvent).toMatchObject({ type: 'dealt', deal: 0, dealer: 0, handSizes: [6, 6, 6], talonSize: 6 });
    expect(cardsIn(dealtEvent)).toEqual(new Set(view(state, 2).hand));
    expect(cardsIn(eventView(events[0], null))).toEqual(new Set());
  });

  it('exchanges show counts to others and cards to the exchanger only', () => {
    let state = dealt(newGame(rules, 0), deck);
    state = step(state, { kind: 'contract', seat: 1, contract: 'hearts' });
    const hand = legalMoves(state)!;
    if (hand.kind !== 'exchange') throw new Error();
    const { state: after, events } = stepEvents(state, { kind: 'exchange', seat: 1, discards: hand.cards.slice(0, 3) });
    const ev = events[0] as Extract<GameEvent, { type: 'exchanged' }>;
    expect(eventView(ev, 0)).toEqual({ type: 'exchanged', seat: 1, count: 3 });
    expect(eventView(ev, null)).toEqual({ type: 'exchanged', seat: 1, count: 3 });
    expect(eventView(ev, 1)).toMatchObject({ count: 3, discards: hand.cards.slice(0, 3).map(cardName) });
    for (const seat of [0, 2, null]) {
      const v = view(after, seat);
      const own = new Set([...(v.hand ?? []), ...(v.discards ?? [])]);
      expect([...cardsIn(v)].every((c) => own.has(c))).toBe(true);
      expect(v.exchanged).toEqual([null, 3, null]);
    }
  });

  it('through a whole game, no view shows a card of another hand, the talon or another seat\'s discards', () => {
    for (const preset of ['classic-4', 'bidding-4', 'bidding']) {
      const r = rulesOf(preset, preset.startsWith('bidding') ? { doubleMisere: true } : {});
      const rng = new Xoshiro128(3, 1, 4, 1);
      let state: GameState = newGame(r, 0);
      for (let d = 0; d < 3; d++) {
        const deck = shuffledDeck(r, `0000000${d}00000000000000000000000${d}`);
        state = must(dealWithEvents(state, deck)).state;
        while (legalMoves(state)) {
          const played = new Set<string>();
          const v = view(state, null);
          for (const c of v.currentTrick?.cards ?? []) played.add(c.card);
          for (const c of v.lastTrick?.cards ?? []) played.add(c.card);
          expect(cardsIn(v)).toEqual(played);
          for (let seat = 0; seat < r.players; seat++) {
            const sv = view(state, seat);
            const allowed = new Set([...played, ...(sv.hand ?? []), ...(sv.discards ?? []), ...(sv.legalMoves ? cardsIn(sv.legalMoves) : [])]);
            expect([...cardsIn(sv)].filter((c) => !allowed.has(c))).toEqual([]);
            expect(sv.hand!.length).toBe(sv.handSizes[seat]);
          }
          // one random step, in place on a copy
          const copy = decodeState(JSON.parse(encodeState(state)));
          randomStep(copy, rng);
          state = copy;
        }
      }
    }
  });

  it('bidding: the talon is hidden until taken, then known only to the declarer; discards to the declarer only', () => {
    const r = rulesOf('bidding');
    const deck = buildDeck(r, 0, { talon: ['AS', 'AH'] });
    let state = dealt(newGame(r, 0), deck);
    state = step(state, { kind: 'bid', seat: 1, bid: 'play' });
    state = step(state, { kind: 'bid', seat: 2, bid: 'pass' });
    const { state: taken, events } = stepEvents(state, { kind: 'bid', seat: 0, bid: 'pass' });
    const talonEvent = events.find((e) => e.type === 'talonTaken')!;
    expect(eventView(talonEvent, 1)).toEqual({ type: 'talonTaken', seat: 1, count: 2, cards: ['AS', 'AH'] });
    expect(eventView(talonEvent, 0)).toEqual({ type: 'talonTaken', seat: 1, count: 2 });
    expect(view(taken, 1).hand).toContain('AS');
    expect(view(taken, 0).hand).not.toContain('AS');
    const { events: de } = stepEvents(taken, { kind: 'discard', seat: 1, cards: [parseCard('AS')!, parseCard('AH')!] });
    expect(eventView(de[0], 2)).toEqual({ type: 'discarded', seat: 1, count: 2 });
    expect(eventView(de[0], 1)).toEqual({ type: 'discarded', seat: 1, count: 2, cards: ['AS', 'AH'] });
  });
});

describe('encodeState', () => {
  it('round-trips through JSON at every step', () => {
    const r = rulesOf('bidding-4', { doubleMisere: true, target: 50 });
    let state = newGame(r, 3);
    const rng = new Xoshiro128(5, 6, 7, 8);
    for (let d = 0; d < 2; d++) {
      state = dealt(state, shuffledDeck(r, `abcdef0${d}abcdef00abcdef00abcdef00`));
      randomPlayout(state, rng);
      const json = JSON.parse(encodeState(state));
      const back = decodeState(json);
      expect(view(back, 1)).toEqual(view(state, 1));
      expect(JSON.parse(encodeState(back))).toEqual(json);
      expect(JSON.parse(encodeState(state))).toEqual(json);
    }
    expect(() => decodeState({ format: 'nope' })).toThrow();
  });

  it('writes a list grown in place anew, not the text it kept for it', () => {
    const { state } = playRandomGame(rulesOf('classic'), makeRng(5), { maxDeals: 2, keepSteps: false });
    const finished = (state as unknown as { finished: unknown[] }).finished;
    expect(JSON.parse(encodeState(state)).finished).toHaveLength(2);
    finished.push(finished[0]);
    expect(JSON.parse(encodeState(state)).finished).toEqual(finished);
  });

  it('writes the JSON text JSON.stringify would write, field for field, at every step of whole games', () => {
    const check = (state: GameState, where: string) => {
      const text = encodeState(state);
      expect(JSON.stringify(JSON.parse(text))).toBe(text);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const fields = state as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(parsed)) {
        if (key === 'format' || key === 'v' || key === 'rules') continue;
        const field = fields[key];
        expect(value, `${where} ${key}`).toEqual(ArrayBuffer.isView(field) ? Array.from(field as Uint8Array) : field);
      }
      expect(encodeState(decodeState(parsed))).toBe(text);
    };
    for (const preset of PRESETS) {
      const game = playRandomGame(rulesOf(preset), makeRng(PRESETS.indexOf(preset) + 11), {
        keepSteps: false,
        onDeal: (d) => (check(d.before, `${preset} before deal ${d.dealIndex}`), check(d.after, `${preset} deal ${d.dealIndex}`)),
        onStep: (s) => check(s.after, `${preset} deal ${s.dealIndex} move ${s.moveIndex}`),
      });
      expect(game.over, preset).toBe(true);
    }
  });
});

/** One random legal move, in place. */
function randomStep(state: GameState, rng: Xoshiro128): void {
  const legal = legalMoves(state)!;
  const pick = <T>(xs: readonly T[]): T => xs[rng.below(xs.length)];
  let next: GameState;
  switch (legal.kind) {
    case 'contract':
      next = step(state, { kind: 'contract', seat: legal.seat, contract: pick(legal.contracts) });
      break;
    case 'exchange':
      next = step(state, { kind: 'exchange', seat: legal.seat, discards: legal.cards.slice(0, rng.below(Math.min(legal.maxDiscards, 4) + 1)) });
      break;
    case 'bid':
      next = step(state, { kind: 'bid', seat: legal.seat, bid: pick(legal.bids) });
      break;
    case 'discard':
      next = step(state, { kind: 'discard', seat: legal.seat, cards: legal.cards.slice(-2) });
      break;
    case 'trump':
      next = step(state, { kind: 'trump', seat: legal.seat, suit: pick(legal.suits) });
      break;
    case 'play':
      next = step(state, { kind: 'play', seat: legal.seat, card: pick(legal.cards) });
      break;
  }
  Object.assign(state, next);
}
