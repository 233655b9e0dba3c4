// The record's top-level `end` (docs/rules.md, "Games that end early"): parsed, validated, replayed
// after the last deal's moves, reported in the outcome after `winners`; refused when the game was
// already over, when it names no seat, or when it is malformed.
import { describe, expect, it } from 'vitest';
import { formatRecordError, gameEnd, parseRecord, replay, view } from './index.js';
import type { GameRecord, RecordError, Rules } from './index.js';
import { mustRules, scriptBiddingDeal } from '../test-kit/index.js';

const bidding = mustRules('bidding');

/** Deal 0 (dealer 0): seat 1 declares play in hearts and takes 3 tricks: scores [10, -20, 10]. */
function firstDeal(rules: Rules) {
  const d = scriptBiddingDeal(rules, 0, ['play', 'pass', 'pass'], 'hearts', [4, 3, 3]);
  expect(d.declarer).toBe(1);
  return { deck: d.deck, moves: d.moves };
}

/** Deal 1 (dealer 1), stopped after the bids, the discard and the trump: seat 0 declares play in spades. */
function secondDealStarted(rules: Rules) {
  const d = scriptBiddingDeal(rules, 1, ['pass', 'play', 'pass'], 'spades', [5, 3, 2]);
  expect(d.declarer).toBe(0);
  const moves = d.moves.slice(0, 5);
  expect(Object.keys(moves[3])).toContain('discard');
  expect(moves[4]).toStrictEqual({ seat: 0, trump: 'spades' });
  return { deck: d.deck, moves };
}

function record(rules: Rules, deals: GameRecord['deals'], end?: unknown): unknown {
  return {
    format: 'mizerka-record/1',
    rules: { preset: rules.preset, options: rules.options },
    firstDealer: 0,
    deals,
    ...(end === undefined ? {} : { end }),
  };
}

function refused(input: unknown): RecordError {
  const parsed = parseRecord(JSON.stringify(input));
  const r = parsed.ok ? replay(parsed.value) : parsed;
  if (r.ok) throw new Error('expected the record to be refused');
  return r.error;
}

describe('a record with end', () => {
  const deals = [firstDeal(bidding), secondDealStarted(bidding)];

  it('resigned during a deal: the outcome JSON, exactly', () => {
    const parsed = parseRecord(JSON.stringify(record(bidding, deals, { seat: 2, reason: 'resigned' })));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.end).toStrictEqual({ seat: 2, reason: 'resigned' });
    const r = replay(JSON.parse(JSON.stringify(parsed.value)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(JSON.stringify(r.value.outcome)).toBe(
      '{"deals":[{"dealer":0,"declarer":1,"bid":"play","trump":"hearts","tricks":[4,3,3],"scores":[10,-20,10]},' +
        '{"dealer":1,"declarer":0,"bid":"play","trump":"spades","tricks":[0,0,0],"scores":null}],' +
        '"totals":[10,-20,10],"finished":true,"winners":[0],"end":{"seat":2,"reason":"resigned"}}',
    );
    expect(gameEnd(r.value.state)).toStrictEqual({ seat: 2, reason: 'resigned' });
    expect(view(r.value.state, 0)).toMatchObject({ over: true, winners: [0], end: { seat: 2, reason: 'resigned' }, hand: [] });
  });

  it('forfeit; the seats above the ending one keep their order, ties share the first place', () => {
    const cases: [number, 'resigned' | 'forfeit', number[]][] = [
      [0, 'forfeit', [2]],
      [1, 'forfeit', [0, 2]], // the two defenders tie at 10
      [2, 'forfeit', [0]],
    ];
    for (const [seat, reason, winners] of cases) {
      const r = replay(record(bidding, deals, { seat, reason }) as GameRecord);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(r.value.outcome).toStrictEqual({
        deals: r.value.outcome.deals,
        totals: [10, -20, 10],
        finished: true,
        winners,
        end: { seat, reason },
      });
      expect(Object.keys(r.value.outcome)).toEqual(['deals', 'totals', 'finished', 'winners', 'end']);
    }
  });

  it('between deals, and before any deal', () => {
    const between = replay(record(bidding, [firstDeal(bidding)], { seat: 0, reason: 'resigned' }) as GameRecord);
    expect(between.ok && between.value.outcome).toStrictEqual({
      deals: [{ dealer: 0, declarer: 1, bid: 'play', trump: 'hearts', tricks: [4, 3, 3], scores: [10, -20, 10] }],
      totals: [10, -20, 10],
      finished: true,
      winners: [2],
      end: { seat: 0, reason: 'resigned' },
    });
    const none = replay(record(bidding, [], { seat: 1, reason: 'forfeit' }) as GameRecord);
    expect(none.ok && JSON.stringify(none.value.outcome)).toBe(
      '{"deals":[],"totals":[0,0,0],"finished":true,"winners":[0,2],"end":{"seat":1,"reason":"forfeit"}}',
    );
  });

  it('without end, nothing changes: no end key in the record or the outcome', () => {
    const parsed = parseRecord(record(bidding, deals));
    expect(parsed.ok && 'end' in parsed.value).toBe(false);
    const r = replay(record(bidding, deals) as GameRecord);
    expect(r.ok && Object.keys(r.value.outcome)).toEqual(['deals', 'totals', 'finished', 'winners']);
    expect(r.ok && r.value.outcome.finished).toBe(false);
  });
});

describe('records with an illegal or malformed end', () => {
  it('an end after the game was over is illegal (game-over)', () => {
    const rules = mustRules('bidding', { target: 10 }); // deal 0 brings two totals to 10: the game is over
    const e = refused(record(rules, [firstDeal(rules)], { seat: 1, reason: 'resigned' }));
    expect(e).toMatchObject({ dealIndex: null, moveIndex: null, rule: 'game-over', code: 'GAME_OVER', at: 'end' });
    expect(formatRecordError(e)).toMatch(/^end: illegal \(game-over\): the game was already over/);
    // The same record without end is a finished game.
    const ok = replay(record(rules, [firstDeal(rules)]) as GameRecord);
    expect(ok.ok && ok.value.outcome.finished).toBe(true);
  });

  it.each([3, -1, 4])('end.seat %j names no seat of a 3-player game (no-such-seat)', (seat) => {
    const e = refused(record(bidding, [firstDeal(bidding)], { seat, reason: 'resigned' }));
    expect(e).toMatchObject({ dealIndex: null, moveIndex: null, rule: 'no-such-seat', at: 'end' });
    expect(formatRecordError(e)).toMatch(/^end: illegal \(no-such-seat\): seat -?\d+ does not exist with 3 players$/);
  });

  it.each([
    ['resigned'],
    [null],
    [[2, 'resigned']],
    [7],
    [{}],
    [{ seat: 2 }],
    [{ reason: 'resigned' }],
    [{ seat: '2', reason: 'resigned' }],
    [{ seat: 1.5, reason: 'resigned' }],
    [{ seat: 2, reason: 'quit' }],
    [{ seat: 2, reason: 'Resigned' }],
    [{ seat: 2, reason: 'resigned', at: 'deal 1' }],
  ])('malformed end %j (bad-end)', (end) => {
    const e = refused(record(bidding, [firstDeal(bidding)], end));
    expect(e).toMatchObject({ dealIndex: null, moveIndex: null, rule: 'bad-end', code: 'BAD_RECORD', at: 'end' });
    expect(formatRecordError(e)).toMatch(/^end: invalid record \(bad-end\): end/);
  });

  it('the deals are checked before the end: an illegal move is reported first', () => {
    const bad = firstDeal(bidding);
    const moves = [...bad.moves];
    moves[0] = { seat: 2, bid: 'pass' }; // seat 1 bids first
    const e = refused(record(bidding, [{ deck: bad.deck, moves }], { seat: 2, reason: 'resigned' }));
    expect(e).toMatchObject({ dealIndex: 0, moveIndex: 0, rule: 'not-your-turn' });
    expect(e.at).toBeUndefined();
  });
});
