import { currentPlayer, placesOf, replay, timeOutMove, view, type GameRecord } from '@mizerka/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { GameLogBus, GameStore } from '../games/index.js';
import { Outbox } from '../outbox/outbox.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { GameCache } from './game-cache.js';
import type { SeatlessMove } from './move-input.js';
import { MAX_DECISIONS, MovesService } from './moves.service.js';

// Resigning and the system's moves go through the same move path as a person's move: one guarded
// write, an event-log entry that says who acted and why, and standings as docs/rules.md has them.
let t: TestApp;
let prisma: PrismaService;
beforeAll(async () => {
  t = await startTestApp({ jobs: { ...loadConfig({}).jobs, worker: false } });
  prisma = t.app.get(PrismaService);
});
afterAll(async () => {
  await t?.close();
});

const RESIGN = `mutation($input: ResignInput!) {
  resign(input: $input) { gameId version status events { seq type seat reason totals winners } game { phase toMove over end { seat reason } } }
}`;
const STANDINGS = `query($id: ID!) { game(id: $id) { status version winners players { seat total place } view { over end { seat reason } legalMoves { kind } } } }`;
const RECORD = `query($id: ID!) { gameRecord(gameId: $id) {
  format firstDealer players rules { preset options { mizerkaQuotas target doubleMisere } }
  deals { deck moves { seat contract exchange bid discard trump play } } end { seat reason } } }`;

function dropNulls<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_k, v) => (v === null ? undefined : v)));
}

/** Plays `count` random legal moves; returns the version reached. */
async function play(gameId: string, seated: TestPlayer[], count: number, seed: number): Promise<number> {
  const random = rng(seed);
  let version = 0;
  for (let i = 0; i < count; i++) {
    const seen = (await t.gql(TURN_QUERY, { id: gameId })).data!.game;
    if (seen.status !== 'active') break;
    const mover = seated[seen.view.toMove];
    const mine = (await t.gql(TURN_QUERY, { id: gameId }, mover.token)).data!.game;
    const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, random) } }, mover.token);
    expect(moved.errors).toBeUndefined();
    version = moved.data!.makeMove.version;
  }
  return version;
}

async function lastEntry(gameId: string) {
  return prisma.gameEvent.findFirstOrThrow({
    where: { gameId },
    orderBy: { seq: 'desc' },
    select: { seq: true, kind: true, seat: true, playerId: true, actor: true, cause: true, move: true },
  });
}

describe('resign', () => {
  it('ends the game at once, whoever is to move: the resigning seat last alone, the others by totals', async () => {
    const seated = await players(t, 3, 'rsg');
    const gameId = await startGame(t, seated, 'short');
    // Past the first deal, so that totals differ and the deal in progress is abandoned.
    const version = await play(gameId, seated, 45, 11);
    const before = (await t.gql(STANDINGS, { id: gameId })).data!.game;
    expect(before.status).toBe('active');
    const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    const resigning = (toMove + 1) % 3; // not the seat to move

    const answer = await t.gql(RESIGN, { input: { gameId, expectedVersion: version } }, seated[resigning].token);
    expect(answer.errors).toBeUndefined();
    const result = answer.data!.resign;
    expect(result).toMatchObject({ status: 'finished', version: version + 1, game: { phase: 'over', toMove: null, over: true } });
    expect(result.game.end).toEqual({ seat: resigning, reason: 'resigned' });
    expect(result.events.map((e: { type: string }) => e.type)).toEqual(['gameEnded', 'gameOver']);
    expect(result.events[0]).toMatchObject({ seat: resigning, reason: 'resigned' });

    const after = (await t.gql(STANDINGS, { id: gameId })).data!.game;
    const totals = after.players.map((p: { total: number }) => p.total);
    expect(totals).toEqual(before.players.map((p: { total: number }) => p.total)); // the abandoned deal adds nothing
    const places = after.players.map((p: { place: number }) => p.place);
    expect(places[resigning]).toBe(3);
    expect(places).toEqual(placesOf(totals, resigning));
    expect(after.winners).not.toContain(resigning);
    expect(after.view).toMatchObject({ over: true, end: { seat: resigning, reason: 'resigned' }, legalMoves: null });

    expect(await lastEntry(gameId)).toEqual({
      seq: version + 1,
      kind: 'end',
      seat: resigning,
      playerId: seated[resigning].id,
      actor: 'player',
      cause: 'resigned',
      move: null,
    });

    // The record carries the ending, and replaying it gives the same standings.
    const record = dropNulls((await t.gql(RECORD, { id: gameId })).data!.gameRecord) as GameRecord;
    expect(record.end).toEqual({ seat: resigning, reason: 'resigned' });
    const rest = await t.rest('GET', `/api/v1/games/${gameId}/record`);
    expect(rest.body).toEqual(record);
    const replayed = replay(record);
    if (!replayed.ok) throw new Error(JSON.stringify(replayed.error));
    expect(replayed.value.outcome).toMatchObject({ finished: true, totals, winners: after.winners, end: { seat: resigning, reason: 'resigned' } });

    // Nobody moves again, and nobody resigns twice.
    const mover = seated[toMove];
    const mine = (await t.gql(TURN_QUERY, { id: gameId }, mover.token)).data!.game;
    expect(mine.view.legalMoves).toBeNull();
    const late = await t.gql(MAKE_MOVE, { input: { gameId, kind: 'play', card: 'AS' } }, mover.token);
    expect(late.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'game-over' });
    const again = await t.gql(RESIGN, { input: { gameId } }, seated[toMove].token);
    expect(again.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'game-over' });
  }, 30_000);

  it('over REST: only a seated player, a stale expectedVersion is a CONFLICT, a retried key answers the same', async () => {
    const seated = await players(t, 3, 'rsr');
    const [outsider] = await players(t, 1, 'rso');
    const gameId = await startGame(t, seated, 'bidding');
    const version = await play(gameId, seated, 2, 5);

    const stranger = await t.rest('POST', `/api/v1/games/${gameId}/resign`, {}, outsider.token);
    expect(stranger.status).toBe(403);
    expect(stranger.body.code).toBe('FORBIDDEN');
    const anonymous = await t.rest('POST', `/api/v1/games/${gameId}/resign`, {});
    expect(anonymous.status).toBe(401);
    const stale = await t.rest('POST', `/api/v1/games/${gameId}/resign`, { expectedVersion: version - 1 }, seated[0].token);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'CONFLICT', version });
    const bad = await t.rest('POST', `/api/v1/games/${gameId}/resign`, { expectedVersion: 'soon' }, seated[0].token);
    expect(bad.status).toBe(400);
    expect((await t.gql(TURN_QUERY, { id: gameId })).data!.game.status).toBe('active');

    const headers = { 'Idempotency-Key': 'give-up-1' };
    const first = await fetch(`${t.baseUrl}/api/v1/games/${gameId}/resign`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${seated[2].token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { version: number };
    expect(firstBody).toMatchObject({ status: 'finished', version: version + 1 });
    const retry = await t.rest('POST', `/api/v1/games/${gameId}/resign`, { idempotencyKey: 'give-up-1' }, seated[2].token);
    expect(retry.status).toBe(200);
    expect(retry.body.version).toBe(firstBody.version);
    expect(await prisma.gameEvent.count({ where: { gameId, kind: 'end' } })).toBe(1);
    expect(await prisma.gameSeat.findMany({ where: { gameId }, orderBy: { seat: 'asc' }, select: { place: true } })).toContainEqual({ place: 3 });
  });
});

describe('moves by the system', () => {
  it('a time-out move is an ordinary move in the log, marked as the system acting for the seat', async () => {
    const seated = await players(t, 3, 'sys');
    const gameId = await startGame(t, seated, 'classic');
    const seen = (await t.gql(TURN_QUERY, { id: gameId }, seated[0].token)).data!.game;
    const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    const chooser = (await t.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
    const contract = chooser.view.legalMoves.contracts[0];

    const moves = t.app.get(MovesService);
    const result = await moves.moveFor(gameId, toMove, { kind: 'contract', contract }, seen.version);
    expect(result.version).toBe(seen.version + 1);
    // The system is not the seat's player: its answer is the spectator's view.
    expect(result.game.hand).toBeNull();
    expect(await lastEntry(gameId)).toEqual({
      seq: seen.version + 1,
      kind: 'contract',
      seat: toMove,
      playerId: seated[toMove].id,
      actor: 'system',
      cause: 'timeout',
      move: { seat: toMove, contract },
    });

    // The turn it timed out on is gone: a late time-out for the same version writes nothing.
    await expect(moves.moveFor(gameId, toMove, { kind: 'contract', contract }, seen.version)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('a forfeit ends the game with the seat last, and the record says forfeit', async () => {
    const seated = await players(t, 4, 'frf');
    const gameId = await startGame(t, seated, 'bidding-4');
    const version = await play(gameId, seated, 3, 9);
    const result = await t.app.get(MovesService).forfeit(gameId, 1, version);
    expect(result.status).toBe('finished');
    expect(await lastEntry(gameId)).toMatchObject({ kind: 'end', seat: 1, playerId: seated[1].id, actor: 'system', cause: 'forfeit' });
    const game = (await t.gql(STANDINGS, { id: gameId })).data!.game;
    expect(game.players[1].place).toBe(4);
    expect(game.view.end).toEqual({ seat: 1, reason: 'forfeit' });
    const record = (await t.gql(RECORD, { id: gameId })).data!.gameRecord;
    expect(record.end).toEqual({ seat: 1, reason: 'forfeit' });
  });
});

describe('a resignation without expectedVersion that loses the race', () => {
  /**
   * A move service whose first `losses` reads are each followed by another seat's move (the
   * clock's, through the app's own service) before the resignation writes: it loses that many
   * races in a row. No cache, so that every try reads.
   */
  function losingRaces(losses: number): MovesService {
    const app = t.app;
    const real = app.get(GameStore);
    const racing = Object.create(real) as GameStore;
    racing.read = async (...args) => {
      const read = await real.read(...args);
      if (read && read.status === 'active' && losses-- > 0) {
        const seat = currentPlayer(read.state)!;
        const { seat: _seat, ...move } = timeOutMove(view(read.state, seat))!;
        await app.get(MovesService).moveFor(args[0], seat, move as SeatlessMove, read.version);
      }
      return read;
    };
    const noCache = new GameCache({ get: () => false } as never, app.get(GameLogBus));
    return new MovesService(racing, noCache, app.get(GameLogBus), app.get(Outbox), app.get(PlayerEventsService));
  }

  it('is decided again until it is written, once', async () => {
    const seated = await players(t, 3, 'rsl');
    const gameId = await startGame(t, seated, 'bidding', { target: 1000 });
    const result = await losingRaces(10).resign({ id: seated[1].id } as never, gameId, {});
    expect(result).toMatchObject({ status: 'finished', version: 12 });
    expect(await lastEntry(gameId)).toMatchObject({ seq: 12, kind: 'end', seat: 1, actor: 'player', cause: 'resigned' });
    expect(await prisma.gameEvent.count({ where: { gameId, cause: 'timeout' } })).toBe(10);
  });

  it('is answered CONFLICT past the bound of MAX_DECISIONS tries, having written nothing', async () => {
    expect(MAX_DECISIONS).toBe(32);
    const seated = await players(t, 3, 'rsb');
    const gameId = await startGame(t, seated, 'bidding', { target: 1000 });
    await expect(losingRaces(MAX_DECISIONS).resign({ id: seated[1].id } as never, gameId, {})).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { version: 1 + MAX_DECISIONS },
    });
    expect(await prisma.gameEvent.count({ where: { gameId, kind: 'end' } })).toBe(0);
    // One race fewer, and it is written.
    const again = await players(t, 3, 'rsc');
    const other = await startGame(t, again, 'bidding', { target: 1000 });
    expect((await losingRaces(MAX_DECISIONS - 1).resign({ id: again[1].id } as never, other, {})).status).toBe('finished');
  });
});
