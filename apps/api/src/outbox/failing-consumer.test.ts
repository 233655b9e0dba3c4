import { randomUUID } from 'node:crypto';
import { waitFor } from '../../../../test/wait.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { pickServerBot } from '../bots/bot-players.js';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import type { TimeControl } from '../games/index.js';
import { players, startGame, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { PlayerStatsService } from '../profiles/player-stats.service.js';
import { OUTBOX_TASK } from './outbox-entries.js';

// The players' statistics (a consumer of `gameFinished`) throw on every delivery, and a game's end
// is relayed in the same batch as, and before, the turns of a timed game and of a bots' game. Each
// consumer has a job of its own per relayed batch, so the clocks and the bots go on as if the
// statistics were not there, and the statistics' job is retried by the queue on its own. (With
// one job for the batch, the statistics' throw failed it before the turns' consumers ran.)
const base = loadConfig({});
const CLOCKS = { minMoveSeconds: 1, warningPercent: 0 };
const WRITER: Partial<AppConfig> = { jobs: { ...base.jobs, worker: false }, clocks: CLOCKS };
const WORKER: Partial<AppConfig> = { jobs: { ...base.jobs, worker: true, pollMs: 100, relayDelayMs: 5, botGraceMs: 0 }, clocks: CLOCKS };
const AUTO: TimeControl = { moveSeconds: 1, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 };

// Games are started on an instance that works no jobs, so no bot gets the in-process head start:
// what moves them is the worker's relay, the consumers' jobs and the clocks' and bots' own jobs.
let writer: TestApp;
let worker: TestApp | undefined;
let prisma: PrismaService;
const addGames = vi.spyOn(PlayerStatsService.prototype, 'addGames').mockRejectedValue(new Error('the statistics fail again'));
beforeAll(async () => {
  writer = await startTestApp(WRITER);
  prisma = writer.app.get(PrismaService);
});
afterAll(async () => {
  await worker?.close();
  await writer?.close();
  addGames.mockRestore();
});


/** Failed outbox jobs, as the queue's public jobs view shows them. */
function failedOutboxJobs(): Promise<{ last_error: string; attempts: number }[]> {
  return prisma.$queryRawUnsafe(
    `SELECT last_error, attempts FROM ${JOB_QUEUE_SCHEMA}.jobs WHERE task_identifier = $1 AND last_error IS NOT NULL`,
    OUTBOX_TASK,
  );
}

describe('a consumer that throws forever', () => {
  it('holds up neither a time-out nor a bot’s move, and its own job is retried on its own', async () => {
    const ended = randomUUID();
    await prisma.$executeRaw`
      INSERT INTO outbox (game_id, seq, entries)
      VALUES (${ended}::uuid, 9, '[{"type": "gameFinished", "totals": [], "places": [], "winners": [], "end": null}]'::jsonb)`;
    const people = await players(writer, 3, 'fcp');
    const timed = await startGame(writer, people, 'bidding', {}, AUTO);

    const bots: TestPlayer[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await pickServerBot(prisma, 'random', bots.map((b) => b.id));
      bots.push({ id, name: `bot${i}`, token: '' });
    }
    const botGame = await startGame(writer, bots, 'short');
    // All three rows wait for the worker, to be relayed in one batch, the game's end first.
    expect((await prisma.outboxEntry.findMany({ orderBy: { id: 'asc' }, select: { gameId: true } })).map((r) => r.gameId).slice(-3)).toEqual([ended, timed, botGame]);
    worker = await startTestApp(WORKER, writer.databaseUrl);

    // The clock fires for the absent person, through the same entries the broken consumer fails on.
    const timeout = await waitFor(
      () => prisma.gameEvent.findFirst({ where: { gameId: timed, cause: 'timeout' }, orderBy: { seq: 'asc' }, select: { actor: true, seq: true } }),
      'the time-out move', { timeout: 20_000 });
    expect(timeout).toMatchObject({ actor: 'system', seq: 2 });
    // A bot moves, set off by its turnBegan entry (nobody had a head start).
    const botMove = await waitFor(
      () => prisma.gameEvent.findFirst({ where: { gameId: botGame, actor: 'bot' }, orderBy: { seq: 'asc' }, select: { seq: true } }),
      'a bot’s move', { timeout: 20_000 });
    expect(botMove.seq).toBe(2);

    // The statistics failed on the game's end, and the queue tries them again (after its backoff);
    // the only outbox job that failed is theirs.
    const triesOf = () => addGames.mock.calls.filter(([ids]) => ids.includes(ended)).length;
    await waitFor(async () => triesOf() >= 2, 'a retry of the statistics’ job', { timeout: 30_000 });
    const failed = await failedOutboxJobs();
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((job) => job.last_error.includes('the statistics fail again'))).toBe(true);
  }, 60_000);
});
