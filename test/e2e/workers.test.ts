// WORKERS=2: one command, two server processes sharing the port (Node's cluster module) on one
// database, told of each other's changes over Redis. A process that dies is replaced; SIGTERM
// stops them all.
import { describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL } from '../redis.js';
import { createTestDatabase } from '../database.js';
import { http, registerMany, sleep } from './clients.js';
import { startServer } from './server-process.js';

const REDIS_URL = TEST_REDIS_URL;
const redisUp = await redisAvailable(REDIS_URL, 'WORKERS tests');

/** The pids of the processes that said they listen, in order. */
function listening(output: string[]): number[] {
  return output
    .join('')
    .split('\n')
    .filter((line) => line.includes('Mizerka server listening'))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
}

async function until<T>(check: () => T | null | undefined | false, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('WORKERS=2', () => {
  it('refuses to start without REDIS_URL, saying why', async () => {
    await expect(startServer({ WORKERS: '2', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' }, 20_000)).rejects.toThrow(
      /WORKERS=2 needs REDIS_URL/,
    );
  });

  it.skipIf(!redisUp)('serves from two processes on one port, replaces one that dies, and stops them all on SIGTERM', async () => {
    const server = await startServer({ WORKERS: '2', REDIS_URL, DATABASE_URL: await createTestDatabase() }, 120_000);
    const pids = await until(() => {
      const p = listening(server.output);
      return p.length >= 2 && p;
    }, 'two server processes');
    expect(new Set(pids).size).toBe(2);
    expect(pids).not.toContain(server.child.pid);

    const h = http(server.url, { timeoutMs: 10_000, retryReset: true });
    const players = await registerMany(h, 4, 'wk');
    expect(players).toHaveLength(4);

    process.kill(pids[0], 'SIGKILL');
    const replaced = await until(() => {
      const p = listening(server.output);
      return p.length >= 3 && p[2];
    }, 'a replacement process');
    expect(pids).not.toContain(replaced);
    for (let i = 0; i < 10; i++) expect((await fetch(`${server.url}/health`)).status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const alive = [pids[1], replaced].filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  }, 180_000);
});
