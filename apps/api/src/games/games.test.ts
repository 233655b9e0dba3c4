import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { GamesService } from './games.service.js';
import { bytesHex } from './dealing.js';
import { cardNamesIn, GAME_QUERY, MAKE_MOVE, players, startGame, TURN_QUERY, type TestPlayer } from './games.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('startGame', () => {
  it('creates the game, its seats, the first deal (hashed seed) and the first event', async () => {
    const seated = await players(t, 3, 'n');
    const id = await startGame(t, seated, 'short', { mizerkaQuotas: 'same' });
    const prisma = t.app.get(PrismaService);
    const game = await prisma.game.findUniqueOrThrow({ where: { id }, include: { seats: true, deals: true, events: true } });
    expect(game).toMatchObject({ status: 'active', version: 1, phase: 'contract', dealIndex: 0, preset: 'short', players: 3 });
    expect(game.options).toEqual({ mizerkaQuotas: 'same' });
    expect(game.totals).toEqual([0, 0, 0]);
    expect(game.seats.map((s) => s.playerId).sort()).toEqual(seated.map((p) => p.id).sort());
    // Each seat carries its game's created_at, exactly: a player's history is read in that order from their seats.
    expect(game.seats.map((s) => s.createdAt.getTime())).toEqual([0, 1, 2].map(() => game.createdAt.getTime()));
    expect(game.toMove).toBe((game.firstDealer + 1) % 3); // the chooser, left of the dealer
    expect(game.deals).toHaveLength(1);
    const [deal] = game.deals;
    expect(deal.dealer).toBe(game.firstDealer);
    // Stored as bytes (16 and 32); the hex of the seed is what is hashed and shown.
    expect(deal.seed).toHaveLength(16);
    expect(bytesHex(deal.seedHash!)).toBe(createHash('sha256').update(bytesHex(deal.seed!)).digest('hex'));
    expect(game.events).toMatchObject([{ seq: 1, kind: 'deal', dealIndex: 0, seat: null, playerId: null }]);
  });

  it('refuses bad rules and bad seats with BAD_INPUT, inside the caller’s transaction', async () => {
    const seated = await players(t, 3, 'r');
    const games = t.app.get(GamesService);
    const prisma = t.app.get(PrismaService);
    const attempt = (preset: string, options: Record<string, unknown>, seats: { seat: number; playerId: string }[]) =>
      prisma.$transaction((tx) => games.startGame(tx, { lobbyId: null, preset, options, seats }));
    const seats = seated.map((p, seat) => ({ seat, playerId: p.id }));
    await expect(attempt('chess', {}, seats)).rejects.toMatchObject({ code: 'BAD_INPUT', details: { rule: 'bad-rules' } });
    await expect(attempt('short', { target: 5 }, seats)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(attempt('short-4', {}, seats)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(attempt('short', {}, [seats[0], seats[1], { seat: 2, playerId: seated[0].id }])).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
  });
});

describe('the game view', () => {
  let seated: TestPlayer[];
  let id: string;
  beforeAll(async () => {
    seated = await players(t, 3, 'q');
    id = await startGame(t, seated, 'short');
  });

  it('shows a seated player their own first six cards and, to the chooser, the legal contracts', async () => {
    const spectator = (await t.gql(GAME_QUERY, { id })).data!.game;
    const chooser = spectator.view.toMove as number;
    for (const [seat, p] of seated.entries()) {
      const answer = await t.gql(GAME_QUERY, { id }, p.token);
      expect(answer.errors).toBeUndefined();
      const game = answer.data!.game;
      expect(game.mySeat).toBe(seat);
      expect(game.view.viewer).toBe(seat);
      expect(game.view.hand).toHaveLength(6);
      expect(game.view.handSizes).toEqual([6, 6, 6]);
      expect(game.players.map((x: { name: string }) => x.name)).toEqual(seated.map((x) => x.name));
      expect(game.players.every((x: { total: number; place: number }) => x.total === 0 && x.place === 1)).toBe(true);
      expect(game.deals).toMatchObject([{ index: 0, seed: null, contract: null, scores: null, finished: false }]);
      expect(game.deals[0].seedHash).toMatch(/^[0-9a-f]{64}$/);
      if (seat === chooser) {
        expect(game.view.legalMoves).toMatchObject({ kind: 'contract', seat, contracts: ['hearts', 'notrumps', 'mizerka'] });
      } else {
        expect(game.view.legalMoves).toBeNull();
      }
      // Only the seat's own cards appear in its view.
      expect([...cardNamesIn(game)].sort()).toEqual([...game.view.hand].sort());
    }
  });

  it('is the same over REST, and the unknown or malformed id is NOT_FOUND or BAD_INPUT', async () => {
    const gql = (await t.gql(GAME_QUERY, { id }, seated[1].token)).data!.game;
    const rest = await t.rest('GET', `/api/v1/games/${id}`, undefined, seated[1].token);
    expect(rest.status).toBe(200);
    expect(rest.body.view.hand).toEqual(gql.view.hand);
    expect(rest.body.version).toBe(gql.version);
    expect((await t.rest('GET', `/api/v1/games/${MISSING}`)).body.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', '/api/v1/games/nope')).status).toBe(400);
    expect((await t.gql(GAME_QUERY, { id: MISSING })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('keeps the record secret while the game is played: FORBIDDEN', async () => {
    const answer = await t.gql('query($id: ID!) { gameRecord(gameId: $id) { format } }', { id });
    expect(answer.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const rest = await t.rest('GET', `/api/v1/games/${id}/record`);
    expect(rest.status).toBe(403);
    expect(rest.body.detail).toMatch(/over/);
  });
});

describe('the event log', () => {
  it('returns the entries after a seq, each through eventView for the caller', async () => {
    const seated = await players(t, 3, 'l');
    const id = await startGame(t, seated, 'short');
    const chooser = (await t.gql(TURN_QUERY, { id })).data!.game.view.toMove as number;
    const moved = await t.gql(MAKE_MOVE, { input: { gameId: id, kind: 'contract', contract: 'mizerka' } }, seated[chooser].token);
    expect(moved.errors).toBeUndefined();

    const query = `query($id: ID!, $after: Int, $first: Int) { gameEvents(gameId: $id, after: $after, first: $first) {
      gameId version hasMore entries { seq kind dealIndex seat createdAt events { seq type deal dealer hand handSizes talonSize seat contract } } } }`;
    const mine = (await t.gql(query, { id, after: 0 }, seated[chooser].token)).data!.gameEvents;
    expect(mine.version).toBe(2);
    expect(mine.hasMore).toBe(false);
    expect(mine.entries.map((e: { seq: number; kind: string }) => [e.seq, e.kind])).toEqual([
      [1, 'deal'],
      [2, 'contract'],
    ]);
    expect(mine.entries[0].events[0]).toMatchObject({ seq: 1, type: 'dealt', deal: 0, handSizes: [6, 6, 6] });
    expect(mine.entries[0].events[0].hand).toHaveLength(6);
    expect(mine.entries[1]).toMatchObject({ seat: chooser, dealIndex: 0 });
    expect(mine.entries[1].events.map((e: { type: string }) => e.type)).toEqual(['contractChosen', 'handCompleted']);
    expect(mine.entries[1].events[1].hand).toHaveLength(13);

    const after1 = (await t.gql(query, { id, after: 1 }, seated[chooser].token)).data!.gameEvents;
    expect(after1.entries.map((e: { seq: number }) => e.seq)).toEqual([2]);
    const page = (await t.gql(query, { id, after: 0, first: 1 })).data!.gameEvents;
    expect(page).toMatchObject({ hasMore: true, entries: [{ seq: 1 }] });

    const spectator = (await t.gql(query, { id, after: 0 })).data!.gameEvents;
    expect(spectator.entries[0].events[0].hand).toBeNull();
    expect([...cardNamesIn(spectator)]).toEqual([]);

    const other = seated[(chooser + 1) % 3];
    const theirs = await t.rest('GET', `/api/v1/games/${id}/events?after=0`, undefined, other.token);
    expect(theirs.status).toBe(200);
    const theirHand = theirs.body.entries[1].events[1].hand as string[];
    expect(theirHand).toHaveLength(13);
    expect(theirHand.filter((c) => mine.entries[1].events[1].hand.includes(c))).toEqual([]);
    expect((await t.rest('GET', `/api/v1/games/${id}/events?after=-1`)).status).toBe(400);
  });
});

describe('my games', () => {
  it('lists the caller’s active games, newest first, with whose turn it is, in pages', async () => {
    const seated = await players(t, 3, 'm');
    const first = await startGame(t, seated, 'short');
    const second = await startGame(t, seated, 'bidding');
    const query = `query($status: GameStatus, $first: Int, $after: String) { myGames(status: $status, first: $first, after: $after) {
      nextCursor hasMore items { id preset status version toMove mySeat myTurn updatedAt players { seat name total place } } } }`;
    const list = (await t.gql(query, { status: 'active' }, seated[0].token)).data!.myGames;
    expect(list.items.map((g: { id: string }) => g.id)).toEqual([second, first]);
    expect(list).toMatchObject({ nextCursor: null, hasMore: false });
    for (const g of list.items) {
      expect(g.mySeat).toBe(0);
      expect(g.myTurn).toBe(g.toMove === 0);
      expect(g.players).toHaveLength(3);
    }
    const page = (await t.gql(query, { status: 'active', first: 1 }, seated[0].token)).data!.myGames;
    expect(page).toMatchObject({ hasMore: true, items: [{ id: second }] });
    const next = (await t.gql(query, { status: 'active', first: 1, after: page.nextCursor }, seated[0].token)).data!.myGames;
    expect(next).toMatchObject({ nextCursor: null, hasMore: false, items: [{ id: first }] });
    expect((await t.gql(query, { status: 'finished' }, seated[0].token)).data!.myGames.items).toEqual([]);

    const rest = await t.rest('GET', '/api/v1/games?status=active&first=5', undefined, seated[1].token);
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((g: { id: string }) => g.id)).toEqual([second, first]);
    expect((await t.rest('GET', '/api/v1/games?status=paused', undefined, seated[1].token)).status).toBe(400);
    expect((await t.rest('GET', '/api/v1/games')).status).toBe(401);
    expect((await t.gql(query, {})).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('the OpenAPI document', () => {
  it('lists the game routes', async () => {
    const doc = await t.rest('GET', '/api/docs/json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/games',
        '/api/v1/games/{id}',
        '/api/v1/games/{id}/events',
        '/api/v1/games/{id}/record',
        '/api/v1/games/{id}/moves',
        '/api/v1/games/{id}/deals',
      ]),
    );
    expect(doc.body.components.schemas.MoveBody.required).toEqual(['kind']);
    expect(doc.body.components.schemas.MoveKind.enum).toEqual(['contract', 'exchange', 'bid', 'discard', 'trump', 'play']);
  });
});
