import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { createTestDatabase, withClient } from '../../../../test/database.js';
import { loadConfig } from '../config/app-config.js';

// Exports against hostile clients: readers that never read must not hold the database or the
// other exports, must be cut off after the idle time, and may hold only so many exports at once.

let url: string;
let hoarder: { id: string; token: string };
let ala: { id: string; token: string };
const apps: TestApp[] = [];
/** Big enough that a reader that takes nothing fills both sockets' buffers many times over. */
const BIG_GAMES = 400;
const RECORD_BYTES = 64 * 1024;
const SMALL_GAMES = 25;

/**
 * An app on the shared database with export settings of its own. It works no jobs: an export needs
 * none, and each app's two job runners would hold connections of their own while the file's apps
 * stay open (they overran PostgreSQL's 100 beside another file's servers).
 */
async function appWith(exports: Record<string, string>): Promise<TestApp> {
  const config = loadConfig({ NODE_ENV: 'test', ...exports });
  const app = await startTestApp({ exports: config.exports, jobs: { ...config.jobs, worker: false } }, url);
  apps.push(app);
  return app;
}

/** `count` finished games of `players` (by seat), two to a creation time, newest first from `start`, each with a stored record of about `bytes`. */
async function seedGames(players: string[], count: number, bytes: number, start: number, tag: string) {
  await withClient(url, (c) =>
    c.query(
      `WITH g AS (
         INSERT INTO games (id, preset, options, players, first_dealer, status, version, phase, state, totals, winners, rated,
                            seat_names, created_at, updated_at, finished_at)
         SELECT gen_random_uuid(), 'classic', '{}', 3, 0, 'finished', 1, 'play', '{}', '{0,0,0}', '{}', false, '{}',
                to_timestamp(($3::bigint - (i / 2) * 1000) / 1000.0), now(), now()
           FROM generate_series(0, $2::int - 1) i
         RETURNING id, created_at),
       s AS (INSERT INTO game_seats (game_id, seat, player_id, total, place, created_at)
             SELECT g.id, k, ($1::uuid[])[k + 1], 0, 1, g.created_at FROM g, generate_series(0, 2) k)
       INSERT INTO game_records (game_id, record)
       SELECT id, json_build_object('format', 'mizerka-record/1', 'tag', $5::text, 'game', id, 'pad', repeat('x', $4::int)) FROM g`,
      [players, count, start, bytes, tag],
    ),
  );
}

/** The ids, newest first, that an export's lines carry. */
function idsOf(text: string): string[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).game as string);
}

/** An export request on a raw socket that reads the response's first bytes, then nothing more. */
async function stalledReader(t: TestApp, path: string, token?: string): Promise<{ socket: Socket; head: string }> {
  const { port } = new URL(t.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve(chunk.subarray(0, 200).toString('latin1'));
    });
    socket.once('close', () => reject(new Error('closed before an answer')));
  });
  return { socket, head };
}

function openConnections(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer() as import('node:http').Server;
  return new Promise((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}

/** Polls `check` until it holds; the test's own timeout bounds the wait. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

async function historyConnections(state: 'busy' | 'all'): Promise<number> {
  const r = await withClient(url, (c) =>
    c.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'mizerka-history' AND datname = current_database()
         ${state === 'busy' ? `AND state <> 'idle'` : ''}`,
    ),
  );
  return r.rows[0].n as number;
}

beforeAll(async () => {
  url = await createTestDatabase();
  const first = await appWith({});
  hoarder = await first.register('hoarder');
  ala = await first.register('ala');
  const bob = await first.register('bob');
  const base = Date.parse('2026-06-01T00:00:00.000Z');
  await seedGames([hoarder.id, ala.id, bob.id], BIG_GAMES, RECORD_BYTES, base, 'big');
  // ala's own games, newer than the big ones, which ala also sat in.
  await seedGames([ala.id, bob.id, hoarder.id], SMALL_GAMES, 100, base + 3_600_000, 'small');
}, 120_000);

afterAll(async () => {
  for (const a of apps.splice(0)) await a.close();
});

describe('export against stalled readers', () => {
  it('holds no database connection for three readers that never read; a fourth export completes promptly', async () => {
    const t = await appWith({ EXPORT_IDLE_SECONDS: '600' });
    const stalled = [];
    for (let i = 0; i < 3; i++) stalled.push(await stalledReader(t, '/api/v1/players/hoarder/games/export'));
    for (const s of stalled) expect(s.head).toMatch(/^HTTP\/1\.1 200/);
    // Each stalled export has more to send than the sockets can buffer, and waits for its client:
    // with none of the history pool's connections busy meanwhile.
    await until(async () => (await historyConnections('busy')) === 0);

    const started = performance.now();
    const fourth = await fetch(`${t.baseUrl}/api/v1/players/ala/games/export?limit=${SMALL_GAMES}`);
    const ids = idsOf(await fourth.text());
    const ms = performance.now() - started;
    expect(fourth.status).toBe(200);
    expect(ids).toHaveLength(SMALL_GAMES);
    console.log(`a fourth export beside three stalled readers: ${SMALL_GAMES} records in ${ms.toFixed(0)} ms`);
    // The three are still there, stalled, not done.
    expect(await openConnections(t)).toBeGreaterThanOrEqual(3);
    for (const s of stalled) expect(s.socket.destroyed).toBe(false);
    for (const s of stalled) s.socket.destroy();
  }, 60_000);

  it("closes a reader's connection that takes nothing for EXPORT_IDLE_SECONDS", async () => {
    const t = await appWith({ EXPORT_IDLE_SECONDS: '1' });
    const { socket, head } = await stalledReader(t, '/api/v1/players/hoarder/games/export');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    await until(async () => (await openConnections(t)) === 0);
    expect(await historyConnections('busy')).toBe(0);
    socket.destroy();
  }, 60_000);

  it('keeps a slow reader that reads on, however long it takes', async () => {
    const t = await appWith({ EXPORT_IDLE_SECONDS: '2' });
    // Reads 1 MiB, then nothing for 500 ms, and so on: the export (~6.5 MB) takes longer than the
    // idle time, but no idle time passes without reading.
    const { port } = new URL(t.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write('GET /api/v1/players/ala/games/export?limit=100 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const chunks: Buffer[] = [];
    let taken = 0;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      taken += chunk.length;
      if (taken >= 1024 * 1024) {
        taken = 0;
        socket.pause();
        setTimeout(() => socket.resume(), 500);
      }
    });
    await new Promise((resolve) => socket.once('close', resolve));
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    // Chunked transfer: the last chunk is 0-length, so a cut stream has no terminator.
    expect(body.endsWith('0\r\n\r\n')).toBe(true);
    expect(body.split('"format"').length - 1).toBe(100);
  }, 120_000);
});

describe('export limits', () => {
  it('refuses an export past EXPORT_MAX_PER_IP open ones from one address with 429 RATE_LIMITED, and admits one again when one ends', async () => {
    const t = await appWith({ EXPORT_IDLE_SECONDS: '600', EXPORT_MAX_PER_IP: '2' });
    const held = [await stalledReader(t, '/api/v1/players/hoarder/games/export'), await stalledReader(t, '/api/v1/players/hoarder/games/export')];
    const refused = await t.rest('GET', '/api/v1/players/ala/games/export');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.body.detail).toContain('EXPORT_MAX_PER_IP');
    held[0].socket.destroy();
    await until(async () => (await fetch(`${t.baseUrl}/api/v1/players/ala/games/export?limit=1`).then((r) => r.text().then(() => r.status))) === 200);
    held[1].socket.destroy();
  }, 60_000);

  it('refuses an export past EXPORT_MAX_PER_PLAYER open ones of one signed-in caller', async () => {
    const t = await appWith({ EXPORT_IDLE_SECONDS: '600', EXPORT_MAX_PER_PLAYER: '1' });
    const held = await stalledReader(t, '/api/v1/players/hoarder/games/export', ala.token);
    const refused = await t.rest('GET', '/api/v1/players/ala/games/export', undefined, ala.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.body.detail).toContain('EXPORT_MAX_PER_PLAYER');
    // Another caller, or none, is not held back by ala's export.
    expect((await t.rest('GET', '/api/v1/players/ala/games/export?limit=1', undefined, hoarder.token)).status).toBe(200);
    expect((await t.rest('GET', '/api/v1/players/ala/games/export?limit=1')).status).toBe(200);
    held.socket.destroy();
  }, 60_000);
});

describe('export paging', () => {
  it('sends the same games in the same order whatever the page size, ties of creation time included', async () => {
    const whole = await appWith({ EXPORT_PAGE_SIZE: '1000' });
    const paged = await appWith({ EXPORT_PAGE_SIZE: '7' });
    const want = await withClient(url, (c) =>
      c.query(
        `SELECT s.game_id::text AS id FROM game_seats s JOIN games g ON g.id = s.game_id
          WHERE s.player_id = $1 AND g.status = 'finished' ORDER BY s.created_at DESC, s.game_id DESC`,
        [ala.id],
      ),
    );
    for (const limit of [1, 7, 50, 10_000]) {
      const a = await (await fetch(`${whole.baseUrl}/api/v1/players/ala/games/export?limit=${limit}`)).text();
      const b = await (await fetch(`${paged.baseUrl}/api/v1/players/ala/games/export?limit=${limit}`)).text();
      expect(b).toBe(a);
      expect(idsOf(b)).toEqual(want.rows.slice(0, limit).map((r) => r.id));
    }
    const seeded = await (await fetch(`${paged.baseUrl}/api/v1/players/ala/games/export?limit=9&seeds=true`)).text();
    expect(seeded.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).gameId)).toEqual(want.rows.slice(0, 9).map((r) => r.id));
  }, 120_000);
});
