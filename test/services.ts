// Tests that need a service beside PostgreSQL (a Redis, a redis-server binary, Chromium). Outside
// CI a missing one skips them, saying so in one line; in CI (CI set, as .ci/run sets it) it fails
// the run: a suite that silently skips there would pass without testing anything.
import { it } from 'vitest';

/** Whether this run is CI's: CI set to anything but empty, "0" or "false". */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
}

/**
 * Whether the tests of `what` may run: `missing` says what they lack, null when nothing. Called
 * while a test file is collected (its top level): without the service, outside CI it warns and
 * answers false (skip them); in CI it adds a test that fails naming what is missing, and answers
 * false, so the run fails once per file instead of once per test.
 */
export function serviceThere(what: string, missing: string | null, { env = process.env, test = it as (name: string, fn: () => void) => void, warn = console.warn } = {}): boolean {
  if (missing === null) return true;
  if (inCi(env)) {
    test(`${what}: has what it needs`, () => {
      throw new Error(`${what} cannot run: ${missing}. CI is set, where a missing service is a failure, not a skip`);
    });
  } else {
    warn(`${what} skipped: ${missing}`);
  }
  return false;
}
