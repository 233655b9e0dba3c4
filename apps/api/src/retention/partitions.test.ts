import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { withClient } from '../../../../test/database.js';
import { waitFor } from '../../../../test/wait.js';
import { loadConfig } from '../config/app-config.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { insertFeedSql } from '../player-events/feed.sql.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { PartitionsService } from './partitions.service.js';
import { FEED_LEGACY_PARTITION, monthPartitionName as monthName } from './partitions.sql.js';
import { RetentionService } from './retention.service.js';

// The feed's monthly partitions on a real PostgreSQL, with fake "now"s: months made ahead (once,
// whoever asks), whole months past the retention dropped with their players' trim marks raised, the
// feed read as before, and a drop that could not take its lock leaving everything as it was.
const DAY = 86_400_000;
const base = loadConfig({});
const month = (at: Date, plus = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1));
const names = (list: { name: string }[]) => list.map((p) => p.name);
const tables = async (name: string) =>
  (await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_class WHERE relname = ${name} AND relkind = 'r'`)[0].n;

let t: TestApp;
let prisma: PrismaService;
let partitions: PartitionsService;
let ala: string;

beforeAll(async () => {
  t = await startTestApp({ jobs: { ...base.jobs, worker: false } });
  prisma = t.app.get(PrismaService);
  partitions = t.app.get(PartitionsService);
  ala = (await t.register('part_ala')).id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function feedEvent(player: string, at: Date): Promise<{ tx: bigint; id: bigint }> {
  const [row] = await prisma.$queryRaw<{ tx: string; id: bigint }[]>`
    INSERT INTO player_events (player_id, type, payload, created_at) VALUES (${player}::uuid, 'lobbyJoined', '{}', ${at}) RETURNING tx::text AS tx, id`;
  return { tx: BigInt(row.tx), id: row.id };
}

describe('the feed partitions', () => {
  it('are made for this month and two ahead, once however often and by however many runs', async () => {
    const now = new Date();
    // The migration made them: the start-up run found nothing to do.
    expect(await partitions.ensure(now)).toEqual([]);
    const later = new Date(month(now, 3).getTime() + 10 * DAY);
    const made = await Promise.all([partitions.ensure(later), partitions.ensure(later), partitions.ensure(later)]);
    expect(made.flat().sort()).toEqual([3, 4, 5].map((i) => monthName(month(now, i))));
    const list = await partitions.list();
    for (let i = 3; i <= 5; i++) {
      const from = month(now, i);
      const covering = list.filter((p) => p.from !== null && p.from.getTime() === from.getTime() && p.to.getTime() === month(now, i + 1).getTime());
      expect(covering, `month +${i}`).toHaveLength(1);
    }
    expect(await partitions.ensure(later)).toEqual([]);
    // Contiguous: each partition starts where the one before ends.
    for (let i = 1; i < list.length; i++) expect(list[i].from).toEqual(list[i - 1].to);
  });

  it('keep feed writes idempotent: a game event added twice is one row', async () => {
    const event = { playerId: ala, type: 'yourTurn', gameId: randomUUID(), lobbyId: null, seq: 7, payload: { gameId: 'x' } } as unknown as NewFeedEvent;
    await prisma.$executeRaw(insertFeedSql([event]));
    await prisma.$executeRaw(insertFeedSql([event, event]));
    const [{ n }] = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM player_events WHERE game_id = ${event.gameId}::uuid`;
    expect(n).toBe(1);
  });

  it('go whole once past the feed retention, the trim marks raised and the feed read as before; a second run drops nothing', async () => {
    const feed = t.app.get(PlayerEventsService);
    const retention = t.app.get(RetentionService);
    // A database partitioned long ago: the table of before gone, months back to M-6 made as the
    // hourly job made them then.
    const now = new Date();
    await prisma.$executeRawUnsafe(`ALTER TABLE player_events DETACH PARTITION ${FEED_LEGACY_PARTITION}`);
    await prisma.$executeRawUnsafe(`DROP TABLE ${FEED_LEGACY_PARTITION}`);
    for (const back of [6, 3, 0]) await partitions.ensure(new Date(month(now, -back).getTime() + 5 * DAY));
    const before = await partitions.list();
    for (let i = -6; i <= 2; i++) expect(names(before), `month ${i}`).toContain(monthName(month(now, i)));

    // Two events on the 10th of each month from M-6 to M-1, two now.
    const events: { at: Date; cursor: { tx: bigint; id: bigint } }[] = [];
    for (let i = -6; i <= 0; i++) {
      const at = i === 0 ? now : new Date(month(now, i).getTime() + 9 * DAY);
      for (let k = 0; k < 2; k++) events.push({ at, cursor: await feedEvent(ala, at) });
    }

    // "Now" the 15th of last month: 90 days before it is in M-4, so M-6 and M-5 are past it.
    const fakeNow = new Date(month(now, -1).getTime() + 14 * DAY + 12 * 3600_000);
    const counts = await retention.run(fakeNow);
    const gone = events.filter((e) => e.at < month(now, -4));
    expect(gone).toHaveLength(4);
    expect(counts.feedEvents).toBe(gone.length);
    const after = await partitions.list();
    expect(names(after)).not.toContain(names(before)[0]);
    expect(after).toHaveLength(before.length - 2);
    expect(after[0].from).toEqual(month(now, -4));

    // Reads: from the start, the kept events in order; from a dropped event, the oldest kept.
    const kept = events.filter((e) => e.at >= month(now, -4)).map((e) => e.cursor);
    const ours = new Set(events.map((e) => e.cursor.id));
    const read = async (after: { tx: bigint; id: bigint }) => (await feed.feed(ala, after, 100)).map((e) => e.cursor).filter((c) => ours.has(c.id));
    // A read sees an event once every older transaction of the server has ended (the horizon).
    expect(await waitFor(async () => {
      const seen = await read({ tx: 0n, id: 0n });
      return seen.length === kept.length && seen;
      // The horizon is the server's: a long transaction elsewhere (a load, another test) holds it back.
    }, 'the kept events below the horizon', { timeout: 120_000 })).toEqual(kept);
    const newestGone = gone.at(-1)!.cursor;
    expect(await feed.issued(ala, newestGone)).toBe(true);
    expect(await feed.issued(ala, gone[0].cursor)).toBe(true);
    expect(await read(newestGone)).toEqual(kept);
    const [mark] = await prisma.$queryRaw<{ tx: string; id: bigint }[]>`SELECT tx::text AS tx, id FROM player_feed_trims WHERE player_id = ${ala}::uuid`;
    expect({ tx: BigInt(mark.tx), id: mark.id }).toEqual(newestGone);

    // Again: nothing more, the same partitions.
    expect((await retention.run(fakeNow)).feedEvents).toBe(0);
    expect(await partitions.list()).toEqual(after);
  });

  it('leave a month as it was when its drop cannot take its lock, and drop it on the next run', async () => {
    const [oldest] = await partitions.list();
    const at = new Date(oldest.from!.getTime() + DAY);
    await feedEvent(ala, at);
    const [{ n: rows }] = await prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${oldest.name}"`);
    const marks = () => prisma.$queryRaw<{ tx: string; id: bigint }[]>`SELECT tx::text AS tx, id FROM player_feed_trims ORDER BY player_id`;
    const marksBefore = await marks();
    const cutoff = oldest.to;
    // A long read of the feed holds its lock: the drop gives up (lock_timeout) and undoes its marks.
    await withClient(t.databaseUrl, async (reader) => {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM player_events');
      await expect(partitions.dropBefore(new Date(cutoff.getTime() + 1))).rejects.toThrow(/lock timeout/i);
      await reader.query('ROLLBACK');
    });
    expect(names(await partitions.list())).toContain(oldest.name);
    const [{ n: still }] = await prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${oldest.name}"`);
    expect(still).toBe(rows);
    expect(await marks()).toEqual(marksBefore);

    expect(await partitions.dropBefore(new Date(cutoff.getTime() + 1))).toBe(rows);
    expect(names(await partitions.list())).not.toContain(oldest.name);
    expect(await partitions.dropBefore(new Date(cutoff.getTime() + 1))).toBe(0);
    expect(await tables(oldest.name)).toBe(0);
  });

  it('drop a month a stopped run detached but did not drop, and nothing else', async () => {
    const [oldest, next] = await partitions.list();
    // Stopped between the detach's commit and the drop.
    await prisma.$executeRawUnsafe(`ALTER TABLE player_events DETACH PARTITION "${oldest.name}"`);
    await prisma.$executeRawUnsafe(`CREATE TABLE "player_events_y1999m01_notes" (id int)`);
    expect(await partitions.dropBefore(oldest.to)).toBe(0);
    expect(await tables(oldest.name)).toBe(0);
    expect(await tables('player_events_y1999m01_notes')).toBe(1);
    expect(names(await partitions.list())[0]).toBe(next.name);
  });
});
