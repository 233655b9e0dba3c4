// Scores and the end of the game, over random games.
// - Contract family: every deal is zero-sum and each score is tricks − quota (mizerka: quota −
//   tricks) with docs/rules.md's quotas by position; each seat chooses each contract exactly once; the
//   game ends after players × contracts deals, not before.
// - Bidding family: the declarer scores by the formula for its bid, each defender gains half of a
//   loss and nothing otherwise, a seat sitting out scores 0 with null tricks; the game ends after
//   the first deal in which a total reaches the target.
// - Both: totals add up the deals; the winners are exactly the seats with the highest total;
//   outcome(state) reports all of it as docs/rules.md's outcome JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOver, outcome } from './index.js';
import type { Bid, Contract, GameEvent, GameState, Seat } from './index.js';
import {
  activeSeats, arbGameSetup, BIDDING_PRESETS, CheckError, contractQuotas, CONTRACT_PRESETS, handSize, mustRules, pbt, PBT_TIMEOUT,
  playChecked,
} from '../test-kit/index.js';
import type { GameSetup, Step } from '../test-kit/index.js';

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

function winnersOf(totals: readonly number[]): Seat[] {
  const max = Math.max(...totals);
  return totals.flatMap((t, s) => (t === max ? [s] : []));
}

/** Follows one game's events and checks every dealScored and gameOver by the formulas. */
function scoreWatcher(setup: GameSetup) {
  const { rules, firstDealer } = setup;
  const n = rules.players;
  let dealIndex = 0;
  let contract: Contract | null = null;
  let declarer: { seat: Seat; bid: Bid } | null = null;
  let totals = new Array<number>(n).fill(0);
  const chosen: Contract[][] = Array.from({ length: n }, () => []);
  let dealsScored = 0;
  let gameOver: Extract<GameEvent, { type: 'gameOver' }> | null = null;
  const onStep = (s: Step): void => {
    for (const e of s.events) {
      if (e.type === 'contractChosen') {
        contract = e.contract;
        chosen[e.seat].push(e.contract);
      }
      if (e.type === 'declarer') declarer = { seat: e.seat, bid: e.bid };
      if (e.type === 'dealScored') {
        const dealer = (firstDealer + dealIndex) % n;
        const where = `deal ${dealIndex} (dealer ${dealer}): ${JSON.stringify(e)}`;
        if (rules.family === 'contract') {
          const tricks = e.tricks as number[];
          if (sum(tricks) !== handSize(rules)) throw new CheckError(`tricks do not add up to ${handSize(rules)}: ${where}`);
          if (sum(e.scores) !== 0) throw new CheckError(`contract deal not zero-sum: ${where}`);
          const q = contractQuotas(rules, dealer, contract!);
          if (sum(q) !== handSize(rules)) throw new CheckError('quotas do not add up to the tricks');
          const want = tricks.map((t, i) => (contract === 'mizerka' ? q[i] - t : t - q[i]));
          expect(e.scores, `${where}, quotas ${q}, contract ${contract}`).toEqual(want);
        } else {
          const active = activeSeats(rules, dealer);
          const d = declarer!;
          const t = e.tricks[d.seat]!;
          const ds = d.bid === 'play' ? (t - 5) * 10 : d.bid === 'misere' ? (t === 0 ? 50 : -20 * t) : t === 0 ? 100 : -40 * t;
          expect(e.scores[d.seat], `declarer score, ${where}`).toBe(ds);
          for (let seat = 0; seat < n; seat++) {
            if (!active.includes(seat)) {
              expect([e.tricks[seat], e.scores[seat]], `sitting-out seat ${seat}, ${where}`).toEqual([null, 0]);
            } else if (seat !== d.seat) {
              expect(e.scores[seat], `defender ${seat}, ${where}`).toBe(ds < 0 ? -ds / 2 : 0);
            }
          }
          expect(sum(active.map((seat) => e.tricks[seat]!)), `tricks, ${where}`).toBe(10);
        }
        totals = totals.map((x, i) => x + e.scores[i]);
        expect(e.totals, `totals after ${where}`).toEqual(totals);
        dealIndex += 1;
        dealsScored += 1;
        contract = null;
        declarer = null;
        const shouldEnd = rules.family === 'contract'
          ? dealIndex === n * rules.contracts.length
          : totals.some((x) => x >= rules.target);
        expect(isOver(s.after), `game over after ${where}, totals ${totals}`).toBe(shouldEnd);
      }
      if (e.type === 'gameOver') gameOver = e;
    }
  };
  const atEnd = (state: GameState, over: boolean): void => {
    const o = outcome(state);
    expect(o.totals).toEqual(totals);
    expect(o.deals.filter((d) => d.scores !== null).length).toBe(dealsScored);
    expect(o.finished).toBe(over);
    if (over) {
      expect(gameOver, 'gameOver event').not.toBeNull();
      const g = gameOver as unknown as { totals: number[]; winners: Seat[] };
      expect(g.totals).toEqual(totals);
      expect([...g.winners].sort()).toEqual(winnersOf(totals));
      expect([...o.winners].sort()).toEqual(winnersOf(totals));
      if (rules.family === 'contract') {
        for (let seat = 0; seat < n; seat++) expect([...chosen[seat]].sort(), `contracts chosen by seat ${seat}`).toEqual([...rules.contracts].sort());
      }
    } else {
      expect(o.winners).toEqual([]);
    }
  };
  return { onStep, atEnd };
}

function play(setup: GameSetup, maxDeals: number, expectFinished: boolean): void {
  const w = scoreWatcher(setup);
  const { game } = playChecked(setup, { events: true, outcome: true, outcomeEveryStep: true }, { maxDeals, onStep: w.onStep });
  w.atEnd(game.state, game.over);
  if (expectFinished && !game.over) throw new CheckError(`game not over after ${game.dealsFinished} deals`);
}

describe('deal scores and the end of the game', () => {
  it('contract family: scores of the first deals (all presets, both mizerka quota options)', () => {
    fc.assert(fc.property(arbGameSetup({ presets: CONTRACT_PRESETS }), (setup) => play(setup, 3, false)), pbt(60));
  }, PBT_TIMEOUT);

  it('short and short-4: complete games end after players × 3 deals', () => {
    fc.assert(fc.property(arbGameSetup({ presets: ['short', 'short-4'] }), (setup) => play(setup, Infinity, true)), pbt(40));
  }, PBT_TIMEOUT);

  it('classic and classic-4: complete games end after players × 6 deals', () => {
    fc.assert(fc.property(arbGameSetup({ presets: ['classic', 'classic-4'] }), (setup) => play(setup, Infinity, true)), pbt(16));
  }, PBT_TIMEOUT);

  it('bidding family: complete games with small targets (both presets, doubleMisere on and off)', () => {
    fc.assert(fc.property(arbGameSetup({ presets: BIDDING_PRESETS }), (setup) => play(setup, 200, true)), pbt(80));
  }, PBT_TIMEOUT);

  it('bidding family with the default target 300 plays to the end', () => {
    for (const preset of BIDDING_PRESETS) {
      for (const seed of [1, 2]) play({ rules: mustRules(preset), firstDealer: seed % 3, rngSeed: seed }, 400, true);
    }
  }, PBT_TIMEOUT);
});
