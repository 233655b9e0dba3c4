import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import type { AppConfig } from '../config/app-config.js';
import { GameStore } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { Outbox } from './outbox.js';
import { OUTBOX_TASK, type OutboxJob } from './outbox-entries.js';

// The outbox: a move's follow-ups are queued by the move's own statement, and worked after the
// commit, at least once, by one worker of any instance, idempotently.
const NO_WORKER: Partial<AppConfig> = { jobs: { worker: false, concurrency: 1, pollMs: 1000 } };
const FAST_WORKER: Partial<AppConfig> = { jobs: { worker: true, concurrency: 4, pollMs: 200 } };

let queuing: TestApp; // moves, but works no job: as if every worker had crashed after the commit
let prisma: PrismaService;
beforeAll(async () => {
  queuing = await startTestApp(NO_WORKER);
  prisma = queuing.app.get(PrismaService);
});
afterAll(async () => {
  await queuing?.close();
});

/** Jobs not yet worked (or failed and waiting for a retry). The public jobs view hides payloads. */
async function queued(gameId?: string): Promise<OutboxJob[]> {
  const rows = await prisma.$queryRaw<{ payload: OutboxJob }[]>`
    SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = ${OUTBOX_TASK} ORDER BY j.id`;
  return rows.map((r) => r.payload).filter((job) => gameId === undefined || job.gameId === gameId);
}

async function moveOnce(t: TestApp, gameId: string, seated: TestPlayer[], random: (n: number) => number) {
  const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
  const mine = (await t.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
  const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, random) } }, seated[toMove].token);
  expect(moved.errors).toBeUndefined();
  return moved.data!.makeMove as { version: number; game: { toMove: number | null; phase: string } };
}

async function waitFor<T>(check: () => Promise<T | null | undefined | false>, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('outbox entries', () => {
  it('are written by the move statement itself: one job per write, with what followed from it', async () => {
    const seated = await players(queuing, 3, 'obx');
    const gameId = await startGame(queuing, seated, 'short');
    const start = await queued(gameId);
    const firstToMove = (await queuing.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    expect(start).toEqual([
      { gameId, seq: 1, entries: [{ type: 'turnBegan', seat: firstToMove, playerId: seated[firstToMove].id, deadline: null }] },
    ]);

    const random = rng(3);
    let dealFinishedAt: number | null = null;
    for (let i = 0; i < 50; i++) { // a short deal is 1 contract, 3 exchanges and 39 cards
      const { version, game } = await moveOnce(queuing, gameId, seated, random);
      const jobs = await queued(gameId);
      expect(jobs).toHaveLength(i + 2);
      const job = jobs[jobs.length - 1];
      expect(job.seq).toBe(version);
      const turn = job.entries.find((e) => e.type === 'turnBegan');
      expect(turn).toEqual({ type: 'turnBegan', seat: game.toMove, playerId: seated[game.toMove!].id, deadline: null });
      if (job.entries.some((e) => e.type === 'dealFinished')) {
        dealFinishedAt = version;
        // The deal's last card and the next deal are one write: the job follows the deal entry.
        expect(job.entries[0]).toEqual({ type: 'dealFinished', deal: 0 });
        break;
      }
    }
    expect(dealFinishedAt).not.toBeNull();
  }, 30_000);

  it('are not written by a write that lost its race', async () => {
    const seated = await players(queuing, 3, 'obl');
    const gameId = await startGame(queuing, seated, 'bidding');
    const store = queuing.app.get(GameStore);
    const game = (await store.read(gameId, null, null))!;
    await moveOnce(queuing, gameId, seated, rng(1)); // the version moves on
    const jobsBefore = await queued(gameId);
    const entriesBefore = await prisma.gameEvent.count({ where: { gameId } });

    const applied = await store.write({
      gameId,
      readVersion: game.version, // stale
      entries: [
        {
          seq: game.version + 1,
          kind: 'bid',
          dealIndex: 0,
          seat: 0,
          playerId: seated[0].id,
          actor: 'player',
          cause: null,
          move: { seat: 0, bid: 'pass' },
          events: [],
          idempotencyKey: null,
        },
      ],
      next: null,
      state: game.state,
      deadline: null,
      outbox: { gameId, seq: game.version + 1, entries: [{ type: 'dealFinished', deal: 0 }] },
    });
    expect(applied).toBe(false);
    expect(await queued(gameId)).toEqual(jobsBefore);
    expect(await prisma.gameEvent.count({ where: { gameId } })).toBe(entriesBefore);
  });
});

describe('the outbox consumer', () => {
  it('works what was committed while no worker ran (a crash between commit and work loses nothing)', async () => {
    const seated = await players(queuing, 3, 'obc');
    const gameId = await startGame(queuing, seated, 'short');
    const random = rng(8);
    for (let i = 0; i < 5; i++) await moveOnce(queuing, gameId, seated, random);
    expect(await prisma.playerEvent.count({ where: { gameId } })).toBe(0);
    const jobs = await queued(gameId);
    expect(jobs).toHaveLength(6);

    // An instance with a worker comes up later on the same database and catches up.
    const worker = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    try {
      await waitFor(async () => (await queued(gameId)).length === 0, 'the queued jobs to be worked');
      const feed = await prisma.playerEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' }, select: { seq: true, type: true, playerId: true } });
      expect(feed).toEqual(
        jobs.map((job) => {
          const turn = job.entries.find((e) => e.type === 'turnBegan')!;
          return { seq: job.seq, type: 'yourTurn', playerId: turn.type === 'turnBegan' ? turn.playerId : null };
        }),
      );
      // Working a job again (a redelivery) changes nothing.
      for (const job of jobs) await worker.app.get(Outbox).process(job);
      expect(await prisma.playerEvent.count({ where: { gameId } })).toBe(jobs.length);
    } finally {
      await worker.close();
    }
  });

  it('hands each job to exactly one of two instances', async () => {
    const a = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    const b = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    const seen = new Map<string, string[]>();
    const counter = (instance: string) => async (_entry: unknown, job: { gameId: string; seq: number }) => {
      const key = `${job.gameId}/${job.seq}`;
      seen.set(key, [...(seen.get(key) ?? []), instance]);
    };
    a.app.get(Outbox).consume('dealFinished', 'count', counter('a'));
    b.app.get(Outbox).consume('dealFinished', 'count', counter('b'));
    try {
      const gameId = randomUUID();
      const count = 200;
      await prisma.$executeRaw`
        SELECT graphile_worker.add_job(${OUTBOX_TASK}::text, json_build_object('gameId', ${gameId}::text, 'seq', i,
                 'entries', json_build_array(json_build_object('type', 'dealFinished', 'deal', 0))))
          FROM generate_series(1, ${count}::int) AS i`;
      await waitFor(async () => seen.size === count && (await queued(gameId)).length === 0, 'every job to be worked');
      expect([...seen.values()].filter((by) => by.length !== 1)).toEqual([]);
      const byA = [...seen.values()].filter((by) => by[0] === 'a').length;
      expect(byA + [...seen.values()].filter((by) => by[0] === 'b').length).toBe(count);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('retries a job whose consumer failed, then completes it', async () => {
    const worker = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    let attempts = 0;
    worker.app.get(Outbox).consume('dealFinished', 'flaky', async () => {
      attempts++;
      if (attempts === 1) throw new Error('the first delivery fails');
    });
    try {
      const gameId = randomUUID();
      await prisma.$executeRaw`SELECT graphile_worker.add_job(${OUTBOX_TASK}::text,
        json_build_object('gameId', ${gameId}::text, 'seq', 1, 'entries', json_build_array(json_build_object('type', 'dealFinished', 'deal', 0))))`;
      await waitFor(async () => attempts >= 1, 'the first attempt');
      const [failed] = await prisma.$queryRaw<{ attempts: number; last_error: string | null }[]>`
        SELECT attempts, last_error FROM graphile_worker._private_jobs WHERE payload->>'gameId' = ${gameId}`;
      expect(failed.attempts).toBe(1);
      expect(failed.last_error).toContain('the first delivery fails');
      // The queue backs off (exp(attempts) seconds); bring the retry forward instead of waiting.
      await prisma.$executeRaw`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE payload->>'gameId' = ${gameId}`;
      await waitFor(async () => (await queued(gameId)).length === 0, 'the retry to complete');
      expect(attempts).toBe(2);
    } finally {
      await worker.close();
    }
  });
});
