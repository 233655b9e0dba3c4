import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 30_000 });
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { players } from '../games/games.test-kit.js';
import { FEED_START, readFeed } from '../player-events/feed.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { openSse } from './sse.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ streams: { keepAliveMs: 60_000, feedPollMs: 300 } });
});
afterAll(async () => {
  await t?.close();
});

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  return c;
}

const insert = (c: pg.Client, playerId: string, name: string) =>
  c.query(`INSERT INTO player_events (player_id, type, payload) VALUES ($1::uuid, 'lobbyJoined', $2::jsonb)`, [
    playerId,
    JSON.stringify({ lobbyId: null, playerId, name, seat: 0 }),
  ]);

describe('the feed horizon', () => {
  it('hides a later commit while an earlier transaction is open, then gives both in order', async () => {
    const [p] = await players(t, 1, 'horizon');
    const prisma = t.app.get(PrismaService);
    const a = await client();
    const b = await client();
    // A first event, committed and seen: the stream resumes after its id.
    await insert(a, p.id, 'Z');
    await expect.poll(async () => (await readFeed(prisma, p.id, FEED_START, 10)).length, { timeout: 20_000 }).toBe(1);
    const [z] = await readFeed(prisma, p.id, FEED_START, 10);
    const stream = await openSse(`${t.baseUrl}/api/v1/me/events?after=${z.id}`, { authorization: `Bearer ${p.token}` });
    try {
      await a.query('BEGIN');
      await insert(a, p.id, 'A'); // A's transaction id is taken here, before B's
      await b.query('BEGIN');
      await insert(b, p.id, 'B');
      await b.query('COMMIT');
      t.app.get(PlayerEventsService).published([{ playerId: p.id }]);

      // B is committed, but A (older) is still open: a read must not hand out B and later skip A.
      expect(await readFeed(prisma, p.id, z.cursor, 10)).toEqual([]);
      await expect(stream.next(150)).rejects.toThrow(/no server-sent event/);

      await a.query('COMMIT'); // no notice: the follower's poll (FEED_POLL_MS) finds it
      // (Once no older transaction of the whole server is open: other tests share it.)
      await expect.poll(async () => (await readFeed(prisma, p.id, z.cursor, 10)).map((e) => e.payload.name), { timeout: 20_000 }).toEqual(['A', 'B']);
      const both = await readFeed(prisma, p.id, z.cursor, 10);
      const frames = await stream.take(2, 20_000);
      expect(frames.map((f) => JSON.parse(f.data!).payload.name)).toEqual(['A', 'B']);
      expect(frames.map((f) => f.id)).toEqual(both.map((e) => e.id));
    } finally {
      stream.close();
      await a.end();
      await b.end();
    }
  });
});

describe('lobby events in the feed', () => {
  const feedOf = async (playerId: string) =>
    (await t.app.get(PlayerEventsService).feed(playerId, FEED_START, 100)).filter((e) => e.type === 'lobbyJoined' || e.type === 'lobbyLeft');

  it('tells the others seated when someone joins, leaves or is removed, never the one who acted', async () => {
    const [host, b, c] = await players(t, 3, 'lobbyfeed');
    const created = await t.gql('mutation { createLobby(input: { preset: "short" }) { id } }', {}, host.token);
    const lobbyId = created.data!.createLobby.id as string;
    const join = (token: string) => t.gql('mutation($id: ID!) { joinLobby(input: { lobbyId: $id }) { id } }', { id: lobbyId }, token);

    expect((await join(b.token)).errors).toBeUndefined();
    expect((await t.gql('mutation($id: ID!) { leaveLobby(lobbyId: $id) { id } }', { id: lobbyId }, b.token)).errors).toBeUndefined();
    expect((await join(b.token)).errors).toBeUndefined();
    const removed = await t.gql('mutation($id: ID!, $p: ID!) { removeFromLobby(lobbyId: $id, playerId: $p) { id } }', { id: lobbyId, p: b.id }, host.token);
    expect(removed.errors).toBeUndefined();
    expect((await join(c.token)).errors).toBeUndefined();

    await expect
      .poll(async () => (await feedOf(host.id)).map((e) => [e.type, e.payload.playerId, e.payload.removed ?? null]))
      .toEqual([
        ['lobbyJoined', b.id, null],
        ['lobbyLeft', b.id, false],
        ['lobbyJoined', b.id, null],
        ['lobbyJoined', c.id, null],
      ]);
    // The host removed b: b hears of it, the host (who acted) does not.
    const ofB = await feedOf(b.id);
    expect(ofB.map((e) => [e.type, e.payload.playerId, e.payload.removed])).toEqual([['lobbyLeft', b.id, true]]);
    expect(ofB[0]).toMatchObject({ lobbyId, gameId: null, seq: null, payload: { lobbyId, name: b.name, seat: 1 } });
    expect(await feedOf(c.id)).toEqual([]);
  });
});
