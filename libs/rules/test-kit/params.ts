// fast-check parameters shared by the property tests: a fixed seed by default so that runs are
// reproducible; set RULES_PBT_SEED to explore, RULES_PBT_RUNS to scale every run count
// (e.g. 10 for a long soak).
import type fc from 'fast-check';

const envSeed = typeof process !== 'undefined' ? process.env.RULES_PBT_SEED : undefined;
const envScale = typeof process !== 'undefined' ? process.env.RULES_PBT_RUNS : undefined;

export const PBT_SEED = envSeed !== undefined && envSeed !== '' ? Number(envSeed) : 20_261_130;
export const PBT_SCALE = envScale !== undefined && envScale !== '' ? Number(envScale) : 1;

export function pbt<T>(numRuns: number): fc.Parameters<T> {
  return { numRuns: Math.max(1, Math.round(numRuns * PBT_SCALE)), seed: PBT_SEED, endOnFailure: true };
}

/** Vitest timeout for a property test: generous, the machine may be shared and slow. */
export const PBT_TIMEOUT = 120_000;
