import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';

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
    step = await nextMove(b, seated, gameId, random);
    const third = await a.gql(MAKE_MOVE, { input: { gameId, ...step.input } }, step.mover.token);
    expect(third.errors).toBeUndefined();
    expect(third.data!.makeMove.version).toBeGreaterThan(current);

    // B's entry is stale now too; a move there whose turn B's cache agrees with loses at the
    // write (version condition) and is refused as CONFLICT, writing nothing.
    const behind = third.data!.makeMove.version as number;
    step = await nextMove(a, seated, gameId, random);
    const viaB = await b.gql(MAKE_MOVE, { input: { gameId, ...step.input } }, step.mover.token);
    if (viaB.errors) {
      expect(viaB.errors[0].extensions).toMatchObject({ code: 'CONFLICT', version: behind });
      expect((await a.gql(TURN_QUERY, { id: gameId })).data!.game.version).toBe(behind);
      const again = await b.gql(MAKE_MOVE, { input: { gameId, ...step.input } }, step.mover.token);
      expect(again.errors).toBeUndefined();
    }

    const log = await b.gql('query($id: ID!) { gameEvents(gameId: $id) { entries { seq } } }', { id: gameId });
    const seqs = log.data!.gameEvents.entries.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => i + 1));
  });
});
