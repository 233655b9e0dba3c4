// Inputs from outside (rules, moves, decks, records) are validated: valid ones are accepted as the
// README describes, anything else gives an error value — never a throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply, deal, legalMoves, makeRules, moveFromJson, newGame, parseRecord, PRESETS, replay, shuffledDeck, TARGET_MAX, TARGET_MIN } from './index.js';
import type { GameState, Preset } from './index.js';
import {
  ALL_PRESETS, arbGameSetup, arbOptions, CheckError, familyOf, makeRng, pbt, PBT_TIMEOUT, playRandomGame,
} from '../test-kit/index.js';

function noThrow<T>(what: string, input: unknown, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new CheckError(`${what} threw on ${safe(input)}: ${String(e)}`);
  }
}
const safe = (x: unknown): string => {
  try {
    return JSON.stringify(x) ?? String(x);
  } catch {
    return String(x);
  }
};

describe('makeRules', () => {
  it('PRESETS lists the six presets of docs/rules.md', () => {
    expect([...PRESETS].sort()).toStrictEqual([...ALL_PRESETS].sort());
  });

  it('builds each preset with valid options as docs/rules.md\'s preset table says', () => {
    const presetArb = fc.constantFrom<Preset>(...ALL_PRESETS);
    fc.assert(fc.property(presetArb.chain((p) => fc.tuple(fc.constant(p), arbOptions(p, { targetOptional: true, target: { min: 1, max: 1000 } }))), ([preset, options]) => {
      const r = makeRules(preset, options);
      if (!r.ok) throw new CheckError(`makeRules(${preset}, ${safe(options)}) refused: ${safe(r.error)}`);
      const rules = r.value;
      const four = preset.endsWith('-4');
      const contract = familyOf(preset) === 'contract';
      expect(rules.preset).toBe(preset);
      expect(rules.options).toEqual(options);
      expect(rules.family).toBe(familyOf(preset));
      expect(rules.players).toBe(four ? 4 : 3);
      const contracts = preset.startsWith('short') ? ['hearts', 'mizerka', 'notrumps']
        : contract ? ['clubs', 'diamonds', 'hearts', 'mizerka', 'notrumps', 'spades'] : [];
      expect([...rules.contracts].sort()).toStrictEqual(contracts);
      expect(rules.deck).toStrictEqual(contract
        ? Array.from({ length: 52 }, (_, i) => i)
        : Array.from({ length: 52 }, (_, i) => i).filter((c) => c % 13 >= 5));
      expect(rules.deals).toBe(contract ? rules.players * contracts.length : null);
      expect(rules.mizerkaQuotas).toBe(options.mizerkaQuotas ?? 'reversed');
      expect(rules.target).toBe(options.target ?? 300);
      expect(rules.doubleMisere).toBe(options.doubleMisere ?? false);
    }), pbt(200));
  }, PBT_TIMEOUT);

  const badRules: [string, unknown][] = [
    ['poker', {}],
    ['Classic', {}],
    ['', {}],
    ['classic', { jokers: true }],
    ['classic', { target: 100 }],
    ['classic', { doubleMisere: true }],
    ['bidding', { mizerkaQuotas: 'same' }],
    ['classic', { mizerkaQuotas: 'double' }],
    ['bidding', { target: 'many' }],
    ['bidding', { target: -5 }],
    ['bidding', { target: 1.5 }],
    ['bidding', { target: Number.NaN }],
    ['bidding', { target: 0 }],
    ['bidding', { target: 10_001 }],
    ['bidding', { target: 2 ** 31 }],
    ['bidding', { target: 10_000_000_000 }],
    ['bidding', { doubleMisere: 'yes' }],
    ['classic', 42],
    ['classic', 'mizerkaQuotas'],
    ['classic', [1]],
  ];
  for (const [preset, options] of badRules) {
    it(`refuses ${preset || '""'} ${safe(options)} with BAD_RULES`, () => {
      const r = noThrow('makeRules', [preset, options], () => makeRules(preset, options));
      expect(r.ok ? 'accepted' : r.error.code).toBe('BAD_RULES');
    });
  }

  it('accepts a target from 1 to 10 000, both ends included, and names the range when refusing one', () => {
    expect([TARGET_MIN, TARGET_MAX]).toStrictEqual([1, 10_000]);
    for (const target of [1, 300, 10_000]) expect(makeRules('bidding', { target })).toMatchObject({ ok: true, value: { target } });
    const refused = makeRules('bidding-4', { target: 2 ** 31 });
    expect(refused.ok ? 'accepted' : refused.error.message).toBe('target must be a whole number from 1 to 10000');
  });

  it('never throws, whatever it is given', () => {
    fc.assert(fc.property(fc.oneof(fc.constantFrom(...ALL_PRESETS), fc.string()), fc.anything(), (preset, options) => {
      const r = noThrow('makeRules', [preset, options], () => makeRules(preset, options));
      if (!r.ok) expect(r.error.code).toBe('BAD_RULES');
    }), pbt(300));
  }, PBT_TIMEOUT);
});

describe('moves and decks from outside', () => {
  it('moveFromJson never throws; anything not a record move is BAD_MOVE', () => {
    fc.assert(fc.property(fc.anything(), (json) => {
      const r = noThrow('moveFromJson', json, () => moveFromJson(json));
      if (!r.ok) expect(r.error.code).toBe('BAD_MOVE');
    }), pbt(500));
  }, PBT_TIMEOUT);

  /** States from random games, at random points. */
  const arbState = arbGameSetup().chain((setup) => fc.integer({ min: 0, max: 80 }).map((stop) => {
    const game = playRandomGame(setup.rules, makeRng(setup.rngSeed), { firstDealer: setup.firstDealer, maxDeals: 1, maxMoves: stop, keepSteps: false });
    return { setup, state: game.state as GameState };
  }));

  const garbageMove = fc.oneof(
    fc.anything(),
    fc.record({ kind: fc.constantFrom('contract', 'exchange', 'bid', 'discard', 'trump', 'play', 'fly'), seat: fc.anything(), card: fc.anything(), cards: fc.anything(), discards: fc.anything(), bid: fc.anything(), suit: fc.anything(), contract: fc.anything() }, { requiredKeys: ['kind'] }),
  );

  it('apply never throws on malformed moves', () => {
    fc.assert(fc.property(arbState, garbageMove, ({ state }, move) => {
      const r = noThrow('apply', move, () => apply(state, move as never));
      if (r.ok) return; // a malformed-looking move may still happen to be legal
      expect(['BAD_MOVE', 'WRONG_PHASE', 'NOT_YOUR_TURN', 'ILLEGAL_MOVE', 'GAME_OVER']).toContain(r.error.code);
    }), pbt(400));
  }, PBT_TIMEOUT);

  it('apply refuses moves that are not moves at all with BAD_MOVE', () => {
    fc.assert(fc.property(arbState, fc.constantFrom<unknown>(null, undefined, 42, 'play', [], {}, { kind: 'fly', seat: 0 }, { seat: 0, play: 'AS' }), ({ state }, move) => {
      const r = noThrow('apply', move, () => apply(state, move as never));
      // Between deals or after the game, a phase error may come first; the README fixes no order.
      const allowed = legalMoves(state) === null ? ['BAD_MOVE', 'WRONG_PHASE', 'GAME_OVER'] : ['BAD_MOVE'];
      expect(allowed, safe(move)).toContain(r.ok ? 'accepted' : r.error.code);
    }), pbt(100));
  }, PBT_TIMEOUT);

  it('deal never throws; anything but a permutation of the deck is BAD_DECK', () => {
    fc.assert(fc.property(arbGameSetup(), fc.oneof(fc.anything(), fc.array(fc.integer({ min: -2, max: 60 }), { minLength: 30, maxLength: 54 })), (setup, deck) => {
      const fresh = newGame(setup.rules, setup.firstDealer);
      const r = noThrow('deal', deck, () => deal(fresh, deck as never));
      if (r.ok) {
        const d = deck as number[];
        expect([...d].sort((a, b) => a - b)).toStrictEqual([...setup.rules.deck]);
      } else {
        expect(r.error.code).toBe('BAD_DECK');
      }
    }), pbt(300));
  }, PBT_TIMEOUT);
});

describe('records from outside', () => {
  it('parseRecord and replay never throw on arbitrary input', () => {
    fc.assert(fc.property(fc.oneof(fc.anything(), fc.string(), fc.json()), (input) => {
      const p = noThrow('parseRecord', input, () => parseRecord(input));
      if (p.ok) noThrow('replay', input, () => replay(p.value));
    }), pbt(500));
  }, PBT_TIMEOUT);

  /** A played record with one value somewhere replaced by arbitrary JSON. */
  const arbMutated = arbGameSetup().chain((setup) => fc.tuple(fc.integer({ min: 1, max: 150 }), fc.integer(), fc.jsonValue()).map(([stop, where, value]) => {
    const game = playRandomGame(setup.rules, makeRng(setup.rngSeed), { firstDealer: setup.firstDealer, maxDeals: 2, maxMoves: stop, keepSteps: false });
    const rec = JSON.parse(JSON.stringify(game.record)) as unknown;
    // Collect every path, pick one by `where`.
    const paths: (string | number)[][] = [];
    const walk = (x: unknown, path: (string | number)[]): void => {
      paths.push(path);
      if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...path, i]));
      else if (x !== null && typeof x === 'object') for (const [k, y] of Object.entries(x)) walk(y, [...path, k]);
    };
    walk(rec, []);
    const path = paths[Math.abs(where) % paths.length];
    if (path.length === 0) return { rec: value as unknown, path, decks: game.record.deals.length };
    let parent = rec as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    parent[path[path.length - 1]] = value;
    return { rec, path, decks: game.record.deals.length };
  }));

  it('a record with any one value replaced is replayed or refused with a well-formed RecordError, never a throw', () => {
    fc.assert(fc.property(arbMutated, ({ rec }) => {
      const text = JSON.stringify(rec);
      const p = noThrow('parseRecord', rec, () => parseRecord(text));
      const check = (e: { dealIndex: unknown; moveIndex: unknown; rule: unknown; message: unknown }): void => {
        expect(e.dealIndex === null || (Number.isInteger(e.dealIndex) && (e.dealIndex as number) >= 0), safe(e)).toBe(true);
        expect(e.moveIndex === null || (Number.isInteger(e.moveIndex) && (e.moveIndex as number) >= 0 && e.dealIndex !== null), safe(e)).toBe(true);
        expect(typeof e.rule === 'string' && e.rule.length > 0, safe(e)).toBe(true);
        expect(typeof e.message === 'string' && e.message.length > 0, safe(e)).toBe(true);
      };
      if (!p.ok) return check(p.error);
      const r = noThrow('replay', rec, () => replay(p.value));
      if (!r.ok) check(r.error);
    }), pbt(300));
  }, PBT_TIMEOUT);

  it('shuffledDeck decks always replay as a first deal', () => {
    fc.assert(fc.property(arbGameSetup(), (setup) => {
      const deck = shuffledDeck(setup.rules, makeRng(setup.rngSeed).hexSeed());
      const r = deal(newGame(setup.rules, setup.firstDealer), deck);
      expect(r.ok).toBe(true);
    }), pbt(100));
  }, PBT_TIMEOUT);
});
