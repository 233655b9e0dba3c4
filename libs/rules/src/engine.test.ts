import { describe, expect, it } from 'vitest';
import {
  apply,
  isOver,
  makeRules,
  newGame,
  outcome,
  phase,
  shuffledDeck,
  view,
  Xoshiro128,
  PRESETS,
  type Rules,
} from './index.js';
import { copyState, dealInPlace, randomPlayout } from './fast.js';

function rulesOf(preset: string, options?: unknown): Rules {
  const r = makeRules(preset, options);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function seedOf(rng: Xoshiro128): string {
  return Array.from({ length: 4 }, () => rng.next().toString(16).padStart(8, '0')).join('');
}

describe('whole random games', () => {
  for (const preset of PRESETS) {
    it(`${preset}: plays to the end, zero-sum or by target`, () => {
      const rules = rulesOf(preset, preset.startsWith('bidding') ? { target: 100 } : {});
      const rng = new Xoshiro128(1, 2, 3, 4);
      const state = newGame(rules, 1);
      let deals = 0;
      while (!isOver(state) && deals < 500) {
        expect(dealInPlace(state, shuffledDeck(rules, seedOf(rng)))).toBeNull();
        randomPlayout(state, rng);
        deals++;
      }
      expect(isOver(state)).toBe(true);
      const o = outcome(state);
      expect(o.finished).toBe(true);
      expect(o.deals.length).toBe(deals);
      if (rules.family === 'contract') {
        expect(deals).toBe(rules.deals);
        expect(o.totals.reduce((a, b) => a + b, 0)).toBe(0);
      } else {
        expect(Math.max(...o.totals)).toBeGreaterThanOrEqual(100);
      }
      const best = Math.max(...o.totals);
      expect(o.winners).toEqual(o.totals.flatMap((t, i) => (t === best ? [i] : [])));
      expect(phase(state)).toBe('over');
      expect(view(state, null).over).toBe(true);
    });
  }

  it('apply does not change the state it is given', () => {
    const rules = rulesOf('classic');
    const state = newGame(rules, 0);
    dealInPlace(state, shuffledDeck(rules, '000102030405060708090a0b0c0d0e0f'));
    const before = JSON.stringify(view(state, 1));
    const copy = copyState(state);
    const r = apply(state, { kind: 'contract', seat: 1, contract: 'hearts' });
    expect(r.ok).toBe(true);
    expect(JSON.stringify(view(state, 1))).toBe(before);
    expect(JSON.stringify(view(copy, 1))).toBe(before);
  });
});

describe('apply never throws for a bad move', () => {
  const rules = rulesOf('classic');
  const state = newGame(rules, 0);
  dealInPlace(state, shuffledDeck(rules, '000102030405060708090a0b0c0d0e0f'));
  it.each([
    [null, 'BAD_MOVE'],
    [42, 'BAD_MOVE'],
    [{}, 'BAD_MOVE'],
    [{ kind: 'dance', seat: 1 }, 'BAD_MOVE'],
    [{ kind: 'play', seat: 1, card: 'AH' }, 'BAD_MOVE'],
    [{ kind: 'play', seat: 1, card: 52 }, 'BAD_MOVE'],
    [{ kind: 'play', seat: '1', card: 3 }, 'BAD_MOVE'],
    [{ kind: 'contract', seat: 1, contract: 'grand' }, 'BAD_MOVE'],
    [{ kind: 'exchange', seat: 1, discards: 'AH' }, 'BAD_MOVE'],
    [{ kind: 'contract', seat: 7, contract: 'hearts' }, 'NOT_YOUR_TURN'],
  ])('%j → %s', (move, code) => {
    const r = apply(state, move as never);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(code);
  });

  it('a move before the deal is WRONG_PHASE not-dealt', () => {
    const r = apply(newGame(rules, 0), { kind: 'contract', seat: 1, contract: 'hearts' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'WRONG_PHASE', rule: 'not-dealt' });
  });
});
