import { describe, expect, it } from 'vitest';
import {
  apply,
  buildDeck,
  cardName,
  deal,
  formatRecordError,
  isOver,
  legalMoves,
  makeRules,
  moveFromJson,
  moveToJson,
  newGame,
  outcome,
  parseRecord,
  phase,
  replay,
  shuffledDeck,
  Xoshiro128,
  type GameRecord,
  type GameState,
  type Move,
  type RecordMove,
  type Rules,
} from './index.js';

function rulesOf(preset: string, options?: unknown): Rules {
  const r = makeRules(preset, options);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A random legal move of the player to move, through the public API only. */
function randomMove(state: GameState, rng: Xoshiro128): Move {
  const legal = legalMoves(state);
  if (!legal) throw new Error('no move');
  const pick = <T>(xs: readonly T[]): T => xs[rng.below(xs.length)];
  const some = (cards: number[], k: number) => {
    const c = [...cards];
    for (let i = 0; i < k; i++) {
      const j = i + rng.below(c.length - i);
      [c[i], c[j]] = [c[j], c[i]];
    }
    return c.slice(0, k);
  };
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat: legal.seat, contract: pick(legal.contracts) };
    case 'exchange':
      return { kind: 'exchange', seat: legal.seat, discards: some(legal.cards, rng.below(legal.maxDiscards + 1)) };
    case 'bid':
      return { kind: 'bid', seat: legal.seat, bid: pick(legal.bids) };
    case 'discard':
      return { kind: 'discard', seat: legal.seat, cards: some(legal.cards, 2) };
    case 'trump':
      return { kind: 'trump', seat: legal.seat, suit: pick(legal.suits) };
    case 'play':
      return { kind: 'play', seat: legal.seat, card: pick(legal.cards) };
  }
}

/** A record of a random game; stops after `maxDeals` deals and `lastMoves` moves into the last one. */
export function randomRecord(preset: string, options: object, seed: number, maxDeals = Infinity, lastMoves = Infinity): GameRecord {
  const rules = rulesOf(preset, options);
  const rng = new Xoshiro128(seed, 7, 11, 13);
  const record: GameRecord = { format: 'mizerka-record/1', rules: { preset: rules.preset, options }, firstDealer: seed % rules.players, deals: [] };
  let state = newGame(rules, record.firstDealer);
  while (!isOver(state) && record.deals.length < maxDeals) {
    const seed128 = Array.from({ length: 4 }, () => rng.next().toString(16).padStart(8, '0')).join('');
    const deck = shuffledDeck(rules, seed128);
    const dealt = deal(state, deck);
    if (!dealt.ok) throw new Error(dealt.error.message);
    state = dealt.value;
    const moves: RecordMove[] = [];
    record.deals.push({ deck: deck.map(cardName), moves });
    const last = record.deals.length === maxDeals;
    while (phase(state) !== 'dealing' && phase(state) !== 'over' && !(last && moves.length >= lastMoves)) {
      const move = randomMove(state, rng);
      const r = apply(state, move);
      if (!r.ok) throw new Error(r.error.message);
      state = r.value.state;
      moves.push(moveToJson(move));
    }
  }
  return record;
}

function replayError(record: unknown) {
  const parsed = parseRecord(record);
  const r = parsed.ok ? replay(parsed.value) : parsed;
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('moves as JSON', () => {
  it('round-trips every kind', () => {
    const moves: RecordMove[] = [
      { seat: 1, contract: 'hearts' },
      { seat: 1, exchange: ['2C', '3D'] },
      { seat: 2, exchange: [] },
      { seat: 0, bid: 'double-misere' },
      { seat: 0, discard: ['7C', 'AS'] },
      { seat: 0, trump: 'spades' },
      { seat: 1, play: 'AH' },
    ];
    for (const json of moves) {
      const m = moveFromJson(json);
      expect(m.ok).toBe(true);
      if (m.ok) expect(moveToJson(m.value)).toEqual(json);
    }
  });

  it.each([
    [null, 'bad-move'],
    [{ play: 'AH' }, 'bad-move'],
    [{ seat: -1, play: 'AH' }, 'bad-move'],
    [{ seat: 1.5, play: 'AH' }, 'bad-move'],
    [{ seat: 1 }, 'bad-move'],
    [{ seat: 1, play: 'AH', bid: 'pass' }, 'bad-move'],
    [{ seat: 1, dance: true }, 'bad-move'],
    [{ seat: 1, play: '1H' }, 'unknown-card'],
    [{ seat: 1, play: 'ah' }, 'unknown-card'],
    [{ seat: 1, exchange: ['AH', 'ZZ'] }, 'unknown-card'],
    [{ seat: 1, exchange: 'AH' }, 'bad-move'],
    [{ seat: 1, contract: 'grand' }, 'bad-move'],
    [{ seat: 1, bid: 'slam' }, 'bad-move'],
    [{ seat: 1, trump: 'notrumps' }, 'bad-move'],
  ])('%j → %s', (json, rule) => {
    const m = moveFromJson(json);
    expect(m.ok).toBe(false);
    if (!m.ok) {
      expect(m.error.code).toBe('BAD_MOVE');
      expect(m.error.rule).toBe(rule);
    }
  });
});

describe('parseRecord', () => {
  const good = randomRecord('classic', {}, 5, 2, 10);

  it('accepts a record and a JSON string of it', () => {
    expect(parseRecord(good).ok).toBe(true);
    expect(parseRecord(JSON.stringify(good)).ok).toBe(true);
  });

  it('keeps the seats a computer player held, one mark or null per seat', () => {
    const parsed = parseRecord({ ...clone(good), bots: [null, 'strong', 'account'] });
    expect(parsed.ok && parsed.value.bots).toEqual([null, 'strong', 'account']);
    expect(parsed.ok && replay(parsed.value).ok).toBe(true);
  });

  it.each<[string, (r: Record<string, any>) => unknown, string, number | null, number | null]>([
    ['malformed JSON', () => '{"format": ', 'bad-json', null, null],
    ['not an object', () => [1, 2], 'bad-record', null, null],
    ['unknown top-level key', (r) => ({ ...r, extra: 1 }), 'bad-record', null, null],
    ['wrong format', (r) => ({ ...r, format: 'mizerka-record/2' }), 'bad-format', null, null],
    ['unknown preset', (r) => ({ ...r, rules: { preset: 'whist', options: {} } }), 'bad-rules', null, null],
    ['unknown option', (r) => ({ ...r, rules: { preset: 'classic', options: { jokers: true } } }), 'bad-rules', null, null],
    ['option of the other family', (r) => ({ ...r, rules: { preset: 'classic', options: { target: 100 } } }), 'bad-rules', null, null],
    ['bad option value', (r) => ({ ...r, rules: { preset: 'classic', options: { mizerkaQuotas: 'upside' } } }), 'bad-rules', null, null],
    ['firstDealer out of range', (r) => ({ ...r, firstDealer: 3 }), 'bad-first-dealer', null, null],
    ['firstDealer not an integer', (r) => ({ ...r, firstDealer: '0' }), 'bad-first-dealer', null, null],
    ['players of the wrong length', (r) => ({ ...r, players: ['a', 'b'] }), 'bad-players', null, null],
    ['players not names', (r) => ({ ...r, players: [1, 2, 3] }), 'bad-players', null, null],
    ['bots of the wrong length', (r) => ({ ...r, bots: [null, 'strong'] }), 'bad-bots', null, null],
    ['bots not marks', (r) => ({ ...r, bots: [null, 'Strong!', null] }), 'bad-bots', null, null],
    ['bots not a list', (r) => ({ ...r, bots: 'strong' }), 'bad-bots', null, null],
    ['deals not a list', (r) => ({ ...r, deals: {} }), 'bad-deals', null, null],
    ['deck too short', (r) => { r.deals[1].deck.pop(); return r; }, 'deck-length', 1, null],
    ['deck with a duplicate', (r) => { r.deals[1].deck[5] = r.deals[1].deck[6]; return r; }, 'deck-duplicate-card', 1, null],
    ['deck with an unknown card', (r) => { r.deals[0].deck[3] = 'XX'; return r; }, 'deck-unknown-card', 0, null],
    ['bad move shape', (r) => { r.deals[1].moves[4] = { seat: 0, fly: 'AH' }; return r; }, 'bad-move', 1, 4],
    ['move with an unknown card', (r) => { r.deals[1].moves[4] = { seat: 0, play: 'QQ' }; return r; }, 'unknown-card', 1, 4],
    ['move of a seat that does not exist', (r) => { r.deals[0].moves[0] = { seat: 3, contract: 'hearts' }; return r; }, 'bad-move', 0, 0],
  ])('%s', (_name, change, rule, dealIndex, moveIndex) => {
    const r = parseRecord(change(clone(good)));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ rule, dealIndex, moveIndex });
  });

  it('rejects 2–6 in a bidding deck', () => {
    const rec = randomRecord('bidding', {}, 3, 1, 0) as Record<string, any>;
    rec.deals[0].deck[0] = '2C';
    const r = parseRecord(rec);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ rule: 'deck-unknown-card', dealIndex: 0 });
  });
});

describe('replay', () => {
  it('replays finished games of every family to the same outcome as playing them', () => {
    for (const [preset, options] of [['classic', {}], ['short-4', { mizerkaQuotas: 'same' }], ['bidding', { target: 60 }], ['bidding-4', { doubleMisere: true, target: 60 }]] as const) {
      const rec = randomRecord(preset, options, 9);
      const r = replay(rec);
      expect(r.ok).toBe(true);
      if (r.ok) {
        expect(r.value.outcome.finished).toBe(true);
        expect(r.value.outcome.winners.length).toBeGreaterThan(0);
        expect(isOver(r.value.state)).toBe(true);
      }
    }
  });

  it('names deal, move and rule of the first illegal move', () => {
    const rec = randomRecord('classic', {}, 5, 2, 20) as Record<string, any>;
    // Move 3 of deal 1 is the first play (contract + 3 exchanges); play it for the wrong seat.
    const first = rec.deals[1].moves[4];
    rec.deals[1].moves[4] = { seat: (first.seat + 1) % 3, play: first.play };
    const e = replayError(rec);
    expect(e).toMatchObject({ dealIndex: 1, moveIndex: 4, rule: 'not-your-turn', code: 'NOT_YOUR_TURN' });
    expect(formatRecordError(e)).toMatch(/^deal 1, move 4: illegal move \(not-your-turn\): /);
  });

  it('stops on a deal followed by another before it is finished', () => {
    const rec = randomRecord('classic', {}, 5, 2) as Record<string, any>;
    rec.deals[0].moves.pop();
    const e = replayError(rec);
    expect(e).toMatchObject({ dealIndex: 0, moveIndex: rec.deals[0].moves.length, rule: 'deal-unfinished' });
  });

  it('stops on moves after the deal has ended', () => {
    const rec = randomRecord('classic', {}, 5, 1) as Record<string, any>;
    const n = rec.deals[0].moves.length;
    rec.deals[0].moves.push({ seat: 0, play: 'AS' });
    const e = replayError(rec);
    expect(e).toMatchObject({ dealIndex: 0, moveIndex: n, rule: 'move-after-deal-end' });
  });

  it('stops on deals after the end of the game', () => {
    const rec = randomRecord('short', {}, 5) as Record<string, any>;
    expect(rec.deals.length).toBe(9);
    rec.deals.push({ deck: rec.deals[0].deck, moves: [] });
    const e = replayError(rec);
    expect(e).toMatchObject({ dealIndex: 9, moveIndex: null, rule: 'deal-after-game-over' });
  });

  it('takes the dealer of deal i as (firstDealer + i) mod players', () => {
    const rec = randomRecord('classic-4', {}, 2, 6);
    const r = replay(rec);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.outcome.deals.map((d) => d.dealer)).toEqual([2, 3, 0, 1, 2, 3]);
  });
});

describe('outcome', () => {
  it('reports finished deals, the deal in progress with scores null, totals and no winners', () => {
    const rules = rulesOf('classic');
    // Deal 0, dealer 0: seat 1 (chooser) holds all hearts and chooses hearts; nobody exchanges.
    const hearts = ['2H', '3H', '4H', '5H', '6H', '7H', '8H', '9H', 'TH', 'JH', 'QH', 'KH', 'AH'];
    const cards0 = buildDeck(rules, 0, { hands: { 1: hearts } });
    const deck0 = cards0.map(cardName);
    const moves0: RecordMove[] = [{ seat: 1, contract: 'hearts' }, { seat: 1, exchange: [] }, { seat: 2, exchange: [] }, { seat: 0, exchange: [] }];
    let state = newGame(rules, 0);
    state = (deal(state, cards0) as any).value;
    for (const m of moves0) state = (apply(state, (moveFromJson(m) as any).value) as any).value.state;
    // Play lowest legal cards to the end of the deal.
    while (phase(state) === 'play') {
      const legal = legalMoves(state)!;
      if (legal.kind !== 'play') throw new Error();
      const move: Move = { kind: 'play', seat: legal.seat, card: legal.cards[0] };
      moves0.push(moveToJson(move));
      state = (apply(state, move) as any).value.state;
    }
    const deck1 = buildDeck(rules, 1, {}).map(cardName);
    const record: GameRecord = {
      format: 'mizerka-record/1',
      rules: { preset: 'classic', options: {} },
      firstDealer: 0,
      players: ['ala', 'bartek', 'celina'],
      deals: [{ deck: deck0, moves: moves0 }, { deck: deck1, moves: [{ seat: 2, contract: 'mizerka' }] }],
    };
    const r = replay(record);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.outcome).toEqual({
      deals: [
        { dealer: 0, contract: 'hearts', tricks: [0, 13, 0], scores: [-1, 6, -5] },
        { dealer: 1, contract: 'mizerka', tricks: [0, 0, 0], scores: null },
      ],
      totals: [-1, 6, -5],
      finished: false,
      winners: [],
    });
    expect(JSON.stringify(r.value.outcome.deals[0])).toBe('{"dealer":0,"contract":"hearts","tricks":[0,13,0],"scores":[-1,6,-5]}');
    expect(outcome(r.value.state)).toEqual(r.value.outcome);
  });

  it('reports undecided fields of a bidding deal as null, with null tricks for the seat sitting out', () => {
    const rec = randomRecord('bidding-4', {}, 1, 1, 1);
    const r = replay(rec);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const dealer = rec.firstDealer;
    const tricks = [0, 0, 0, 0].map((t, seat) => (seat === dealer ? null : t));
    expect(r.value.outcome).toEqual({
      deals: [{ dealer, declarer: null, bid: null, trump: null, tricks, scores: null }],
      totals: [0, 0, 0, 0],
      finished: false,
      winners: [],
    });
    expect(Object.keys(r.value.outcome.deals[0])).toEqual(['dealer', 'declarer', 'bid', 'trump', 'tricks', 'scores']);
    expect(Object.keys(r.value.outcome)).toEqual(['deals', 'totals', 'finished', 'winners']);
  });
});

describe('outcome of a finished record', () => {
  it("docs/rules.md's bidding-4 example deal, as the last deal of a game with target 10", () => {
    const rules = rulesOf('bidding-4', { target: 10 });
    // Dealer 1 sits out; seat 3 declares play, discards the talon it took, names spades.
    const deck = buildDeck(rules, 1, {
      hands: {
        3: ['9S', 'TS', 'JS', 'QS', 'KS', 'AS', '7H', '8H', '9H', 'TH'],
        0: ['7C', '8C', '9C', 'TC', '7D', '8D', '9D', 'TD', 'KH', 'AH'],
        2: ['JC', 'QC', 'KC', 'AC', 'JD', 'QD', 'KD', 'AD', 'JH', 'QH'],
      },
      talon: ['7S', '8S'],
    });
    const moves: RecordMove[] = [
      { seat: 2, bid: 'pass' },
      { seat: 3, bid: 'play' },
      { seat: 0, bid: 'pass' },
      { seat: 3, discard: ['7S', '8S'] },
      { seat: 3, trump: 'spades' },
    ];
    let state = newGame(rules, 1);
    state = (deal(state, deck) as { ok: true; value: GameState }).value;
    for (const m of moves) state = (apply(state, (moveFromJson(m) as { ok: true; value: Move }).value) as { ok: true; value: { state: GameState } }).value.state;
    // The declarer plays its highest legal card, the defenders their lowest.
    while (phase(state) === 'play') {
      const legal = legalMoves(state)!;
      if (legal.kind !== 'play') throw new Error();
      const move: Move = { kind: 'play', seat: legal.seat, card: legal.seat === 3 ? legal.cards[legal.cards.length - 1] : legal.cards[0] };
      moves.push(moveToJson(move));
      state = (apply(state, move) as { ok: true; value: { state: GameState } }).value.state;
    }
    const record: GameRecord = {
      format: 'mizerka-record/1',
      rules: { preset: 'bidding-4', options: { target: 10 } },
      firstDealer: 1,
      deals: [{ deck: deck.map(cardName), moves }],
    };
    const r = replay(JSON.parse(JSON.stringify(record)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(JSON.stringify(r.value.outcome)).toBe(
      '{"deals":[{"dealer":1,"declarer":3,"bid":"play","trump":"spades","tricks":[2,null,2,6],"scores":[0,0,0,10]}],' +
        '"totals":[0,0,0,10],"finished":true,"winners":[3]}',
    );
  });
});
