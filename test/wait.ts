// Tests wait for a condition, never for a fixed time: a fixed sleep is too short on a loaded CI
// machine and too long everywhere else.

export interface WaitOptions {
  /** Fail after this many ms (default 10 s). */
  timeout?: number;
  /** Check again after this many ms (default 20). */
  every?: number;
}

/**
 * Calls `check` until it answers something other than undefined, null or false, and answers that;
 * fails after `timeout` naming `what`. An error thrown by `check` fails at once.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, { timeout = 10_000, every = 20 }: WaitOptions = {}): Promise<Exclude<T, undefined | null | false>> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/**
 * The one fixed wait a test may make: a bounded time in which something must NOT happen (a second
 * delivery, a retry). Say at the call why `ms` is long enough for it to have happened.
 */
export function quietFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
