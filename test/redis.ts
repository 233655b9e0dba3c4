import { createConnection } from 'node:net';
import { serviceThere } from './services.js';

/** The Redis tests use: TEST_REDIS_URL, or this machine's at 127.0.0.1:6379. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether a Redis answers at `url` (a TCP connect within half a second). Without one the tests of
 * `what` skip, saying so, or in CI fail (test/services.ts). Call at a test file's top level.
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
  return serviceThere(what, up ? null : `no Redis at ${url}`);
}
