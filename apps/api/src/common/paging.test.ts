import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';

// Every list pages by cursor: at most 100 a page, and a page's cursor holds however many items
// are added (or moved) while a client pages through.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Page = { nextCursor: string | null; hasMore: boolean } & Record<string, unknown>;

/** Reads a list page by page, calling `between` after each page; returns the ids in order. */
async function readAll(read: (after: string | null) => Promise<Page>, list: string, between: () => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const page = await read(after);
    ids.push(...(page[list] as { id: string }[]).map((item) => item.id));
    expect(page.hasMore).toBe(page.nextCursor !== null);
    if (!page.hasMore) return ids;
    after = page.nextCursor;
    await between();
  }
  throw new Error('the pages never ended');
}

function ok<T = Page>(result: { data?: Record<string, unknown> | null; errors?: unknown }, field: string): T {
  if (result.errors) throw new Error(`${field}: ${JSON.stringify(result.errors)}`);
  return result.data![field] as T;
}

const LOBBIES = `query($after: String) { lobbies(preset: "short", first: 4, after: $after) { nextCursor hasMore lobbies { id } } }`;
const CREATE = `mutation { createLobby(input: { preset: "short" }) { id } }`;

describe('cursors page without gap or duplicate while items are added', () => {
  it('lobbies, newest first, while new lobbies open', async () => {
    const hosts = await players(t, 14, 'pl');
    const opened: string[] = [];
    for (const host of hosts.slice(0, 10)) opened.push(ok<{ id: string }>(await t.gql(CREATE, {}, host.token), 'createLobby').id);
    const late = hosts.slice(10);
    const seen = await readAll(
      async (after) => ok(await t.gql(LOBBIES, { after }), 'lobbies'),
      'lobbies',
      async () => {
        const host = late.shift();
        if (host) ok(await t.gql(CREATE, {}, host.token), 'createLobby');
      },
    );
    expect(seen).toEqual([...opened].reverse());
  });

  it('my games, newest first, while new games start and old ones move on', async () => {
    const seated = await players(t, 3, 'pg');
    const started: string[] = [];
    for (let i = 0; i < 7; i++) started.push(await startGame(t, seated, 'short'));
    const random = rng(7);
    const query = `query($after: String) { myGames(first: 2, after: $after) { nextCursor hasMore items { id } } }`;
    const seen = await readAll(
      async (after) => ok(await t.gql(query, { after }, seated[0].token), 'myGames'),
      'items',
      async () => {
        await startGame(t, seated, 'short');
        await moveIn(started[0], seated, random); // the oldest game gets the latest move
      },
    );
    expect(seen).toEqual([...started].reverse());
  });

  it('API tokens, oldest first, while new tokens are made', async () => {
    const [p] = await players(t, 1, 'pt');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await t.rest('POST', '/api/v1/me/tokens', { name: `t${i}` }, p.token));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    let extra = 0;
    const seen = await readAll(
      async (after) => {
        const page = await t.rest('GET', `/api/v1/me/tokens?first=2${after ? `&after=${after}` : ''}`, undefined, p.token);
        expect(page.status).toBe(200);
        return page.body as Page;
      },
      'tokens',
      async () => {
        if (extra++ < 2) expect((await t.rest('POST', '/api/v1/me/tokens', { name: `late${extra}` }, p.token)).status).toBe(201);
      },
    );
    const ids = made.map((r) => r.body.apiToken.id as string);
    // The first page starts with the player's first token; the ones made while paging come last.
    expect(seen.slice(1, 6)).toEqual(ids);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
  });
});

async function moveIn(gameId: string, seated: TestPlayer[], random: (n: number) => number) {
  const turn = await t.gql(TURN_QUERY, { id: gameId });
  const mover = seated[turn.data!.game.view.toMove];
  const view = await t.gql(TURN_QUERY, { id: gameId }, mover.token);
  const moved = await t.gql(MAKE_MOVE, { input: { gameId, ...pickMove(view.data!.game.view.legalMoves, random) } }, mover.token);
  expect(moved.errors).toBeUndefined();
}

describe('every list refuses a page over 100 and a cursor it did not make, on both surfaces', () => {
  let p: TestPlayer;
  let gameId: string;
  beforeAll(async () => {
    const seated = await players(t, 3, 'pb');
    p = seated[0];
    gameId = await startGame(t, seated, 'short');
  });

  const forged = Buffer.from('2020-01-01T00:00:00.000Z|not-an-id').toString('base64url');

  it('over GraphQL: BAD_INPUT naming the argument', async () => {
    const lists = [
      `query($first: Int, $after: String) { lobbies(first: $first, after: $after) { hasMore } }`,
      `query($first: Int, $after: String) { myGames(first: $first, after: $after) { hasMore } }`,
      `query($first: Int, $after: String) { myApiTokens(first: $first, after: $after) { hasMore } }`,
    ];
    for (const query of lists) {
      expect(ok(await t.gql(query, { first: 100 }, p.token), query.includes('lobbies') ? 'lobbies' : query.includes('myGames') ? 'myGames' : 'myApiTokens')).toMatchObject({ hasMore: false });
      const big = await t.gql(query, { first: 101 }, p.token);
      expect(big.errors?.[0].extensions?.code, query).toBe('BAD_INPUT');
      expect(big.errors?.[0].message).toMatch(/first must be 1 to 100/);
      for (const after of [forged, 'nonsense', '']) {
        const bad = await t.gql(query, { after }, p.token);
        expect(bad.errors?.[0].extensions?.code, `${query} after=${after}`).toBe('BAD_INPUT');
        expect(bad.errors?.[0].message).toMatch(/^after /);
      }
    }
    const events = `query($id: ID!, $first: Int) { gameEvents(gameId: $id, first: $first) { hasMore } }`;
    expect(ok(await t.gql(events, { id: gameId, first: 100 }), 'gameEvents')).toMatchObject({ hasMore: false });
    expect((await t.gql(events, { id: gameId, first: 101 })).errors?.[0].extensions?.code).toBe('BAD_INPUT');
    expect((await t.gql(events, { id: gameId, first: 1000 })).errors?.[0].extensions?.code).toBe('BAD_INPUT');
  });

  it('over REST: 400 BAD_INPUT problems naming the parameter; offsets are gone', async () => {
    for (const path of ['/api/v1/lobbies', '/api/v1/games', '/api/v1/me/tokens']) {
      expect((await t.rest('GET', `${path}?first=100`, undefined, p.token)).status).toBe(200);
      const big = await t.rest('GET', `${path}?first=101`, undefined, p.token);
      expect(big, path).toMatchObject({ status: 400, body: { code: 'BAD_INPUT', detail: expect.stringMatching(/first must be 1 to 100/) } });
      const bad = await t.rest('GET', `${path}?after=${forged}`, undefined, p.token);
      expect(bad, path).toMatchObject({ status: 400, body: { code: 'BAD_INPUT', field: 'after' } });
      expect((await t.rest('GET', `${path}?offset=20`, undefined, p.token)).status, path).toBe(400);
    }
    expect((await t.rest('GET', `/api/v1/games/${gameId}/events?first=100`)).status).toBe(200);
    expect(await t.rest('GET', `/api/v1/games/${gameId}/events?first=1000`)).toMatchObject({ status: 400, body: { code: 'BAD_INPUT' } });
    expect((await t.rest('GET', `/api/v1/games/${gameId}/events?limit=1000`)).status).toBe(400);
  });
});
