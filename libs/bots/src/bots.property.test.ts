// Every level, on random deals of every preset and option: only legal moves, a move made from the
// seat's view alone (hidden cards moved about give the same move), the same move for the same seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply, type Move } from '@mizerka/rules';
import { arbGameSetup, pbt, PBT_TIMEOUT } from '../../rules/test-kit/index.js';
import { BOT_LEVELS, type BotLevel } from './bot.js';
import { BOTS, illegal } from './bot-move.js';
import { fromViewOf, playGame, reshuffleHidden } from './bots.test-kit.js';

/** Small, so that strong stays cheap in tests; its search still runs. */
const SAMPLES = 3;

const arbLevels = (players: number) => fc.array(fc.constantFrom<BotLevel>(...BOT_LEVELS), { minLength: players, maxLength: players });

describe('bots make only legal moves', () => {
  it('every level, seated at random, over whole deals of every preset and option', () => {
    fc.assert(
      fc.property(
        arbGameSetup({ target: { min: 30, max: 200 } }).chain((setup) => fc.tuple(fc.constant(setup), arbLevels(setup.rules.players))),
        ([setup, levels]) => {
          let moves = 0;
          playGame(setup.rules, setup.firstDealer, setup.rngSeed, setup.rules.family === 'contract' ? 2 : 4, (turn) => {
            const move = BOTS[levels[turn.seat]](turn.input, { seed: setup.rngSeed + moves++, samples: SAMPLES });
            // Refused moves throw inside playGame; illegal() must agree with the rules.
            expect(illegal(turn.input, move)).toBeNull();
            expect(apply(turn.state, move).ok).toBe(true);
            return move;
          });
          expect(moves).toBeGreaterThan(0);
        },
      ),
      pbt(60),
    );
  }, PBT_TIMEOUT);
});

describe('a bot decides from the view alone', () => {
  it('hidden cards moved about (other hands, the talon) leave the view, the events and every level\'s move unchanged', () => {
    let compared = 0;
    fc.assert(
      fc.property(arbGameSetup({ target: { min: 30, max: 200 } }), fc.integer({ min: 0, max: 40 }), (setup, at) => {
        let turnNo = 0;
        playGame(setup.rules, setup.firstDealer, setup.rngSeed, 1, (turn) => {
          if (turnNo++ === at) {
            const other = reshuffleHidden(turn, setup.rngSeed ^ at);
            if (other !== null) {
              const input = fromViewOf(other.state, turn.seat, other.events);
              // The test's own premise: the seat sees exactly the same.
              expect(input).toEqual(turn.input);
              for (const level of BOT_LEVELS) {
                const options = { seed: at, samples: SAMPLES };
                expect(BOTS[level](input, options)).toEqual(BOTS[level](turn.input, options));
              }
              compared++;
            }
          }
          return BOTS.basic(turn.input, { seed: 0 });
        });
      }),
      pbt(60),
    );
    // Most positions have hidden cards to move; the property must not pass by never comparing.
    expect(compared).toBeGreaterThan(20);
  }, PBT_TIMEOUT);
});

describe('a bot is deterministic for a seed', () => {
  it('the same input and seed give the same move, at every level (strong with 40 samples)', () => {
    fc.assert(
      fc.property(arbGameSetup({ target: { min: 30, max: 200 } }), fc.integer({ min: 0, max: 30 }), (setup, at) => {
        let turnNo = 0;
        playGame(setup.rules, setup.firstDealer, setup.rngSeed, 1, (turn) => {
          if (turnNo++ === at) {
            for (const level of BOT_LEVELS) {
              const options = { seed: setup.rngSeed, samples: level === 'strong' ? 40 : undefined };
              const a: Move = BOTS[level](turn.input, options);
              const b: Move = BOTS[level](structuredClone(turn.input), { ...options });
              expect(b).toEqual(a);
            }
          }
          return BOTS.random(turn.input, { seed: turnNo });
        });
      }),
      pbt(30),
    );
  }, PBT_TIMEOUT);
});
