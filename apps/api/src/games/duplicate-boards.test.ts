// Duplicate boards (issue 28): games started on one board hold the same cards at every table, deal
// by deal; and a board's finished games keep their seeds, decks and records from everyone, their own
// players included, until the board is released. Every read surface of a finished game is asked
// before and after the release.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { Outbox } from '../outbox/outbox.js';
import { StoredRecords } from '../history/stored-records.js';
import { makeRules, newGame } from '@mizerka/rules';
import { boardDealSeed, boardFirstDealer, bytesHex, dealNext, newBoard } from './dealing.js';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { GamesService } from './games.service.js';
import { cardNamesIn, EVENT_FIELDS, GAME_QUERY, knowledge, leaked, MAKE_MOVE, pickMove, players, rng, type TestPlayer } from './games.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('board seeds (pure)', () => {
  it('derive each deal seed from the board seed and the deal index: fixed, distinct, 32 hex digits', () => {
    const board = newBoard();
    expect(board.seed).toMatch(/^[0-9a-f]{32}$/);
    expect(board.seedHash).toBe(createHash('sha256').update(board.seed).digest('hex'));
    const seeds = Array.from({ length: 12 }, (_, i) => boardDealSeed(board.seed, i));
    expect(seeds.every((s) => /^[0-9a-f]{32}$/.test(s))).toBe(true);
    expect(new Set(seeds).size).toBe(12);
    expect(Array.from({ length: 12 }, (_, i) => boardDealSeed(board.seed, i))).toEqual(seeds);
    expect(seeds).not.toContain(board.seed);
    // The documented derivation, written out independently.
    expect(seeds[3]).toBe(createHmac('sha256', board.seed).update('deal:3').digest('hex').slice(0, 32));
    expect(boardDealSeed(newBoard().seed, 0)).not.toBe(seeds[0]);
    // docs/rules.md's test vector.
    const vector = '0123456789abcdef0123456789abcdef';
    expect([boardDealSeed(vector, 0), boardDealSeed(vector, 1)]).toEqual(['8029f82bdd9715cfbb1d65e1e1e926ce', '86ad6f0eee1208a46137735403e16b4b']);
    expect([boardFirstDealer(vector, 3), boardFirstDealer(vector, 4)]).toEqual([2, 3]);
  });

  it('fix the first dealer by the board, within the seats', () => {
    const dealers = new Set<number>();
    for (let i = 0; i < 64; i++) {
      const seed = newBoard().seed;
      const d = boardFirstDealer(seed, 4);
      expect(d).toBe(boardFirstDealer(seed, 4));
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(4);
      dealers.add(d);
    }
    expect(dealers.size).toBe(4); // 64 boards all missing a seat: (3/4)^64
  });

  it('refuse what is not a board seed', () => {
    expect(() => boardDealSeed('ABC', 0)).toThrow(RangeError);
    expect(() => boardDealSeed('0'.repeat(32), -1)).toThrow(RangeError);
    expect(() => boardFirstDealer('0'.repeat(31), 3)).toThrow(RangeError);
  });

  it('deal an ordinary game from fresh seeds, a board game from the board', () => {
    const rules = makeRules('short', {});
    if (!rules.ok) throw new Error('rules');
    const seed = newBoard().seed;
    const a = dealNext(newGame(rules.value, 0), seed);
    const b = dealNext(newGame(rules.value, 0), seed);
    expect(a.seed).toBe(boardDealSeed(seed, 0));
    expect(b.events).toEqual(a.events);
    expect(dealNext(newGame(rules.value, 0), null).seed).not.toBe(dealNext(newGame(rules.value, 0), null).seed);
  });
});

const RESIGN = `mutation($input: ResignInput!) { resign(input: $input) { version status } }`;
const DEAL_INDEX = `query($id: ID!) { game(id: $id) { version status view { deal toMove legalMoves { kind seat contracts cards maxDiscards count bids suits } } } }`;
const EVENTS = `query($id: ID!, $after: Int!) { gameEvents(gameId: $id, after: $after) { version hasMore entries { seq kind dealIndex seat events { ${EVENT_FIELDS} } } } }`;
const SCORE_SHEET = `query($id: ID!) { scoreSheet(gameId: $id) { gameId status deals { index dealer seedHash contract finished scores tricks { index leader cards winner } } } }`;
const RECORD = `query($id: ID!) { gameRecord(gameId: $id) { format firstDealer deals { deck } } }`;

async function startOnBoard(seated: TestPlayer[], board: { id: string; seed: string } | null): Promise<string> {
  const games = t.app.get(GamesService);
  const { gameId, feed } = await t.app
    .get(PrismaService)
    .$transaction((tx) => games.startGame(tx, { lobbyId: null, preset: 'short', options: {}, seats: seated.map((p, seat) => ({ seat, playerId: p.id })), board }));
  t.app.get(PlayerEventsService).published(feed);
  t.app.get(Outbox).kick();
  return gameId;
}

/** Plays random legal moves until deal `deals` is dealt, then seat 0 resigns: a finished game of `deals + 1` deals. */
async function playDealsThenResign(seated: TestPlayer[], gameId: string, deals: number, seed: number): Promise<void> {
  const random = rng(seed);
  let at = (await t.gql(DEAL_INDEX, { id: gameId }, seated[0].token)).data!.game.view as { deal: number; toMove: number };
  for (let moves = 0; at.deal < deals && moves < 1000; moves++) {
    const mover = seated[at.toMove];
    const turn = (await t.gql(DEAL_INDEX, { id: gameId }, mover.token)).data!.game;
    const answer = await t.gql(MAKE_MOVE, { input: { gameId, expectedVersion: turn.version, ...pickMove(turn.view.legalMoves, random) } }, mover.token);
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    at = answer.data!.makeMove.game;
  }
  const resigned = await t.gql(RESIGN, { input: { gameId } }, seated[0].token);
  expect(resigned.errors).toBeUndefined();
  expect(resigned.data!.resign.status).toBe('finished');
}

/** Every read surface of a finished game, as `viewer` (null: no token) sees it. */
async function surfaces(gameId: string, viewer: TestPlayer | null) {
  const token = viewer?.token;
  const events: unknown[] = [];
  let eventsError: string | undefined;
  for (let after = 0; ; ) {
    const answer = await t.gql(EVENTS, { id: gameId, after }, token);
    eventsError = answer.errors?.[0]?.extensions?.code;
    if (eventsError) break;
    const page = answer.data!.gameEvents;
    events.push(...page.entries);
    if (!page.hasMore) break;
    after = page.entries[page.entries.length - 1].seq;
  }
  const restEvents: unknown[] = [];
  let restEventsStatus: number;
  for (let after = 0; ; ) {
    const page = await t.rest('GET', `/api/v1/games/${gameId}/events?after=${after}`, undefined, token);
    restEventsStatus = page.status;
    if (page.status !== 200) break;
    restEvents.push(...page.body.entries);
    if (!page.body.hasMore) break;
    after = page.body.entries[page.body.entries.length - 1].seq;
  }
  return {
    gqlGame: await t.gql(GAME_QUERY, { id: gameId }, token),
    restGame: await t.rest('GET', `/api/v1/games/${gameId}`, undefined, token),
    gqlRecord: await t.gql(RECORD, { id: gameId }, token),
    restRecord: await t.rest('GET', `/api/v1/games/${gameId}/record`, undefined, token),
    scoreSheet: await t.gql(SCORE_SHEET, { id: gameId }, token),
    restDeals: await t.rest('GET', `/api/v1/games/${gameId}/deals`, undefined, token),
    stream: token ? (await fetch(`${t.baseUrl}/api/v1/games/${gameId}/events/stream`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, text: await r.text() }))) : null,
    events,
    eventsError,
    restEvents,
    restEventsStatus,
  };
}

async function exportOf(name: string): Promise<{ gameId: string; seeds: { seed: string | null }[]; record: { deals: { deck: string[] }[]; firstDealer: number } }[]> {
  const res = await fetch(`${t.baseUrl}/api/v1/players/${name}/games/export?seeds=true`);
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

describe('games on a duplicate board', () => {
  const board = { id: randomUUID(), ...newBoard() };
  let east: TestPlayer[];
  let west: TestPlayer[];
  let other: TestPlayer[];
  let a: string;
  let b: string;
  let c: string;
  const seedsOf = async (gameId: string) =>
    (await t.app.get(PrismaService).deal.findMany({ where: { gameId }, orderBy: { index: 'asc' }, select: { seed: true } })).map((d) => bytesHex(d.seed!));

  beforeAll(async () => {
    [east, west, other] = [await players(t, 3, 'de'), await players(t, 3, 'dw'), await players(t, 3, 'dn')];
    a = await startOnBoard(east, board);
    b = await startOnBoard(west, board);
    c = await startOnBoard(other, null);
    // Different moves at each table: the decks must not depend on them.
    await playDealsThenResign(east, a, 1, 1);
    await playDealsThenResign(west, b, 1, 2);
    await playDealsThenResign(other, c, 0, 3);
    // The records consumer stores each record at its end (a game of the board's too: storing reveals nothing).
    await t.app.get(StoredRecords).store([a, b, c]);
  }, 300_000);

  it('deals every deal from the board seed, with the board’s first dealer', async () => {
    const prisma = t.app.get(PrismaService);
    for (const id of [a, b]) {
      const game = await prisma.game.findUniqueOrThrow({ where: { id }, select: { firstDealer: true, boardId: true, revealHeld: true, status: true } });
      expect(game).toEqual({ firstDealer: boardFirstDealer(board.seed, 3), boardId: board.id, revealHeld: true, status: 'finished' });
      const seeds = await seedsOf(id);
      expect(seeds.length).toBe(2);
      expect(seeds).toEqual(seeds.map((_, i) => boardDealSeed(board.seed, i)));
    }
    const normal = await prisma.game.findUniqueOrThrow({ where: { id: c }, select: { boardId: true, boardSeed: true, revealHeld: true } });
    expect(normal).toEqual({ boardId: null, boardSeed: null, revealHeld: false });
    expect((await seedsOf(c)).some((s) => s === boardDealSeed(board.seed, 0))).toBe(false);
  });

  it('shows nothing of the board before its release: no seed nor record to its players, nothing of its play to anyone else', async () => {
    const hidden = [...(await seedsOf(a)), board.seed];
    for (const viewer of [east[0], east[1], west[2], null]) {
      const s = await surfaces(a, viewer);
      // The seeds: in no answer at all.
      const text = JSON.stringify(s);
      for (const seed of hidden) expect(text).not.toContain(seed);
      // The record (every deck): refused to everyone.
      expect(s.gqlRecord.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(s.restRecord.status).toBe(403);
      if (viewer && east.includes(viewer)) {
        expect(s.gqlGame.errors).toBeUndefined();
        expect(s.gqlGame.data!.game.deals.map((d: { seed: string | null }) => d.seed)).toEqual([null, null]);
        expect(s.restGame.status).toBe(200);
        expect(s.restGame.body.deals.map((d: { seed: string | null }) => d.seed)).toEqual([null, null]);
        expect(s.scoreSheet.errors).toBeUndefined();
        expect(s.restDeals.status).toBe(200);
        expect([s.eventsError, s.restEventsStatus, s.stream?.status]).toEqual([undefined, 200, 200]);
        expect(s.events.length).toBeGreaterThan(10);
      } else {
        // Not seated (a player of the other table, a spectator): the play itself is that table's cards to come.
        expect(s.gqlGame.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
        expect(s.restGame.status).toBe(403);
        expect(s.scoreSheet.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
        expect(s.restDeals.status).toBe(403);
        expect([s.eventsError, s.restEventsStatus]).toEqual(['FORBIDDEN', 403]);
        if (s.stream) expect(s.stream.status).toBe(403);
        expect(cardNamesIn(s).size).toBe(0);
      }
    }
    // The gameLog subscription's reader: refused to the other table's player too.
    const follow = t.app.get(GamesService).follow(a, { id: west[2].id } as AuthenticatedPlayer, 0);
    await expect(follow.next()).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'board-held' } });
    // The export leaves the board's games out, the ordinary one in (with its seeds).
    expect((await exportOf(east[0].name)).map((l) => l.gameId)).toEqual([]);
    expect((await exportOf(west[1].name)).map((l) => l.gameId)).toEqual([]);
    const ordinary = await exportOf(other[0].name);
    expect(ordinary.map((l) => l.gameId)).toEqual([c]);
    expect(ordinary[0].seeds.map((x) => x.seed)).toEqual(await seedsOf(c));
    // The history lists name the game, and say nothing of its cards.
    for (const name of [east[0].name, west[0].name]) {
      const list = await t.rest('GET', `/api/v1/players/${name}/games`);
      expect(list.status).toBe(200);
      const listed = JSON.stringify(list.body);
      for (const seed of hidden) expect(listed).not.toContain(seed);
      expect(cardNamesIn(list.body).size).toBe(0);
    }
    // The feed (what myEvents and the webhooks carry) and the outbox: no seed, no card.
    const prisma = t.app.get(PrismaService);
    const feed = await prisma.$queryRaw<{ payload: unknown }[]>`SELECT payload FROM player_events WHERE game_id = ${a}::uuid`;
    const outbox = await prisma.$queryRaw<{ entries: unknown }[]>`SELECT entries FROM outbox WHERE game_id = ${a}::uuid`;
    expect(feed.length).toBeGreaterThan(0);
    for (const seed of hidden) expect(JSON.stringify([feed, outbox])).not.toContain(seed);
    expect(cardNamesIn([feed, outbox]).size).toBe(0);
  });

  it('tells each seat no card it did not see, before the release and after', async () => {
    const before = await Promise.all([...east].map((p) => surfaces(a, p)));
    await t.app.get(GamesService).releaseBoard(board.id);
    const record = (await t.rest('GET', `/api/v1/games/${a}/record`)).body;
    const known = knowledge(record);
    const after = await Promise.all([...east, null].map((p) => surfaces(a, p)));
    // The resignation (the last entry) shows nothing new: what was known before it.
    const last = (await t.gql(GAME_QUERY, { id: a })).data!.game.version - 1;
    for (const [i, s] of [...before.entries(), ...after.entries()]) {
      const seat = i < 3 ? i : null;
      expect(s.events.length).toBeGreaterThan(10);
      // The event logs and the seat views as of the end: only what the seat knew, and the cards played.
      for (const entry of [...s.events, ...s.restEvents] as { seq: number; dealIndex: number }[]) {
        expect(leaked(entry, known(Math.min(entry.seq, last), seat), playedIn(record, entry.dealIndex))).toEqual([]);
      }
      expect(leaked(s.gqlGame.data!.game.view, known(last, seat), allPlayed(record))).toEqual([]);
      expect(leaked(s.restGame.body.view, known(last, seat), allPlayed(record))).toEqual([]);
      expect(leaked(s.scoreSheet.data, allPlayed(record))).toEqual([]);
    }
    // Released: the board is over, for the other table too, whose release this was as well.
    await t.app.get(GamesService).releaseBoard(board.id); // a second release: nothing more to do
  });

  it('shows everything once the board is released, and the same decks at both tables', async () => {
    for (const viewer of [east[0], west[1], null]) {
      for (const [id, players] of [[a, east], [b, west]] as const) {
        const s = await surfaces(id, viewer);
        const seeds = await seedsOf(id);
        expect(s.gqlGame.data!.game.deals.map((d: { seed: string }) => d.seed)).toEqual(seeds);
        expect(s.restGame.body.deals.map((d: { seed: string }) => d.seed)).toEqual(seeds);
        expect(s.gqlRecord.errors).toBeUndefined();
        expect(s.restRecord.status).toBe(200);
        expect(s.gqlRecord.data!.gameRecord.deals.map((d: { deck: string[] }) => d.deck)).toEqual(s.restRecord.body.deals.map((d: { deck: string[] }) => d.deck));
        expect(players.length).toBe(3);
      }
    }
    const recA = (await t.rest('GET', `/api/v1/games/${a}/record`)).body;
    const recB = (await t.rest('GET', `/api/v1/games/${b}/record`)).body;
    const recC = (await t.rest('GET', `/api/v1/games/${c}/record`)).body;
    expect(recA.players).not.toEqual(recB.players);
    expect(recA.firstDealer).toBe(recB.firstDealer);
    expect(recA.deals.length).toBe(2);
    expect(recB.deals.map((d: { deck: string[] }) => d.deck)).toEqual(recA.deals.map((d: { deck: string[] }) => d.deck));
    // Different play, the same cards: the moves differ.
    expect(recB.deals.map((d: { moves: unknown[] }) => d.moves)).not.toEqual(recA.deals.map((d: { moves: unknown[] }) => d.moves));
    // The ordinary game: its own decks.
    expect(recC.deals[0].deck).not.toEqual(recA.deals[0].deck);
    // The export now carries both, with their seeds and the same decks.
    const lineA = (await exportOf(east[0].name)).find((l) => l.gameId === a)!;
    const lineB = (await exportOf(west[0].name)).find((l) => l.gameId === b)!;
    expect(lineA.seeds.map((x) => x.seed)).toEqual(await seedsOf(a));
    expect(lineB.record.deals.map((d) => d.deck)).toEqual(lineA.record.deals.map((d) => d.deck));
  });

  it('holds a game still in play on a released board only until its end, as any game', async () => {
    const late = await players(t, 3, 'dl');
    const id = await startOnBoard(late, board);
    // Started after its board's release: still held (the tournament releases again when its last table ends).
    const game = await t.app.get(PrismaService).game.findUniqueOrThrow({ where: { id }, select: { revealHeld: true } });
    expect(game.revealHeld).toBe(true);
    const view = (await t.gql(GAME_QUERY, { id }, late[0].token)).data!.game;
    expect(view.deals[0].seed).toBeNull();
    expect(view.deals[0].seedHash).toBe(createHash('sha256').update(boardDealSeed(board.seed, 0)).digest('hex'));
    expect((await t.rest('GET', `/api/v1/games/${id}/record`)).status).toBe(403);
    // Nobody watches a held board's game being played but its players.
    expect((await t.gql(GAME_QUERY, { id })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await t.app.get(GamesService).releaseGames([id])).toBe(1);
    expect(await t.app.get(GamesService).releaseGames([id])).toBe(0);
    // Released but in play: the seeds still wait for the end.
    expect((await t.gql(GAME_QUERY, { id })).data!.game.deals[0].seed).toBeNull();
  });

  it('refuses a malformed board with BAD_INPUT naming the field', async () => {
    const seated = await players(t, 3, 'dx');
    await expect(startOnBoard(seated, { id: randomUUID(), seed: 'not a seed' })).rejects.toMatchObject({ code: 'BAD_INPUT', details: { field: 'board.seed' } });
    await expect(startOnBoard(seated, { id: 'board-1', seed: newBoard().seed })).rejects.toMatchObject({ code: 'BAD_INPUT', details: { field: 'board.id' } });
    await expect(t.app.get(GamesService).releaseBoard('board-1')).rejects.toMatchObject({ code: 'BAD_INPUT', details: { field: 'boardId' } });
  });
});

/** The cards played in deal `deal` (public once played), and in the whole game. */
function playedIn(record: { deals: { moves: { play?: string }[] }[] }, deal: number): Set<string> {
  return new Set(record.deals[deal].moves.flatMap((m) => (m.play ? [m.play] : [])));
}
function allPlayed(record: { deals: { moves: { play?: string }[] }[] }): Set<string> {
  return new Set(record.deals.flatMap((d) => d.moves.flatMap((m) => (m.play ? [m.play] : []))));
}
