import { createConnection } from 'node:net';

/** The Redis tests use: TEST_REDIS_URL, or this machine's at 127.0.0.1:6379. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether a Redis answers at `url` (a TCP connect within half a second). Tests that need one skip
 * themselves, saying so, when none does.
 */
export async function redisAvailable(url = TEST_REDIS_URL, what = 'these tests'): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const up = await new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
  if (!up) console.warn(`${what} skipped: no Redis at ${url}`);
  return up;
}
