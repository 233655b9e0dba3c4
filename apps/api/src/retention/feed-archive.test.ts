import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { PartitionsService } from './partitions.service.js';
import { FEED_LEGACY_PARTITION, monthPartitionName } from './partitions.sql.js';

// FEED_ARCHIVE_DIR on a real PostgreSQL: a month past the retention is copied (COPY … CSV, gzip)
// before it is dropped, the copy loads back into a table like the feed with every row as it was;
// and when the copy cannot be written the month is not dropped (kept detached) until a run that can.
const DAY = 86_400_000;
const base = loadConfig({});
const month = (at: Date, plus = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1));

let t: TestApp;
let prisma: PrismaService;
let partitions: PartitionsService;
let dir: string;
let archive: string;
let ala: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mizerka-archive-'));
  archive = join(dir, 'feeds');
  t = await startTestApp({ jobs: { ...base.jobs, worker: false }, retention: { ...base.retention, feedArchiveDir: archive } });
  prisma = t.app.get(PrismaService);
  partitions = t.app.get(PartitionsService);
  ala = (await t.register('arch_ala')).id;
  // A database partitioned long ago: months from M-6 made as the hourly job made them then.
  await prisma.$executeRawUnsafe(`ALTER TABLE player_events DETACH PARTITION ${FEED_LEGACY_PARTITION}`);
  await prisma.$executeRawUnsafe(`DROP TABLE ${FEED_LEGACY_PARTITION}`);
  const now = new Date();
  for (const back of [6, 3, 0]) await partitions.ensure(new Date(month(now, -back).getTime() + 5 * DAY));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

type FeedRow = { id: string; tx: string; player_id: string; type: string; payload: string; created_at: string };
const columns = `id::text, tx::text, player_id::text, type, payload::text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS created_at`;

async function addEvents(at: Date, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    // Payloads with what CSV must quote: commas, quotes, a newline, non-ASCII.
    const payload = JSON.stringify({ i, note: `a, "quoted"\nline — ${i} żółw` });
    await prisma.$executeRaw`INSERT INTO player_events (player_id, type, payload, created_at) VALUES (${ala}::uuid, 'lobbyJoined', ${payload}::jsonb, ${at})`;
  }
}

describe('archiving a feed month before its drop', () => {
  it('copies the month to a gzipped CSV that loads back row for row, then drops it', async () => {
    const now = new Date();
    const [oldest] = await partitions.list();
    expect(oldest.name).toBe(monthPartitionName(month(now, -6)));
    await addEvents(new Date(oldest.from!.getTime() + 9 * DAY), 5);
    const rows = await prisma.$queryRawUnsafe<FeedRow[]>(`SELECT ${columns} FROM "${oldest.name}" ORDER BY id`);
    expect(rows).toHaveLength(5);

    expect(await partitions.dropBefore(oldest.to)).toBe(5);
    expect((await partitions.list()).map((p) => p.name)).not.toContain(oldest.name);
    expect(await readdir(archive)).toEqual([`${oldest.name}.csv.gz`]);

    // What an operator does to read it back (docs/operations.md).
    const csv = gunzipSync(await readFile(join(archive, `${oldest.name}.csv.gz`)));
    expect(csv.toString('utf8').split('\n')[0]).toMatch(/^id,/);
    await prisma.$executeRawUnsafe(`CREATE TABLE restored_feed (LIKE player_events)`);
    const sql = postgres(t.databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      const into = await sql`COPY restored_feed FROM STDIN WITH (FORMAT csv, HEADER)`.writable();
      await new Promise<void>((resolve, reject) => {
        into.on('error', reject);
        into.on('finish', resolve);
        into.end(csv);
      });
    } finally {
      await sql.end();
    }
    expect(await prisma.$queryRawUnsafe<FeedRow[]>(`SELECT ${columns} FROM restored_feed ORDER BY id`)).toEqual(rows);
  });

  it('drops nothing whose copy failed, and copies and drops it on the next run', async () => {
    const [oldest] = await partitions.list();
    await addEvents(new Date(oldest.from!.getTime() + 3 * DAY), 3);
    // The archive folder cannot be made: a file stands where it should be.
    await rm(archive, { recursive: true });
    await writeFile(archive, 'not a folder');
    await expect(partitions.dropBefore(oldest.to)).rejects.toThrow(/could not archive .*kept/);
    // Out of the feed (detached) but whole.
    expect((await partitions.list()).map((p) => p.name)).not.toContain(oldest.name);
    const [{ n }] = await prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${oldest.name}"`);
    expect(n).toBe(3);
    await expect(partitions.dropBefore(oldest.to)).rejects.toThrow(/could not archive/);
    expect((await prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${oldest.name}"`))[0].n).toBe(3);

    await rm(archive);
    // The next run copies the month left detached, then drops it.
    expect(await partitions.dropBefore(oldest.to)).toBe(0);
    expect(await readdir(archive)).toEqual([`${oldest.name}.csv.gz`]);
    const lines = gunzipSync(await readFile(join(archive, `${oldest.name}.csv.gz`))).toString('utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^id,/);
    expect(lines.filter((l) => l.includes(ala))).toHaveLength(3);
    const [{ left }] = await prisma.$queryRaw<{ left: number }[]>`SELECT count(*)::int AS left FROM pg_class WHERE relname = ${oldest.name}`;
    expect(left).toBe(0);
  });
});
