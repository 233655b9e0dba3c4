// `mizerka replay` with a record that ends early (docs/rules.md, "Games that end early").
import { afterEach, describe, expect, it } from 'vitest';
import { mustRules, scriptBiddingDeal } from '../test-kit/index.js';
import { file, run } from './cli.test-kit.js';

afterEach(() => {
  process.exitCode = undefined;
});

function record(options: object, end: unknown) {
  const rules = mustRules('bidding', options);
  // Dealer 0: seat 1 declares play in hearts and takes 3 tricks: scores [10, -20, 10].
  const d = scriptBiddingDeal(rules, 0, ['play', 'pass', 'pass'], 'hearts', [4, 3, 3]);
  return { format: 'mizerka-record/1', rules: { preset: 'bidding', options }, firstDealer: 0, deals: [{ deck: d.deck, moves: d.moves }], end };
}

describe('mizerka replay, a game that ended early', () => {
  it('prints the outcome with finished true and the end after winners', async () => {
    const r = await run('replay', file('resigned.json', record({}, { seat: 2, reason: 'resigned' })));
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(r.out)).toStrictEqual({
      deals: [{ dealer: 0, declarer: 1, bid: 'play', trump: 'hearts', tricks: [4, 3, 3], scores: [10, -20, 10] }],
      totals: [10, -20, 10],
      finished: true,
      winners: [0],
      end: { seat: 2, reason: 'resigned' },
    });
    expect(r.out).toContain('  "winners": [\n    0\n  ],\n  "end": {\n    "seat": 2,\n    "reason": "resigned"\n  }\n}\n');
  });

  it("docs/rules.md's CLI example record, with end added", async () => {
    const deck = 'KC 6C QS JH QH 3H 9C 8C 4D 2H 4S JS 5S KH 2D 6D TC AD 7D 7S 4C 3S 9H TS 8H 7C 8S 7H JC AH AC 5D 3D QC 9S QD TH 8D JD AS 3C 6S 2C 2S 9D 6H 5C KD KS TD 5H 4H'.split(' ');
    const example = {
      format: 'mizerka-record/1',
      rules: { preset: 'classic', options: {} },
      firstDealer: 0,
      players: ['ala', 'bartek', 'celina'],
      deals: [{
        deck,
        moves: [
          { seat: 1, contract: 'notrumps' },
          { seat: 1, exchange: ['3C', '4C'] },
          { seat: 2, exchange: [] },
          { seat: 0, exchange: ['2C'] },
          { seat: 1, play: 'KC' },
          { seat: 2, play: 'QC' },
          { seat: 0, play: 'AC' },
        ],
      }],
      end: { seat: 2, reason: 'resigned' },
    };
    const r = await run('replay', file('example.json', example));
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(r.out)).toStrictEqual({
      deals: [{ dealer: 0, contract: 'notrumps', tricks: [1, 0, 0], scores: null }],
      totals: [0, 0, 0],
      finished: true,
      winners: [0, 1],
      end: { seat: 2, reason: 'resigned' },
    });
  });

  it('an end after the game was over: exit 1, nothing on stdout, the end named on stderr', async () => {
    const r = await run('replay', file('over.json', record({ target: 10 }, { seat: 1, reason: 'forfeit' })));
    expect(r).toMatchObject({ code: 1, out: '' });
    expect(r.err).toMatch(/^mizerka: end: illegal \(game-over\): /);
  });

  it('an end naming no seat, or malformed: exit 1', async () => {
    const seat = await run('replay', file('seat.json', record({}, { seat: 3, reason: 'resigned' })));
    expect(seat).toMatchObject({ code: 1, out: '' });
    expect(seat.err).toBe('mizerka: end: illegal (no-such-seat): seat 3 does not exist with 3 players\n');
    const bad = await run('replay', file('bad.json', record({}, { seat: 0, reason: 'bored' })));
    expect(bad).toMatchObject({ code: 1, out: '' });
    expect(bad.err).toMatch(/^mizerka: end: invalid record \(bad-end\): /);
  });
});
