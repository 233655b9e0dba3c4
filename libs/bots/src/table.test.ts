import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardName, parseCard, view, type Card } from '@mizerka/rules';
import { copyState, handMasks, legalPlayMask, playCardInPlace } from '@mizerka/rules/fast';
import { arbGameSetup, makeRng, pbt, PBT_TIMEOUT } from '../../rules/test-kit/index.js';
import { chooseBid, chooseContract } from './basic-bot.js';
import { BOTS } from './bot-move.js';
import { playGame } from './bots.test-kit.js';
import { dealValue, determinize, goalsOf } from './deal-sampling.js';
import { know, masksOf } from './knowledge.js';
import { rngFor } from './seat.js';
import { AVOID, chooseCard, FEED, Table, tableOf, WIN } from './table.js';

const c = (name: string) => parseCard(name) as Card;

describe('the table plays tricks as @mizerka/rules does', () => {
  it('same legal cards, same tricks and, in the bidding family, the same scores, from a position with the true hands', () => {
    let compared = 0;
    let ended = 0;
    fc.assert(
      fc.property(arbGameSetup({ target: { min: 300, max: 300 } }), fc.integer({ min: 0, max: 20 }), (setup, at) => {
        let plays = 0;
        let checked = false;
        compared++;
        playGame(setup.rules, setup.firstDealer, setup.rngSeed, 1, (turn) => {
          if (turn.input.view.phase === 'play' && plays++ === at && !checked) {
            checked = true;
            const k = know(turn.input, turn.seat);
            const t = tableOf(k, goalsOf(k));
            const masks = new Uint16Array(4);
            for (const seat of k.active) {
              handMasks(turn.state, seat, masks);
              for (let suit = 0; suit < 4; suit++) t.hands[seat * 4 + suit] = masks[suit];
            }
            const state = copyState(turn.state);
            const rng = makeRng(setup.rngSeed);
            const legal = new Int32Array(4);
            const lib = new Int32Array(4);
            while (t.cardsLeft > 0) {
              t.legalMasks(legal);
              legalPlayMask(state, lib);
              expect(Array.from(legal)).toEqual(Array.from(lib));
              const cards: Card[] = [];
              for (let suit = 0; suit < 4; suit++) for (let r = 0; r < 13; r++) if ((legal[suit] >> r) & 1) cards.push(suit * 13 + r);
              const card = rng.pick(cards);
              expect(playCardInPlace(state, card)).toBeNull();
              t.play(card);
            }
            ended++;
            const end = view(state, null);
            const scored = end.dealScores[end.dealScores.length - 1];
            for (const seat of k.active) {
              expect(t.tricks[seat]).toBe(scored.tricks[seat]);
              if (k.family === 'bidding') expect(dealValue(k, t, seat)).toBe(scored.scores[seat]);
            }
          }
          return BOTS.basic(turn.input, { seed: 0 });
        });
      }),
      pbt(60),
    );
    expect(ended).toBeGreaterThan(compared / 2);
  }, PBT_TIMEOUT);
});

describe('determinize', () => {
  it('deals each other seat its hand size from the unseen cards, honouring the voids it has shown', () => {
    let samples = 0;
    let voidsBroken = 0;
    let withVoids = 0;
    fc.assert(
      fc.property(arbGameSetup({ target: { min: 300, max: 300 } }), fc.integer({ min: 0, max: 40 }), (setup, at) => {
        let turnNo = 0;
        playGame(setup.rules, setup.firstDealer, setup.rngSeed, 1, (turn) => {
          if (turnNo++ === at && turn.input.view.phase === 'play') {
            const k = know(turn.input, turn.seat);
            const t = tableOf(k, goalsOf(k));
            determinize(k, rngFor(at), t);
            samples++;
            if (k.voids.some((v) => v !== 0)) withVoids++;
            for (const seat of k.active) {
              let size = 0;
              for (let suit = 0; suit < 4; suit++) {
                const m = t.hands[seat * 4 + suit];
                for (let x = m; x !== 0; x &= x - 1) size++;
                if (seat !== k.seat) expect(m & (k.hand[suit] | k.out[suit])).toBe(0);
                if (seat !== k.seat && m !== 0 && (k.voids[seat] >> suit) & 1) voidsBroken++;
                for (const other of k.active) if (other !== seat) expect(m & t.hands[other * 4 + suit]).toBe(0);
              }
              expect(size).toBe(k.handSizes[seat]);
            }
          }
          return BOTS.random(turn.input, { seed: turnNo });
        });
      }),
      pbt(80),
    );
    expect(samples).toBeGreaterThan(20);
    expect(withVoids).toBeGreaterThan(5);
    expect(voidsBroken).toBe(0);
  }, PBT_TIMEOUT);
});

/** A 3-seat table, no cards yet: seat 2 to move after the given trick cards (played by 0 then 1). */
function table(trump: number, goal: number, mine: string[], trick: string[], target = -1): Table {
  const t = new Table(3, trump, 0x1fff, target);
  const hand = masksOf(mine);
  for (let suit = 0; suit < 4; suit++) t.hands[2 * 4 + suit] = hand[suit];
  t.next.set([1, 2, 0, 0]);
  t.goal.fill(goal);
  t.team.set([0, 1, 2, 3]);
  trick.forEach((name, i) => {
    t.trickCards[i] = c(name);
    t.trickSeats[i] = (2 - trick.length + i + 3) % 3;
  });
  t.trickLen = trick.length;
  t.toMove = 2;
  t.cardsLeft = mine.length;
  return t;
}

const choose = (t: Table) => cardName(chooseCard(t, 2));

describe('the basic card play', () => {
  it('follows low when the trick is lost', () => {
    expect(choose(table(-1, WIN, ['KS', '2S', 'AH'], ['AS', '3S']))).toBe('2S');
  });
  it('wins cheaply when last to play', () => {
    expect(choose(table(-1, WIN, ['3H', 'TH', 'AH'], ['9H', '4H']))).toBe('TH');
  });
  it('ruffs with its lowest trump, and keeps its trumps when it cannot win', () => {
    expect(choose(table(0, WIN, ['2C', 'KC', '5D'], ['9H', '4H']))).toBe('2C');
    expect(choose(table(0, WIN, ['2C', 'KC', '5D'], ['9H', 'AC']))).toBe('5D');
  });
  it('lets its team mate win', () => {
    const t = table(0, WIN, ['2C', '5D', '3D'], ['AH', '4H']);
    t.team.set([1, 0, 1, 0]); // seat 0, whose ace leads, is the team mate of seat 2
    expect(choose(t)).toBe('3D');
  });
  it('in mizerka ducks under the winning card, and sheds its highest when void', () => {
    expect(choose(table(-1, AVOID, ['3H', 'TH', 'AH'], ['JH', '4H']))).toBe('TH');
    expect(choose(table(-1, AVOID, ['3C', 'KD', 'AS'], ['JH', '4H']))).toBe('AS');
  });
  it('as a misère defender keeps the declarer on top', () => {
    // The declarer, seat 0, led the jack.
    expect(choose(table(-1, FEED, ['3H', 'TH', 'AH'], ['JH', '9H'], 0))).toBe('TH');
    // The declarer, seat 0, plays after seat 2: low, so that its card may win.
    expect(choose(table(-1, FEED, ['3H', 'TH', 'AH'], ['9H'], 0))).toBe('3H');
  });
});

describe('the basic contract and bid', () => {
  it('chooses a long strong suit as trumps, mizerka with low cards', () => {
    expect(chooseContract(masksOf(['AH', 'KH', 'QH', '9H', '4H', '2C']), ['hearts', 'notrumps', 'mizerka'])).toBe('hearts');
    expect(chooseContract(masksOf(['2H', '3C', '4D', '5S', '2S', '3D']), ['hearts', 'notrumps', 'mizerka'])).toBe('mizerka');
    expect(chooseContract(masksOf(['2H', '3C', '4D', '5S', '2S', '3D']), ['hearts', 'notrumps'])).not.toBe('mizerka');
  });
  it('plays with trumps and aces, bids misère with low cards, passes with neither', () => {
    expect(chooseBid(masksOf(['AS', 'KS', 'QS', 'JS', '9S', 'AH', 'KH', 'AD', '8C', '7C']), ['pass', 'play', 'misere'])).toBe('play');
    expect(chooseBid(masksOf(['7S', '8S', '9S', '7H', '8H', '9H', '7D', '8D', '7C', 'TC']), ['pass', 'play', 'misere'])).toBe('misere');
    expect(chooseBid(masksOf(['KS', '9S', 'QH', '8H', 'JH', '9D', 'TD', 'JC', 'TC', '8C']), ['pass', 'play', 'misere'])).toBe('pass');
  });
});
