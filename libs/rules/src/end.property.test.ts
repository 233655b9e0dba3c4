// Games that end early, as a property: random games stopped at a random point (between deals,
// mid-deal, or over), ended by a random seat. The outcome is finished, puts that seat last alone,
// keeps the totals of the finished deals only, and replaying the record with `end` gives the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardName, deal, endGame, gameEnd, outcome, placesOf, replay, encodeState, shuffledDeck, view } from './index.js';
import type { EndReason, GameRecord, GameState } from './index.js';
import { arbGameSetup, canon, CheckError, makeRng, pbt, PBT_TIMEOUT, playRandomGame } from '../test-kit/index.js';
import type { GameSetup, PlayedGame } from '../test-kit/index.js';

/**
 * A random game stopped after `deals` finished deals and then `extra` moves into the next one
 * (-1: the next deal dealt, no move yet; 0: between deals; small: the contract, bids, exchange,
 * discard or trump; larger: mid-play).
 * Bidding games with small targets are often over by then.
 */
function stoppedGame(setup: GameSetup, deals: number, extra: number): PlayedGame {
  const play = (maxDeals: number, maxMoves?: number) =>
    playRandomGame(setup.rules, makeRng(setup.rngSeed), { firstDealer: setup.firstDealer, maxDeals, maxMoves, keepSteps: false });
  const upTo = play(deals);
  if (extra === 0 || upTo.over) return upTo;
  if (extra > 0) return play(deals + 1, upTo.moves + extra);
  const deck = shuffledDeck(setup.rules, makeRng(setup.rngSeed ^ 0x5a5a).hexSeed());
  const dealt = deal(upTo.state, deck);
  if (!dealt.ok) throw new CheckError(`deal refused: ${JSON.stringify(dealt.error)}`);
  const record = { ...upTo.record, deals: [...upTo.record.deals, { deck: deck.map(cardName), moves: [] }] };
  return { ...upTo, state: dealt.value, record, decks: [...upTo.decks, deck] };
}

const arbStop = fc.record({
  deals: fc.integer({ min: 0, max: 3 }),
  extra: fc.oneof(fc.integer({ min: -1, max: 6 }), fc.integer({ min: -1, max: 46 })),
});

const views = (state: GameState, players: number): string =>
  canon([null, ...Array.from({ length: players }, (_, s) => s)].map((v) => view(state, v)));

describe('endGame on random games', () => {
  it('the ending seat is last alone, totals are the finished deals, the record with end replays the same', () => {
    fc.assert(fc.property(
      arbGameSetup(), arbStop, fc.nat(), fc.constantFrom<EndReason>('resigned', 'forfeit'),
      (setup, stop, pick, reason) => {
        const game = stoppedGame(setup, stop.deals, stop.extra);
        const n = game.rules.players;
        const seat = pick % n;
        const end = { seat, reason };
        const before = canon(JSON.parse(encodeState(game.state)));
        const r = endGame(game.state, end);
        const record: GameRecord = JSON.parse(JSON.stringify({ ...game.record, end }));
        const replayed = replay(record);
        expect(canon(JSON.parse(encodeState(game.state)))).toBe(before);
        if (game.over) {
          // A game already over cannot also end early, live or in a record.
          expect(r.ok ? null : r.error).toMatchObject({ code: 'GAME_OVER', rule: 'game-over' });
          expect(replayed.ok ? null : replayed.error).toMatchObject({ rule: 'game-over', at: 'end', dealIndex: null, moveIndex: null });
          return;
        }
        if (!r.ok) throw new CheckError(`endGame refused an active game: ${JSON.stringify(r.error)}`);
        const o = outcome(r.value.state);
        expect(o.finished).toBe(true);
        expect(o.end).toStrictEqual(end);
        expect(gameEnd(r.value.state)).toStrictEqual(end);

        // Totals: the sums of the finished deals; the abandoned deal (if any) is last, scores null.
        const sums = new Array<number>(n).fill(0);
        for (const d of o.deals) if (d.scores) d.scores.forEach((x, s) => (sums[s] += x));
        expect(o.totals).toStrictEqual(sums);
        expect(o.totals).toStrictEqual(outcome(game.state).totals);
        expect(o.deals).toStrictEqual(outcome(game.state).deals);
        expect(o.deals.slice(0, -1).every((d) => d.scores !== null)).toBe(true);

        // Places: the ending seat last and alone; winners are the first place and never include it.
        const places = placesOf(o.totals, seat);
        expect(places[seat]).toBe(n);
        expect(places.filter((p) => p === n)).toHaveLength(1);
        expect(o.winners).toStrictEqual(places.flatMap((p, s) => (p === 1 ? [s] : [])));
        expect(o.winners).not.toContain(seat);
        const best = Math.max(...o.totals.filter((_, s) => s !== seat));
        expect(o.winners).toStrictEqual(o.totals.flatMap((t, s) => (s !== seat && t === best ? [s] : [])));

        // The record with end: the same outcome (same JSON, key order included) and the same views.
        if (!replayed.ok) throw new CheckError(`replay refused the record with end: ${JSON.stringify(replayed.error)}`);
        expect(JSON.stringify(replayed.value.outcome)).toBe(JSON.stringify(o));
        expect(views(replayed.value.state, n)).toBe(views(r.value.state, n));
      },
    ), pbt(150));
  }, PBT_TIMEOUT);
});
