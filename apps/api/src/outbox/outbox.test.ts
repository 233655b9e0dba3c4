import { randomUUID } from 'node:crypto';
import { waitFor } from '../../../../test/wait.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { pickServerBot } from '../bots/bot-players.js';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import { GameStore, projectCommit } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { Outbox } from './outbox.js';
import { OUTBOX_TASK, type OutboxDelivery, type OutboxJob } from './outbox-entries.js';

// The outbox: a move's follow-ups are queued by the move's own statement, and worked after the
// commit, at least once, by one worker of any instance, idempotently.
const JOBS = loadConfig({}).jobs;
const NO_WORKER: Partial<AppConfig> = { jobs: { ...JOBS, worker: false } };
const FAST_WORKER: Partial<AppConfig> = { jobs: { ...JOBS, worker: true, pollMs: 200 } };

let queuing: TestApp; // moves, but works no job: as if every worker had crashed after the commit
let prisma: PrismaService;
beforeAll(async () => {
  queuing = await startTestApp(NO_WORKER);
  prisma = queuing.app.get(PrismaService);
});
afterAll(async () => {
  await queuing?.close();
});

/** Outbox rows not yet relayed to the job queue, oldest first. */
async function queued(gameId?: string): Promise<OutboxJob[]> {
  const rows = await prisma.outboxEntry.findMany({ orderBy: { id: 'asc' }, select: { gameId: true, seq: true, entries: true } });
  return rows.filter((row) => gameId === undefined || row.gameId === gameId) as unknown as OutboxJob[];
}

/** Jobs in the queue not yet done (or failed, waiting for a retry). The public jobs view hides payloads. */
async function jobsFor(gameId: string): Promise<{ payload: OutboxDelivery | OutboxJob[]; attempts: number; last_error: string | null }[]> {
  return prisma.$queryRaw`
    SELECT j.payload, j.attempts, j.last_error FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = ${OUTBOX_TASK} AND j.payload::text LIKE ${'%' + gameId + '%'} ORDER BY j.id`;
}

/** Outbox rows for `count` jobs of `gameId` with seqs from..from+count-1, each with one dealFinished entry. */
async function insertRows(gameId: string, from: number, count: number): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO outbox (game_id, seq, entries)
    SELECT ${gameId}::uuid, i, '[{"type": "dealFinished", "deal": 0}]'::jsonb FROM generate_series(${from}::int, ${from + count - 1}::int) AS i`;
}

/** A time control whose turns never run out during a test: each turn has a deadline to watch. */
const TIMED = { moveSeconds: 3600, bankSeconds: 0, onTimeout: 'autoMove' as const, maxTimeouts: 3 };

async function deadlineOf(gameId: string): Promise<string | null> {
  const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId }, select: { turnDeadline: true } });
  return game.turnDeadline?.toISOString() ?? null;
}

async function moveOnce(t: TestApp, gameId: string, seated: TestPlayer[], random: (n: number) => number) {
  const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
  const mine = (await t.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
  const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, random) } }, seated[toMove].token);
  expect(moved.errors).toBeUndefined();
  return moved.data!.makeMove as { version: number; game: { toMove: number | null; phase: string } };
}


describe('outbox entries', () => {
  it('are written by the move statement itself: one job per write, with what followed from it', async () => {
    const seated = await players(queuing, 3, 'obx');
    // Timed: every turn has a deadline to watch, so every write queues its turn.
    const gameId = await startGame(queuing, seated, 'short', {}, TIMED);
    const start = await queued(gameId);
    const firstToMove = (await queuing.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    expect(start).toEqual([
      { gameId, seq: 1, entries: [{ type: 'turnBegan', seat: firstToMove, playerId: seated[firstToMove].id, deadline: await deadlineOf(gameId) }] },
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
      expect(turn).toEqual({ type: 'turnBegan', seat: game.toMove, playerId: seated[game.toMove!].id, deadline: await deadlineOf(gameId) });
      if (job.entries.some((e) => e.type === 'dealFinished')) {
        dealFinishedAt = version;
        // The deal's last card and the next deal are one write: the job follows the deal entry.
        expect(job.entries[0]).toEqual({ type: 'dealFinished', deal: 0 });
        break;
      }
    }
    expect(dealFinishedAt).not.toBeNull();
  }, 30_000);

  it("queue a turn only when it is the server's work: a server bot's, or one with a deadline; not a person's untimed turn", async () => {
    const [ala, ola] = await players(queuing, 2, 'obt');
    const bot = await pickServerBot(prisma, 'random', [ala.id, ola.id]);
    const seated = [ala, ola, { id: bot, name: 'bot', token: '' }];
    // Untimed; the first turn (the dealer is drawn at random) a person's, so that people move first.
    let gameId = await startGame(queuing, seated, 'short');
    while ((await queuing.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove === 2) gameId = await startGame(queuing, seated, 'short');
    const random = rng(5);
    let personTurns = 0;
    for (let moves = 0; moves < 50; moves++) {
      const toMove = (await queuing.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
      if (toMove === 2) break; // the bot's turn: nobody works jobs here
      const { version, game } = await moveOnce(queuing, gameId, seated, random);
      const job = (await queued(gameId)).find((j) => j.seq === version);
      if (game.toMove === 2) {
        expect(job?.entries).toContainEqual({ type: 'turnBegan', seat: 2, playerId: bot, deadline: null });
      } else {
        personTurns++;
        expect(job?.entries.some((e) => e.type === 'turnBegan') ?? false, `the write at ${version}`).toBe(false);
      }
    }
    expect(personTurns).toBeGreaterThan(0);
    expect((await queuing.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove).toBe(2);
    // The person's turn is still in their feed, written by the move itself.
    expect(await prisma.playerEvent.count({ where: { gameId, type: 'yourTurn', playerId: { in: [ala.id, ola.id] } } })).toBeGreaterThan(0);
  });

  it('are not written by a write that lost its race', async () => {
    const seated = await players(queuing, 3, 'obl');
    const gameId = await startGame(queuing, seated, 'bidding');
    const store = queuing.app.get(GameStore);
    const game = (await store.read(gameId, null, null))!;
    await moveOnce(queuing, gameId, seated, rng(1)); // the version moves on
    const jobsBefore = await queued(gameId);
    const entriesBefore = await prisma.gameEvent.count({ where: { gameId } });

    const applied = await store.write({
      // A move decided on a version that is gone, with feed and outbox rows of its own.
      ...projectCommit({
        type: 'move',
        gameId,
        readVersion: game.version, // stale
        seats: game.seats,
        serverBots: game.serverBots,
        timedOut: null,
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
            requestHash: null,
            response: null,
          },
        ],
        next: null,
        state: game.state,
        now: new Date(),
        clock: null,
      }),
      feed: [
        {
          playerId: seated[1].id,
          type: 'deadlineNear',
          gameId,
          lobbyId: null,
          seq: game.version + 1,
          payload: { gameId, seq: game.version + 1, seat: 1, deadline: new Date().toISOString() },
        },
      ],
      outbox: { gameId, seq: game.version + 1, entries: [{ type: 'dealFinished', deal: 0 }] },
    });
    expect(applied).toBeNull();
    expect(await queued(gameId)).toEqual(jobsBefore);
    expect(await prisma.gameEvent.count({ where: { gameId } })).toBe(entriesBefore);
    expect(await prisma.playerEvent.count({ where: { gameId, type: 'deadlineNear' } })).toBe(0);
  });
});

describe('the outbox consumer', () => {
  it('finds the consumers marked @OutboxConsumer at boot, each once, and refuses a second of one id', () => {
    const outbox = queuing.app.get(Outbox);
    expect([...outbox.consumerIds].sort()).toEqual([
      'gameFinished.clocks',
      'gameFinished.ratings',
      'gameFinished.records',
      'gameFinished.reminders',
      'gameFinished.stats',
      'gameFinished.tournaments',
      'turnBegan.bots',
      'turnBegan.clocks',
      'turnBegan.reminders',
      'turnBegan.vacations',
    ]);
    expect(() => outbox.consume('gameFinished', 'ratings', async () => undefined)).toThrow(/declared twice/);
  });

  it('works what was committed while no worker ran (a crash between commit and work loses nothing)', async () => {
    const seated = await players(queuing, 3, 'obc');
    const gameId = await startGame(queuing, seated, 'short', {}, TIMED);
    const random = rng(8);
    for (let i = 0; i < 5; i++) await moveOnce(queuing, gameId, seated, random);
    const jobs = await queued(gameId);
    expect(jobs).toHaveLength(6);
    // The feed is written by the moves themselves, not by the queue.
    const yourTurns = () => prisma.playerEvent.findMany({ where: { gameId, type: 'yourTurn' }, orderBy: { seq: 'asc' }, select: { seq: true, playerId: true } });
    const feed = jobs.map((job) => {
      const turn = job.entries.find((e) => e.type === 'turnBegan')!;
      return { seq: job.seq, playerId: turn.type === 'turnBegan' ? turn.playerId : null };
    });
    expect(await yourTurns()).toEqual(feed);

    // An instance with a worker comes up later on the same database and catches up.
    const worker = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    try {
      await waitFor(
        async () => (await queued(gameId)).length === 0 && (await jobsFor(gameId)).length === 0,
        'the outbox to be relayed and its jobs worked', { timeout: 15_000 });
      // Working the jobs again (a redelivery to every consumer) changes nothing.
      const outbox = worker.app.get(Outbox);
      for (const consumer of outbox.consumerIds) await outbox.deliver(consumer, jobs);
      expect(await yourTurns()).toEqual(feed);
    } finally {
      await worker.close();
    }
  });

  it('relays each row once and works each job on exactly one of two instances', async () => {
    const a = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    const b = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    const seen = new Map<number, string[]>();
    const gameId = randomUUID();
    const counter = (instance: string) => async (items: { gameId: string; seq: number }[]) => {
      for (const job of items) if (job.gameId === gameId) seen.set(job.seq, [...(seen.get(job.seq) ?? []), instance]);
    };
    a.app.get(Outbox).consume('dealFinished', 'count', counter('a'));
    b.app.get(Outbox).consume('dealFinished', 'count', counter('b'));
    try {
      // Rows arrive in waves while both instances relay as hard as they can.
      const waves = 40;
      for (let wave = 0; wave < waves; wave++) {
        await insertRows(gameId, wave * 5 + 1, 5);
        a.app.get(Outbox).kick();
        b.app.get(Outbox).kick();
      }
      await waitFor(async () => seen.size === waves * 5 && (await jobsFor(gameId)).length === 0, 'every row to be worked', { timeout: 15_000 });
      expect([...seen.entries()].filter(([, by]) => by.length !== 1)).toEqual([]);
      expect(await queued(gameId)).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('unlocks the jobs of a worker pool that stopped being seen (its instance was killed), so another works them', async () => {
    const poolsNow = async () => (await prisma.jobPool.findMany({ select: { poolId: true } })).map((p) => p.poolId);
    const before = new Set(await poolsNow());
    const worker = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    const gameId = randomUUID();
    const seen: number[] = [];
    worker.app.get(Outbox).consume('dealFinished', 'count', async (items) => {
      for (const item of items) if (item.gameId === gameId) seen.push(item.seq);
    });
    try {
      // A job a killed instance had locked 20 s ago, never to finish it.
      const delivery: OutboxDelivery = { consumer: 'dealFinished.count', jobs: [{ gameId, seq: 7, entries: [{ type: 'dealFinished', deal: 0 }] }] };
      await prisma.$executeRaw`
        SELECT graphile_worker.add_job(${OUTBOX_TASK}, ${JSON.stringify(delivery)}::json, run_at := now() + interval '1 hour')`;
      await prisma.$executeRaw`
        UPDATE graphile_worker._private_jobs SET locked_by = 'pool-killed', locked_at = now() - interval '20 seconds', run_at = now() - interval '21 seconds'
         WHERE payload::text LIKE ${'%' + gameId + '%'}`;
      // Every runner of the instance (the main one; webhook and push sends run apart) says it is
      // alive, or its long jobs would be taken from it. (The file's other app works no jobs, and a
      // closed worker removes its pools' rows.)
      await waitFor(async () => (await poolsNow()).filter((id) => !before.has(id)).length >= 2, "the worker's pools to be seen", { timeout: 15_000 });
      await waitFor(async () => seen.includes(7), 'the orphaned job to be worked', { timeout: 10_000 });
      // Done jobs are removed in batches, a moment after they ran.
      await waitFor(async () => (await jobsFor(gameId)).length === 0, 'the job to be marked done', { timeout: 15_000 });
    } finally {
      await worker.close();
    }
  }, 45_000); // a worker starts, then up to 40 s of waits, on a loaded machine

  it('gives each consumer a job of its own per batch, with only its entries, in commit order', async () => {
    const worker = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    const gameId = randomUUID();
    const got = new Map<string, { seq: number; type: string }[][]>();
    const outbox = worker.app.get(Outbox);
    for (const [type, name] of [['dealFinished', 'deals'], ['gameFinished', 'ends'], ['dealFinished', 'deals2']] as const) {
      outbox.consume(type, name, async (items) => {
        const mine = items.filter((i) => i.gameId === gameId).map((i) => ({ seq: i.seq, type: i.entry.type }));
        if (mine.length > 0) got.set(name, [...(got.get(name) ?? []), mine]);
      });
    }
    try {
      await prisma.$executeRaw`
        INSERT INTO outbox (game_id, seq, entries) VALUES
          (${gameId}::uuid, 1, '[{"type": "dealFinished", "deal": 0}]'::jsonb),
          (${gameId}::uuid, 2, '[{"type": "dealFinished", "deal": 1}, {"type": "gameFinished", "totals": [], "places": [], "winners": [], "end": null}]'::jsonb)`;
      outbox.kick();
      await waitFor(async () => got.size === 3 && (await jobsFor(gameId)).length === 0, 'every consumer to have its entries', { timeout: 15_000 });
      const deals = [[{ seq: 1, type: 'dealFinished' }, { seq: 2, type: 'dealFinished' }]];
      expect(Object.fromEntries(got)).toEqual({ deals, deals2: deals, ends: [[{ seq: 2, type: 'gameFinished' }]] });
    } finally {
      await worker.close();
    }
  });

  it('splits a whole batch queued by an older server into one job per consumer', async () => {
    const worker = await startTestApp(FAST_WORKER, queuing.databaseUrl);
    const gameId = randomUUID();
    const seen: number[] = [];
    worker.app.get(Outbox).consume('dealFinished', 'count', async (items) => {
      for (const item of items) if (item.gameId === gameId) seen.push(item.seq);
    });
    try {
      const batch: OutboxJob[] = [3, 4].map((seq) => ({ gameId, seq, entries: [{ type: 'dealFinished', deal: 0 }] }));
      await prisma.$executeRaw`SELECT graphile_worker.add_job(${OUTBOX_TASK}, ${JSON.stringify(batch)}::json)`;
      await waitFor(async () => seen.length === 2 && (await jobsFor(gameId)).length === 0, 'the old batch to be worked', { timeout: 15_000 });
      expect(seen).toEqual([3, 4]);
    } finally {
      await worker.close();
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
      await insertRows(gameId, 1, 1);
      worker.app.get(Outbox).kick();
      await waitFor(async () => attempts >= 1, 'the first attempt', { timeout: 30_000 });
      const [failed] = await waitFor(async () => {
        const jobs = await jobsFor(gameId);
        // attempts counts from when the job is taken; last_error is written once it has failed
        return jobs.length === 1 && jobs[0].last_error !== null && jobs;
      }, 'the failure to be recorded', { timeout: 30_000 });
      expect(failed.attempts).toBe(1);
      expect(failed.last_error).toContain('the first delivery fails');
      // The queue backs off (exp(attempts) seconds); bring the retry forward instead of waiting.
      await prisma.$executeRaw`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE payload::text LIKE ${'%' + gameId + '%'}`;
      await waitFor(async () => (await jobsFor(gameId)).length === 0, 'the retry to complete', { timeout: 30_000 });
      expect(attempts).toBe(2);
    } finally {
      await worker.close();
    }
  }, 100_000);
});
