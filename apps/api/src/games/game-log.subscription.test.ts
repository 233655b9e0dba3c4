import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { wsClient } from '../../../../test/graphql-ws.js';
import { MAKE_MOVE, pickMove, players, playThrough, rng, startGame, TURN_QUERY, type TestPlayer } from './games.test-kit.js';

let t: TestApp;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

const GAME_LOG = `subscription($gameId: ID!, $after: Int) {
  gameLog(gameId: $gameId, after: $after) { seq kind events { type seat card count hand } }
}`;

function connect(token?: string): Client {
  const client = wsClient(t.baseUrl, token);
  clients.push(client);
  return client;
}

/** Collects entries until `count` arrived, or the stream ends or fails. */
function follow(client: Client, gameId: string, after: number, count: number) {
  const entries: { seq: number; kind: string; events: Record<string, unknown>[] }[] = [];
  const done = new Promise<typeof entries>((resolve, reject) => {
    const stop = client.subscribe<{ gameLog: (typeof entries)[number] }>(
      { query: GAME_LOG, variables: { gameId, after } },
      {
        next: (message) => {
          if (message.errors) return reject(new Error(JSON.stringify(message.errors)));
          entries.push(message.data!.gameLog);
          if (entries.length >= count) {
            stop();
            resolve(entries);
          }
        },
        error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
        complete: () => resolve(entries),
      },
    );
  });
  return done;
}

async function move(seated: TestPlayer[], gameId: string, random: (n: number) => number) {
  const turn = await t.gql(TURN_QUERY, { id: gameId });
  const mover = seated[turn.data!.game.view.toMove];
  const mine = await t.gql(TURN_QUERY, { id: gameId }, mover.token);
  const answer = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.data!.game.view.legalMoves, random) } }, mover.token);
  expect(answer.errors).toBeUndefined();
  return answer.data!.makeMove.version as number;
}

describe('the gameLog subscription', () => {
  it('catches up from a seq, then streams each committed entry, redacted for the subscriber', async () => {
    const seated = await players(t, 3, 'sub');
    const gameId = await startGame(t, seated, 'short');
    const random = rng(3);
    await move(seated, gameId, random); // seq 2: the contract

    const watcher = (await players(t, 1, 'subw'))[0];
    const asSeat0 = follow(connect(seated[0].token), gameId, 0, 5);
    const asSpectator = follow(connect(watcher.token), gameId, 1, 4);
    // Both subscribed and caught up (seat 0 has seqs 1 and 2, the spectator seq 2) before the next
    // moves, which they must then get as they are committed. Nothing has arrived yet: no I/O ran
    // since they subscribed, so counting their clients' messages from here misses none.
    const caughtUp = ([[clients.at(-2)!, 2], [clients.at(-1)!, 1]] as const).map(
      ([client, count]) =>
        new Promise<void>((resolve) => {
          let seen = 0;
          client.on('message', (message) => {
            if (message.type === 'next' && ++seen === count) resolve();
          });
        }),
    );
    await Promise.race([Promise.all(caughtUp), Promise.all([asSeat0, asSpectator])]);
    for (let i = 0; i < 3; i++) await move(seated, gameId, random);

    const seat0 = await asSeat0;
    expect(seat0.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(seat0[0].kind).toBe('deal');
    expect(seat0[0].events[0].hand).toHaveLength(6); // its own first six cards, at the pause
    const spectator = await asSpectator;
    expect(spectator.map((e) => e.seq)).toEqual([2, 3, 4, 5]);
    // Exchanges show the spectator a count, never cards.
    for (const entry of spectator) {
      for (const event of entry.events) expect(event.hand ?? null).toBeNull();
    }
    expect(JSON.stringify(spectator)).not.toMatch(/"[2-9TJQKA][CDHS]"/);
  });

  it('ends after the last entry of a finished game', async () => {
    const seated = await players(t, 3, 'subend');
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });
    const played = await playThrough(t, seated, gameId, 11);
    const version = played.at(-1)!.result.version as number;
    const entries = await follow(connect(seated[1].token), gameId, 0, Number.MAX_SAFE_INTEGER);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    expect(entries.at(-1)!.events.some((e) => e.type === 'gameOver')).toBe(true);
  });

  it('refuses a connection without a valid token', async () => {
    await expect(follow(connect('mzk_nope'), '00000000-0000-0000-0000-000000000000', 0, 1)).rejects.toBeTruthy();
  });

  it('answers NOT_FOUND for an unknown game', async () => {
    const [p] = await players(t, 1, 'subn');
    await expect(follow(connect(p.token), '00000000-0000-0000-0000-000000000000', 0, 1)).rejects.toThrow(/NOT_FOUND/);
  });
});
