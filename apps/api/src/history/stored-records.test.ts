import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { withClient } from '../../../../test/database.js';
import { waitFor } from '../../../../test/wait.js';
import { backfillRecords } from '../../../../scripts/records/backfill.js';
import { players, playThrough, startGame, type TestPlayer } from '../games/games.test-kit.js';
import type { Prisma } from '../generated/prisma/client.js';
import { Outbox } from '../outbox/outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { recordSourcesSql, type RecordSourceRow } from './history.sql.js';
import { recordOfRow, StoredRecords } from './stored-records.js';

// A finished game's record is stored once, at its end (the gameFinished consumer), and the export
// and GET /games/{id}/record give the same bytes whether it is stored or not.

let t: TestApp;
let seated: TestPlayer[];
let gameId: string;

const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
  withClient(t.databaseUrl, async (c) => (await c.query(text, params)).rows as T[]);
const storedOf = async (id: string) => (await sql<{ record: string }>('SELECT record::text AS record FROM game_records WHERE game_id = $1', [id])).map((r) => r.record);
/** JSON.stringify of what buildRecord gives from the game's rows now. */
const builtOf = async (id: string) => {
  const rows = await t.app.get(PrismaService).$queryRaw<RecordSourceRow[]>(recordSourcesSql([id], false));
  return JSON.stringify(recordOfRow(rows[0]));
};
const exportText = async () => (await fetch(`${t.baseUrl}/api/v1/players/${seated[0].name}/games/export?seeds=true`)).text();
const finished = (id: string) => ({ gameId: id, seq: 1, entries: [{ type: 'gameFinished' as const, totals: [], places: [], winners: [], end: null }] });

beforeAll(async () => {
  t = await startTestApp();
  seated = await players(t, 3, 'rec');
  gameId = await startGame(t, seated, 'short');
  await playThrough(t, seated, gameId, 5);
  // The consumer runs after the commit, on the job queue.
  await waitFor(async () => (await storedOf(gameId)).length > 0, 'the stored record', { timeout: 10_000 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('stored records', () => {
  it('stores a finished game’s record at its end, as buildRecord gives it, once however often the consumer runs', async () => {
    expect(await storedOf(gameId)).toEqual([await builtOf(gameId)]);
    const records = t.app.get(StoredRecords);
    expect(await records.store([gameId, gameId])).toBe(0);
    expect(await records.store([gameId])).toBe(0);
    expect(await storedOf(gameId)).toHaveLength(1);
    const answer = await fetch(`${t.baseUrl}/api/v1/games/${gameId}/record`);
    expect(await answer.text()).toBe(await builtOf(gameId));
  });

  it('stores nothing for a game in progress', async () => {
    const active = await startGame(t, seated, 'short');
    expect(await t.app.get(StoredRecords).store([active])).toBe(0);
    expect(await storedOf(active)).toEqual([]);
  });

  it('exports the same bytes for a game whose record is not stored yet, and a failed store is written on retry', async () => {
    const withRecord = await exportText();
    const record = await storedOf(gameId);
    await sql('DELETE FROM game_records WHERE game_id = $1', [gameId]);
    expect(await exportText()).toBe(withRecord);
    expect(await (await fetch(`${t.baseUrl}/api/v1/games/${gameId}/record`)).text()).toBe(record[0]);

    // A crash before the insert: the job fails, nothing is stored, and the queue's retry stores it.
    const outbox = t.app.get(Outbox);
    // Only the records' insert crashes: background jobs (partitions, compaction, clocks) run
    // statements through the same client meanwhile, and must not take the crash for it.
    const prisma = t.app.get(PrismaService);
    const execute = prisma.$executeRaw.bind(prisma);
    let crashed = false;
    const insert = vi.spyOn(prisma, '$executeRaw').mockImplementation(((query: Prisma.Sql, ...values: unknown[]) => {
      if (!crashed && query.strings?.join('').includes('INSERT INTO game_records')) {
        crashed = true;
        return Promise.reject(new Error('crash'));
      }
      return execute(query, ...values);
    }) as typeof prisma.$executeRaw);
    await expect(outbox.deliver('gameFinished.records', [finished(gameId)])).rejects.toThrow('crash');
    insert.mockRestore();
    expect(await storedOf(gameId)).toEqual([]);
    await outbox.deliver('gameFinished.records', [finished(gameId)]);
    await outbox.deliver('gameFinished.records', [finished(gameId)]);
    expect(await storedOf(gameId)).toEqual(record);
    expect(await exportText()).toBe(withRecord);
  });

  it('backfills the missing records with what buildRecord gives, and a second run finds nothing to do', async () => {
    const record = await storedOf(gameId);
    await sql('DELETE FROM game_records WHERE game_id = $1', [gameId]);
    const first = await backfillRecords({ url: t.databaseUrl, batch: 1 });
    expect(first.stored).toBeGreaterThanOrEqual(1);
    expect(first.stored).toBe(first.missing);
    expect(await storedOf(gameId)).toEqual(record);
    expect(await storedOf(gameId)).toEqual([await builtOf(gameId)]);
    const again = await backfillRecords({ url: t.databaseUrl, players: [seated[0].name] });
    expect(again).toMatchObject({ stored: 0, missing: 0 });
  });
});
