import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { queryRows } from '../common/sql-query.js';
import { loadConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { feedTailSql, readFeedSql } from './feed.sql.js';

// The feed is ordered by (tx, id) as numbers: the statements answer tx as text, and an ORDER BY
// naming the bare column would sort by that text ("1000" before "999"), skipping events at every
// power of ten of the server's transaction ids, and sorting all of a player's events to do so.
const base = loadConfig({});
let t: TestApp;
let prisma: PrismaService;

beforeAll(async () => {
  t = await startTestApp({ jobs: { ...base.jobs, worker: false } });
  prisma = t.app.get(PrismaService);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

it('reads and tails a feed in the order of its transaction ids as numbers, through its index', async () => {
  const { id: player } = await t.register('feed_order');
  for (const tx of ['999', '1000']) {
    await prisma.$executeRaw`INSERT INTO player_events (player_id, type, payload, tx) VALUES (${player}::uuid, 'lobbyJoined', '{}', ${tx}::xid8)`;
  }
  const read = await queryRows(prisma, readFeedSql(player, { tx: 0n, id: 0n }, 1));
  expect(read.map((e) => e.tx)).toEqual(['999']);
  const [tail] = await queryRows(prisma, feedTailSql(player, true));
  expect(tail.tx).toBe('1000');

  const query = readFeedSql(player, { tx: 0n, id: 0n }, 50);
  const [{ 'QUERY PLAN': plan }] = await prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${query.text}`, ...query.values);
  expect(JSON.stringify(plan)).not.toMatch(/"Sort Key":\[[^\]]*::text/);
});
