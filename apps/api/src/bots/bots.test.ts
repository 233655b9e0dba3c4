import { currentPlayer, dealIndex, moveToJson, replay, type GameRecord } from '@mizerka/rules';
import { BOTS, botMove, type Bot, type BotLevel } from '@mizerka/bots';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { GameStore } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { LobbiesService } from '../lobbies/lobbies.service.js';
import { movesTotal } from '../metrics/metrics.js';
import { botInputOf, botSeed } from '../moves/bot-move.js';
import { MovesService } from '../moves/moves.service.js';
import { JobQueue } from '../outbox/job-queue.js';
import { Outbox } from '../outbox/outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { BOT_THINKER, type BotThinker } from './bot-thinkers.js';
import { BOT_TASK, BotsService } from './bots.service.js';
import { addBot, FAST, inProcessThinker, LOBBY_SEATS, NO_JOBS, openLobby, waitFor } from './bots.test-kit.js';

function log(prisma: PrismaService, gameId: string) {
  return prisma.gameEvent.findMany({
    where: { gameId },
    orderBy: { seq: 'asc' },
    select: { seq: true, kind: true, seat: true, playerId: true, actor: true, cause: true, move: true },
  });
}

/** Plays the person's turns with a seeded random player until the game is over; answers how many moves they made. */
async function playAsPerson(t: TestApp, person: TestPlayer, gameId: string, seed: number): Promise<number> {
  const random = rng(seed);
  let moves = 0;
  for (;;) {
    const game = await waitFor(async () => {
      const g = (await t.gql(TURN_QUERY, { id: gameId }, person.token)).data!.game;
      return (g.status === 'finished' || g.view.legalMoves !== null) && g;
    }, 'the person’s turn or the end');
    if (game.status === 'finished') return moves;
    const moved = await t.gql(MAKE_MOVE, { input: { gameId, expectedVersion: game.version, ...pickMove(game.view.legalMoves, random) } }, person.token);
    expect(moved.errors).toBeUndefined();
    moves++;
  }
}

describe('server bots in a running server', () => {
  let t: TestApp;
  let prisma: PrismaService;
  beforeAll(async () => {
    t = await startTestApp(FAST);
    prisma = t.app.get(PrismaService);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('play a whole game with one person through the API, the game starting as the last bot sits down', async () => {
    const [person] = await players(t, 1, 'bth');
    const lobbyId = await openLobby(t, person.token);
    const first = await addBot(t, person.token, lobbyId, 'strong');
    expect(first.errors).toBeUndefined();
    expect(first.data!.addBot).toMatchObject({ status: 'open', seats: [{ seat: 0 }, { seat: 1, player: { kind: 'bot', botLevel: 'strong' } }, { seat: 2, player: null }] });
    const second = await t.rest('POST', `/api/v1/lobbies/${lobbyId}/bots`, { level: 'basic' }, person.token);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'started', seats: [{ player: { kind: 'human', botLevel: null } }, {}, { seat: 2, player: { kind: 'bot', botLevel: 'basic' } }] });
    expect(second.body.seats[1].player.name).toMatch(/^bot-strong(-\d+)?$/);
    const gameId = second.body.gameId as string;

    const personMoves = await playAsPerson(t, person, gameId, 7);
    const entries = await log(prisma, gameId);
    const moves = entries.filter((e) => e.kind !== 'deal');
    expect(personMoves).toBeGreaterThan(0);
    expect(moves.filter((e) => e.seat === 0).every((e) => e.actor === 'player')).toBe(true);
    const botMoves = moves.filter((e) => e.seat !== 0);
    expect(botMoves.length).toBeGreaterThan(0);
    expect(botMoves.every((e) => e.actor === 'bot' && e.cause === null)).toBe(true);
    expect(moves.length).toBe(personMoves + botMoves.length);

    // Bots are marked in the game's views and in its record (its optional `bots`).
    const view = await t.rest('GET', `/api/v1/games/${gameId}`, undefined, person.token);
    expect(view.body.status).toBe('finished');
    expect(view.body.players.map((p: { kind: string; botLevel: string | null }) => [p.kind, p.botLevel])).toEqual([
      ['human', null],
      ['bot', 'strong'],
      ['bot', 'basic'],
    ]);
    const sheet = await t.gql(`query($id: ID!) { scoreSheet(gameId: $id) { standings { seat kind botLevel } } }`, { id: gameId });
    expect(sheet.data!.scoreSheet.standings.map((s: { kind: string }) => s.kind)).toEqual(['human', 'bot', 'bot']);
    const record = await t.rest('GET', `/api/v1/games/${gameId}/record`);
    expect((record.body as GameRecord & { players: string[] }).players.slice(1)).toEqual(view.body.players.slice(1).map((p: { name: string }) => p.name));
    expect((record.body as GameRecord).bots).toEqual([null, 'strong', 'basic']);
    expect(replay(record.body as GameRecord).ok).toBe(true);
    const overGraphql = await t.gql(`query($id: ID!) { gameRecord(gameId: $id) { bots } }`, { id: gameId });
    expect(overGraphql.data!.gameRecord.bots).toEqual([null, 'strong', 'basic']);
  }, 120_000);

  it('refuse addBot as it refuses a join, naming what is wrong; a bot leaves by the host removing it', async () => {
    const [host, guest] = await players(t, 2, 'bte');
    const lobbyId = await openLobby(t, host.token, 'bidding');
    const code = (r: { errors?: { extensions?: Record<string, unknown> }[] }) => r.errors?.[0]?.extensions?.code;

    expect(code(await addBot(t, guest.token, lobbyId, 'basic'))).toBe('FORBIDDEN');
    const outOfRange = await addBot(t, host.token, lobbyId, 'basic', 5);
    expect(code(outOfRange)).toBe('BAD_INPUT');
    expect(outOfRange.errors![0].extensions).toMatchObject({ seat: 5 });
    const taken = await addBot(t, host.token, lobbyId, 'basic', 0);
    expect(code(taken)).toBe('CONFLICT');
    expect(taken.errors![0].extensions).toMatchObject({ seat: 0 });
    expect((await addBot(t, host.token, lobbyId, 'cunning')).errors).toBeDefined(); // not a BotLevel

    const badLevel = await t.rest('POST', `/api/v1/lobbies/${lobbyId}/bots`, { level: 'cunning' }, host.token);
    expect(badLevel.status).toBe(400);
    expect(JSON.stringify(badLevel.body)).toContain('level');
    const unknown = await t.rest('POST', `/api/v1/lobbies/00000000-0000-4000-8000-000000000000/bots`, { level: 'basic' }, host.token);
    expect(unknown.status).toBe(404);

    // Two bots of one level at one table are two players; removing one frees its seat.
    const one = await addBot(t, host.token, lobbyId, 'random', 2);
    const botId = one.data!.addBot.seats[2].player.id as string;
    const removed = await t.gql(
      `mutation($l: ID!, $p: ID!) { removeFromLobby(lobbyId: $l, playerId: $p) { ${LOBBY_SEATS} } }`,
      { l: lobbyId, p: botId },
      host.token,
    );
    expect(removed.data!.removeFromLobby.seats[2].player).toBeNull();
    await addBot(t, host.token, lobbyId, 'random', 1);
    const full = await addBot(t, host.token, lobbyId, 'random', 2);
    const seats = full.data!.addBot.seats as { player: { id: string; name: string } }[];
    expect(full.data!.addBot.status).toBe('started');
    expect(seats[1].player.id).not.toBe(seats[2].player.id);
    expect(code(await addBot(t, host.token, lobbyId, 'random'))).toBe('CONFLICT'); // started: no seat left

    // Nobody can take a server bot's name, or log in as one: it has no token.
    const reserved = await t.gql(`mutation { register(input: { name: "bot-strong" }) { token } }`);
    expect(reserved.errors![0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'name' });
    expect(await prisma.apiToken.count({ where: { player: { botLevel: { not: null } } } })).toBe(0);
  }, 60_000);

  it('hand a timed-out seat’s move to the basic bot, marked as a time-out move', async () => {
    const seated = await players(t, 3, 'btt');
    const gameId = await startGame(t, seated, 'bidding', {}, { moveSeconds: 1, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 });
    const store = t.app.get(GameStore);
    const game = (await store.read(gameId, null, null))!;
    expect(game.version).toBe(1); // the deadline is a second away
    const seat = currentPlayer(game.state)!;
    const input = botInputOf(game.state, seat, await store.dealEvents(gameId, dealIndex(game.state), 1));
    expect(input.dealEvents[0]?.type).toBe('dealt');
    const expected = botMove('basic', input, { seed: botSeed(gameId, 1) }).move;
    const timedOut = await waitFor(async () => (await log(prisma, gameId)).find((e) => e.seq === 2), 'the time-out move');
    expect(timedOut).toMatchObject({ actor: 'system', cause: 'timeout', seat, playerId: seated[seat].id });
    expect(timedOut.move).toEqual(moveToJson(expected));
    const feed = await prisma.playerEvent.findFirst({ where: { gameId, type: 'timedOut' } });
    expect(feed?.payload).toMatchObject({ seat, action: 'autoMove' });
  });

  it('register a bot account that plays with its own token, shown as a bot without a level', async () => {
    const made = await t.rest('POST', '/api/v1/players', { name: `acct${process.pid % 10_000}b`, bot: true });
    expect(made.status).toBe(201);
    expect(made.body.player).toMatchObject({ kind: 'bot', botLevel: null });
    const me = await t.gql(`{ me { kind botLevel } }`, {}, made.body.token);
    expect(me.data!.me).toEqual({ kind: 'bot', botLevel: null });
    const person = await t.gql(`mutation { register(input: { name: "person${process.pid % 10_000}b" }) { player { kind botLevel } } }`);
    expect(person.data!.register.player).toEqual({ kind: 'human', botLevel: null });
  });
});

describe('bot move jobs, driven by hand', () => {
  let t: TestApp;
  let prisma: PrismaService;
  beforeAll(async () => {
    t = await startTestApp(NO_JOBS);
    prisma = t.app.get(PrismaService);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A started game of `person` and two bots of `level`, played by the person until a bot is to move. */
  async function atBotsTurn(level: BotLevel, label: string) {
    const [person] = await players(t, 1, label);
    const lobbyId = await openLobby(t, person.token);
    await addBot(t, person.token, lobbyId, level);
    const gameId = (await addBot(t, person.token, lobbyId, level)).data!.addBot.gameId as string;
    const random = rng(11);
    for (;;) {
      const game = (await t.gql(TURN_QUERY, { id: gameId }, person.token)).data!.game;
      if (game.view.legalMoves === null) return { gameId, version: game.version as number, toMove: game.view.toMove as number };
      await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(game.view.legalMoves, random) } }, person.token);
    }
  }

  function service(thinker: BotThinker = t.app.get(BOT_THINKER), store: GameStore = t.app.get(GameStore)): BotsService {
    const a = t.app;
    return new BotsService(a.get(PrismaService), a.get(Outbox), a.get(JobQueue), store, a.get(MovesService), a.get(LobbiesService), a.get(ConfigService), thinker);
  }

  async function botMoves(outcome: string): Promise<number> {
    return (await movesTotal.get()).values.find((v) => v.labels.actor === 'bot' && v.labels.outcome === outcome)?.value ?? 0;
  }

  it('lose the race to a resignation made while the bot thinks: CONFLICT, no error logged, no illegal move counted', async () => {
    const { gameId, version } = await atBotsTurn('basic', 'btr');
    const person = (await prisma.gameSeat.findFirstOrThrow({ where: { gameId, seat: 0 } })).playerId;
    const moves = t.app.get(MovesService);
    // The person resigns after the bot read its turn and before it moves: here, while it reads the deal's events.
    const real = t.app.get(GameStore);
    const racing = Object.create(real) as GameStore;
    racing.dealEvents = async (...args) => {
      await moves.resign({ id: person } as never, gameId, {});
      return real.dealEvents(...args);
    };
    const errors = vi.spyOn(Logger.prototype, 'error');
    const illegalBefore = await botMoves('ILLEGAL_MOVE');
    const conflictsBefore = await botMoves('CONFLICT');
    try {
      await service(undefined, racing).play({ gameId, version });
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
    expect(await botMoves('ILLEGAL_MOVE')).toBe(illegalBefore);
    expect(await botMoves('CONFLICT')).toBe(conflictsBefore + 1);
    const entries = (await log(prisma, gameId)).filter((e) => e.seq > version);
    expect(entries).toMatchObject([{ seq: version + 1, kind: 'end', actor: 'player' }]);

    // A stale expected version is CONFLICT whatever else changed, the game's end included.
    const botId = (await prisma.gameSeat.findFirstOrThrow({ where: { gameId, seat: 1 } })).playerId;
    await expect(
      moves.submit(gameId, { kind: 'bot', playerId: botId }, { type: 'move', move: { kind: 'play', card: 'AS' } as never }, { expectedVersion: version }),
    ).rejects.toMatchObject({ code: 'CONFLICT', details: { version: version + 1 } });
  });

  it('move once for a job run twice, and not at all for a turn that is over', async () => {
    const { gameId, version, toMove } = await atBotsTurn('basic', 'btj');
    const bots = service();
    await Promise.all([bots.play({ gameId, version }), bots.play({ gameId, version })]);
    await bots.play({ gameId, version });
    const entries = await log(prisma, gameId);
    const after = entries.filter((e) => e.seq > version);
    expect(after[0]).toMatchObject({ seq: version + 1, seat: toMove, actor: 'bot' });
    expect(after.filter((e) => e.kind !== 'deal')).toHaveLength(1);
  });

  it('queue one job per game, keyed by the game, for the turn as it is now', async () => {
    const { gameId, version, toMove } = await atBotsTurn('random', 'btq');
    const seats = await prisma.gameSeat.findMany({ where: { gameId }, orderBy: { seat: 'asc' } });
    const bots = service();
    // A late batch naming an older turn still sets the job to the current one.
    await bots.schedule([{ gameId, playerId: seats[toMove].playerId }, { gameId, playerId: seats[toMove].playerId }]);
    const jobs = () =>
      prisma.$queryRawUnsafe<{ task: string; payload: { gameId: string; version: number } }[]>(
        `SELECT t.identifier AS task, j.payload FROM ${JOB_QUEUE_SCHEMA}._private_jobs j
           JOIN ${JOB_QUEUE_SCHEMA}._private_tasks t ON t.id = j.task_id WHERE j.key = $1`,
        `bot:${gameId}`,
      );
    expect(await jobs()).toEqual([{ task: BOT_TASK, payload: { gameId, version } }]);
    // The bot moves; a late batch for its turn now queues the game's job for the turn that is on, not the old one.
    await bots.play({ gameId, version });
    await prisma.$executeRawUnsafe(`SELECT ${JOB_QUEUE_SCHEMA}.remove_job($1)`, `bot:${gameId}`);
    await bots.schedule([{ gameId, playerId: seats[toMove].playerId }]);
    const now = await prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
    const botsTurn = now.toMove !== null && now.seats[now.toMove].playerId !== seats[0].playerId;
    expect(await jobs()).toEqual(botsTurn ? [{ task: BOT_TASK, payload: { gameId, version: now.version } }] : []);
  });

  it('fall back when a level throws, and the game goes on', async () => {
    const { gameId, version, toMove } = await atBotsTurn('strong', 'btf');
    const broken: Record<BotLevel, Bot> = {
      ...BOTS,
      strong: () => {
        throw new Error('a strong bot that breaks');
      },
    };
    // The basic level moves instead: its choice for the same input and seed.
    const store = t.app.get(GameStore);
    const before = (await store.read(gameId, null, null))!;
    const input = botInputOf(before.state, toMove, await store.dealEvents(gameId, dealIndex(before.state), version));
    const expected = botMove('basic', input, { seed: botSeed(gameId, version) }).move;
    await service(inProcessThinker(broken)).play({ gameId, version });
    const [moved] = (await log(prisma, gameId)).filter((e) => e.seq === version + 1);
    expect(moved).toMatchObject({ seat: toMove, actor: 'bot' });
    expect(moved.move).toEqual(moveToJson(expected));
    const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    expect(game.version).toBeGreaterThan(version);
  });
});

describe('a bot’s turn committed where no head start runs', () => {
  let writer: TestApp;
  let worker: TestApp;
  const GRACE_MS = 300;
  beforeAll(async () => {
    // The writer works no jobs, so nothing plays a bot's turn in its process; the worker's job
    // does, once the grace is over (the job that carries a turn across a crash of its instance).
    writer = await startTestApp(NO_JOBS);
    worker = await startTestApp({ ...FAST, jobs: { ...FAST.jobs!, botGraceMs: GRACE_MS } }, writer.databaseUrl);
  });
  afterAll(async () => {
    await Promise.all([writer?.close(), worker?.close()]);
  });

  it('is played by the durable job after the grace', async () => {
    const [person] = await players(writer, 1, 'btg');
    const lobbyId = await openLobby(writer, person.token);
    await addBot(writer, person.token, lobbyId, 'random');
    const gameId = (await addBot(writer, person.token, lobbyId, 'random')).data!.addBot.gameId as string;
    const prisma = writer.app.get(PrismaService);
    const random = rng(5);
    const entries = () =>
      prisma.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' }, select: { seq: true, actor: true, kind: true, createdAt: true } });
    while ((await entries()).filter((e) => e.actor === 'bot').length < 3) {
      const game = await waitFor(async () => {
        const g = (await writer.gql(TURN_QUERY, { id: gameId }, person.token)).data!.game;
        return (g.status === 'finished' || g.view.legalMoves !== null) && g;
      }, 'the person’s turn');
      if (game.status === 'finished') break;
      await writer.gql(MAKE_MOVE, { input: { gameId, expectedVersion: game.version, ...pickMove(game.view.legalMoves, random) } }, person.token);
    }
    const log = await entries();
    // A bot's turn begun by the writer (the person's move, or the game's first deal) waited out the
    // grace; one begun by the other bot's move was committed by the worker, which plays it at once.
    const waits = log.flatMap((e, i) =>
      e.actor === 'bot' && (log[i - 1].actor === 'player' || log[i - 1].seq === 1) ? [e.createdAt.getTime() - log[i - 1].createdAt.getTime()] : [],
    );
    expect(waits.length).toBeGreaterThanOrEqual(1);
    for (const waited of waits) expect(waited).toBeGreaterThanOrEqual(GRACE_MS - 5);
  }, 60_000);
});
