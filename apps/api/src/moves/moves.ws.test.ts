import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type GraphQLResult, type TestApp } from '../../../../test/app.js';
import { closeWsClients, operation as overSocket, wsClient } from '../../../../test/graphql-ws.js';
import { cardNamesIn, MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';

vi.setConfig({ testTimeout: 30_000 });

// A client that holds a socket for its subscriptions moves over it too (no HTTP request): the same
// move path, so the same answers, races, idempotency, redaction and limits as over HTTP.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await closeWsClients();
  await t?.close();
});

function socket(app: TestApp, token: string) {
  return wsClient(app.baseUrl, token);
}

async function moverTurn(app: TestApp, seated: TestPlayer[], gameId: string) {
  const turn = await app.gql(TURN_QUERY, { id: gameId });
  const mover = seated[turn.data!.game.view.toMove];
  const mine = await app.gql(TURN_QUERY, { id: gameId }, mover.token);
  return { mover, version: mine.data!.game.version as number, legal: mine.data!.game.view.legalMoves };
}

describe('makeMove over the graphql-ws socket', () => {
  let seated: TestPlayer[];
  let gameId: string;
  beforeAll(async () => {
    seated = await players(t, 3, 'wsm');
    gameId = await startGame(t, seated, 'short');
  });

  it('moves as over HTTP: the same answer shape, the mover’s own view, one log entry', async () => {
    const { mover, version, legal } = await moverTurn(t, seated, gameId);
    const answer = await overSocket(socket(t, mover.token), MAKE_MOVE, { input: { gameId, ...pickMove(legal, rng(3)), expectedVersion: version } });
    expect(answer.errors).toBeUndefined();
    const made = answer.data!.makeMove;
    expect(made.version).toBe(version + 1);
    expect(made.game.viewer).toBe(seated.indexOf(mover));
    // The mover sees its own hand and no other seat's: every card named is its own or on the table.
    const own = new Set(made.game.hand as string[]);
    const others = await Promise.all(
      seated.filter((p) => p !== mover).map(async (p) => (await t.gql('query($id: ID!) { game(id: $id) { view { hand } } }', { id: gameId }, p.token)).data!.game.view.hand as string[]),
    );
    expect(others.flat().filter((card) => own.has(card))).toEqual([]);
    expect([...cardNamesIn([JSON.stringify(made)])].filter((card) => others.flat().includes(card))).toEqual([]);
    expect(await t.app.get(PrismaService).gameEvent.count({ where: { gameId } })).toBe(version + 1);
  });

  it('refuses what HTTP refuses, with the same codes: not your turn, a stale version, no seat', async () => {
    const { mover, version, legal } = await moverTurn(t, seated, gameId);
    const other = seated.find((p) => p !== mover)!;
    const notYours = await overSocket(socket(t, other.token), MAKE_MOVE, { input: { gameId, ...pickMove(legal, rng(4)) } });
    expect(notYours.errors?.[0].extensions).toMatchObject({ code: 'NOT_YOUR_TURN' });
    const stale = await overSocket(socket(t, mover.token), MAKE_MOVE, { input: { gameId, ...pickMove(legal, rng(4)), expectedVersion: version - 1 } });
    expect(stale.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', version });
    const [stranger] = await players(t, 1, 'wsx');
    const unseated = await overSocket(socket(t, stranger.token), MAKE_MOVE, { input: { gameId, ...pickMove(legal, rng(4)) } });
    expect(unseated.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('applies exactly one of two concurrent moves on two sockets; the other gets CONFLICT', async () => {
    const { mover, version, legal } = await moverTurn(t, seated, gameId);
    const input = { gameId, ...pickMove(legal, rng(5)), expectedVersion: version };
    const answers = await Promise.all([overSocket(socket(t, mover.token), MAKE_MOVE, { input }), overSocket(socket(t, mover.token), MAKE_MOVE, { input })]);
    expect(answers.filter((a) => !a.errors)).toHaveLength(1);
    expect(answers.find((a) => a.errors)!.errors![0].extensions).toMatchObject({ code: 'CONFLICT', version: version + 1 });
    expect(await t.app.get(PrismaService).gameEvent.count({ where: { gameId } })).toBe(version + 1);
  });

  it('answers a retried idempotency key as the first time, across the socket and HTTP, moving once', async () => {
    const { mover, version, legal } = await moverTurn(t, seated, gameId);
    const input = { gameId, ...pickMove(legal, rng(6)), expectedVersion: version, idempotencyKey: 'ws-retry-1' };
    const first = await overSocket(socket(t, mover.token), MAKE_MOVE, { input });
    expect(first.errors).toBeUndefined();
    expect((await overSocket(socket(t, mover.token), MAKE_MOVE, { input })).data).toEqual(first.data);
    expect((await t.gql(MAKE_MOVE, { input }, mover.token)).data).toEqual(first.data);
    expect(await t.app.get(PrismaService).gameEvent.count({ where: { gameId, idempotencyKey: 'ws-retry-1' } })).toBe(1);
  });
});

describe('operations on a socket', () => {
  it('pay into the player’s rate limit like HTTP requests: past it, RATE_LIMITED, and nothing moves', async () => {
    const limited = await startTestApp({ rateLimitPerMinute: 6 });
    try {
      const seated = await players(limited, 3, 'wsr'); // registering counts by address, not by player
      const gameId = await startGame(limited, seated, 'short');
      const { mover, legal } = await moverTurn(limited, seated, gameId); // two requests of the mover
      const client = socket(limited, mover.token);
      const answers: GraphQLResult[] = [];
      for (let i = 0; i < 5; i++) answers.push(await overSocket(client, 'query { me { id } }', {}));
      expect(answers.every((a) => a.data?.me.id === mover.id)).toBe(true); // 2 + 4 = 6: the budget is spent after the 4th
      const move = await overSocket(client, MAKE_MOVE, { input: { gameId, ...pickMove(legal, rng(7)) } });
      expect(move.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(await limited.app.get(PrismaService).gameEvent.count({ where: { gameId } })).toBe(1);
      // The same budget over HTTP.
      expect((await limited.gql('query { me { id } }', {}, mover.token)).errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
