// A random game followed by the reference model, with the chosen checks after every deal and move.
import type { GameSetup } from './arbitraries.js';
import { GameChecker } from './checks.js';
import type { CheckSet } from './checks.js';
import { playRandomGame } from './driver.js';
import type { PlayOptions, PlayedGame, Step } from './driver.js';
import { makeRng } from './rng.js';
import type { Rng } from './rng.js';

export interface CheckedGame {
  game: PlayedGame;
  checker: GameChecker;
}

export function playChecked(
  setup: GameSetup,
  checks: CheckSet,
  opts: PlayOptions & { extra?: (step: Step, checker: GameChecker, rng: Rng) => void } = {},
): CheckedGame {
  const rng = makeRng(setup.rngSeed);
  const extraRng = makeRng(setup.rngSeed ^ 0x5bd1e995);
  const checker = new GameChecker(setup.rules, setup.firstDealer, checks);
  const game = playRandomGame(setup.rules, rng, {
    keepSteps: false,
    ...opts,
    firstDealer: setup.firstDealer,
    onDeal: (d) => {
      checker.onDeal(d);
      opts.onDeal?.(d);
    },
    onStep: (s) => {
      // Extra checks see the model as it was before the move.
      opts.extra?.(s, checker, extraRng);
      checker.onStep(s);
      opts.onStep?.(s);
    },
  });
  checker.finish(game);
  return { game, checker };
}
