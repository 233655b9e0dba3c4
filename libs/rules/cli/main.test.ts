import { afterEach, describe, expect, it } from 'vitest';
import { buildDeck, cardName } from '../src/index.js';
import { rulesOf } from '../src/test-support.js';
import { file, run } from './cli.test-kit.js';

afterEach(() => {
  process.exitCode = undefined;
});

const rules = rulesOf('classic');
// Dealer 0: seat 1 chooses; seat 1 leads 2H; seat 2 holds 3H and must follow.
const deck = buildDeck(rules, 0, {
  hands: { 1: ['2H', 'AC', '3S'], 2: ['3H', '2C', '2S'] },
}).map(cardName);
const start = [
  { seat: 1, contract: 'spades' },
  { seat: 1, exchange: [] },
  { seat: 2, exchange: ['2C'] },
  { seat: 0, exchange: [] },
  { seat: 1, play: '2H' },
];
const record = (moves: unknown[]) => ({ format: 'mizerka-record/1', rules: { preset: 'classic', options: {} }, firstDealer: 0, deals: [{ deck, moves }] });

describe('mizerka replay', () => {
  it('prints the outcome JSON with 2-space indent and exits 0', async () => {
    const r = await run('replay', file('ok.json', record(start)));
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual({
      deals: [{ dealer: 0, contract: 'spades', tricks: [0, 0, 0], scores: null }],
      totals: [0, 0, 0],
      finished: false,
      winners: [],
    });
    expect(r.out).toContain('\n  "deals": [\n');
  });

  it('on an illegal move prints nothing on stdout, names deal, move and rule on stderr, exits 1', async () => {
    const r = await run('replay', file('bad.json', record([...start, { seat: 2, play: '2S' }])));
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^mizerka: deal 0, move 5: illegal move \(follow-suit\): /);
  });

  it('on a bad record exits 1', async () => {
    const r = await run('replay', file('broken.json', '{"format": "mizerka-record/1"'));
    expect(r).toMatchObject({ code: 1, out: '' });
    expect(r.err).toContain('(bad-json)');
    const d = await run('replay', file('deck.json', { ...record([]), deals: [{ deck: deck.slice(1), moves: [] }] }));
    expect(d).toMatchObject({ code: 1, out: '' });
    expect(d.err).toContain('deal 0: invalid deck (deck-length)');
  });

  it('usage errors exit 2', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('replay')).code).toBe(2);
    expect((await run('replay', 'a', 'b')).code).toBe(2);
    expect((await run('play', 'x')).code).toBe(2);
    expect((await run('replay', '/nonexistent/mizerka/missing.json')).code).toBe(2);
  });
});
