import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { redisAvailable, TEST_REDIS_URL } from '../../../../test/redis.js';
import { GameCache } from './game-cache.js';

const redisUp = await redisAvailable(TEST_REDIS_URL, 'the cache invalidation test');

// Two instances with the in-memory game cache on, sharing one database: the worst case for the
// cache. A stale entry may cost a CONFLICT, never a wrong refusal, a lost, doubled or misplaced move.
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp({ gameCache: true });
  b = await startTestApp({ gameCache: true }, a.databaseUrl);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

async function nextMove(t: TestApp, seated: TestPlayer[], gameId: string, random: (n: number) => number) {
  const turn = await t.gql(TURN_QUERY, { id: gameId });
  const mover = seated[turn.data!.game.view.toMove];
  const mine = await t.gql(TURN_QUERY, { id: gameId }, mover.token);
  return { mover, version: mine.data!.game.version as number, input: pickMove(mine.data!.game.view.legalMoves, random) };
}

describe('the game cache', () => {
  it.skipIf(!redisUp)('drops an entry another instance made stale, told over Redis', async () => {
    const redisPrefix = `mizerka-test-${randomUUID()}:`;
    const one = await startTestApp({ gameCache: true, redisUrl: TEST_REDIS_URL, redisPrefix });
    const two = await startTestApp({ gameCache: true, redisUrl: TEST_REDIS_URL, redisPrefix }, one.databaseUrl);
    try {
      const seated = await players(one, 3, 'inval');
      const gameId = await startGame(one, seated, 'bidding');
      const random = rng(11);
      const first = await nextMove(one, seated, gameId, random);
      expect((await one.gql(MAKE_MOVE, { input: { gameId, ...first.input } }, first.mover.token)).errors).toBeUndefined();
      expect(one.app.get(GameCache).get(gameId)).toBeDefined();
      const second = await nextMove(two, seated, gameId, random);
      expect((await two.gql(MAKE_MOVE, { input: { gameId, ...second.input } }, second.mover.token)).errors).toBeUndefined();
      const until = Date.now() + 2000;
      while (one.app.get(GameCache).get(gameId) !== undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      expect(one.app.get(GameCache).get(gameId)).toBeUndefined();
    } finally {
      await two.close();
      await one.close();
    }
  });

  it('never decides a move on a stale entry: a refusal is checked on a fresh read, a write on the version', async () => {
    const seated = await players(a, 3, 'cache');
    const gameId = await startGame(a, seated, 'short');
    const random = rng(7);

    // Instance A caches the game by making a move.
    let step = await nextMove(a, seated, gameId, random);
    const first = await a.gql(MAKE_MOVE, { input: { gameId, ...step.input } }, step.mover.token);
    expect(first.errors).toBeUndefined();
    const cachedVersion = first.data!.makeMove.version as number;

    // Instance B moves the game on; A's entry is now stale.
    step = await nextMove(b, seated, gameId, random);
    const second = await b.gql(MAKE_MOVE, { input: { gameId, ...step.input } }, step.mover.token);
    expect(second.errors).toBeUndefined();
    const current = second.data!.makeMove.version as number;
    expect(current).toBeGreaterThan(cachedVersion);

    // The next move through A meets its stale entry, on which it is not even this seat's turn:
    // A must not answer NOT_YOUR_TURN from its cache, but read again and make the move.
    const third = await nextMove(b, seated, gameId, random);
    const viaA = await a.gql(MAKE_MOVE, { input: { gameId, ...third.input } }, third.mover.token);
    expect(viaA.errors).toBeUndefined();
    const behind = viaA.data!.makeMove.version as number;
    expect(behind).toBeGreaterThan(current);

    // B's entry is stale now too, still at `current`, where the third move is this seat's turn
    // and legal: sent again through B, it is decided on B's cache and loses at the write (version
    // condition), writing nothing. The client named no version, so B decides again on a fresh
    // read, where that move was already made: the rules refuse it, not a CONFLICT of the cache's making.
    const viaB = await b.gql(MAKE_MOVE, { input: { gameId, ...third.input } }, third.mover.token);
    expect(viaB.errors?.map((e) => e.extensions?.code)).toEqual([expect.stringMatching(/^(NOT_YOUR_TURN|ILLEGAL_MOVE)$/)]);
    expect((await a.gql(TURN_QUERY, { id: gameId })).data!.game.version).toBe(behind);
    // With the version it decided on, a client is told of the race instead.
    const named = await b.gql(MAKE_MOVE, { input: { gameId, expectedVersion: current, ...third.input } }, third.mover.token);
    expect(named.errors?.map((e) => e.extensions)).toEqual([expect.objectContaining({ code: 'CONFLICT', version: behind })]);

    // B's entry was dropped: the next move through B is decided on a fresh read.
    const fourth = await nextMove(a, seated, gameId, random);
    const again = await b.gql(MAKE_MOVE, { input: { gameId, ...fourth.input } }, fourth.mover.token);
    expect(again.errors).toBeUndefined();
    expect(again.data!.makeMove.version).toBeGreaterThan(behind);

    const log = await b.gql('query($id: ID!) { gameEvents(gameId: $id) { entries { seq } } }', { id: gameId });
    const seqs = log.data!.gameEvents.entries.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => i + 1));
  });
});
