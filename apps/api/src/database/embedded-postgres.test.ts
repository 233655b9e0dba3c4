import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withClient } from '../../../../test/database.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.js';

const port = (url: string) => new URL(url).port;

describe('startEmbeddedPostgres', { timeout: 120_000 }, () => {
  let root: string;
  let dataDir: string;
  const running: EmbeddedPostgres[] = [];
  const start = async () => {
    const server = await startEmbeddedPostgres({ dataDir });
    running.push(server);
    return server;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mizerka-embedded-'));
    // When we run as root PostgreSQL runs as another user, which must be able to enter this folder.
    await chmod(root, 0o755);
    dataDir = join(root, 'postgres');
  });
  afterAll(async () => {
    for (const server of running) await server.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('creates a cluster on a free port and keeps its data across a stop and a start', async () => {
    const first = await start();
    expect(first.url).toMatch(/^postgresql:\/\/.+@127\.0\.0\.1:\d+\/mizerka$/);
    expect(port(first.url)).not.toBe('5432');
    await withClient(first.url, (client) => client.query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('hello')"));
    await first.stop();
    await first.stop(); // twice is harmless

    const second = await start();
    const { rows } = await withClient(second.url, (client) => client.query('SELECT v FROM kept'));
    expect(rows).toEqual([{ v: 'hello' }]);
    await second.stop();
  });

  it('stops the PostgreSQL left running by a process that was killed, and starts afresh', async () => {
    const orphaned = await start();
    // As if our process had been SIGKILLed: the recorded owner is a process that has exited.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(join(dataDir, 'embedded-owner.pid'), `${deadPid}\n`);

    const next = await start();
    const { rows } = await withClient(next.url, (client) => client.query('SELECT v FROM kept'));
    expect(rows).toEqual([{ v: 'hello' }]);
    await expect(withClient(orphaned.url, (client) => client.query('SELECT 1'))).rejects.toThrow();
    await next.stop();
  });

  it('shares the server another live process runs on the same folder, leaving it running', async () => {
    const owner = await start();
    // As if another process (say the game server) had started it.
    await writeFile(join(dataDir, 'embedded-owner.pid'), `${process.ppid}\n`);

    const guest = await start();
    expect(guest.url).toBe(owner.url);
    await guest.stop();
    const { rows } = await withClient(owner.url, (client) => client.query('SELECT v FROM kept'));
    expect(rows).toEqual([{ v: 'hello' }]);
    await owner.stop();
  });
});
