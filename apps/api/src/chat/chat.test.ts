import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { wsClient } from '../../../../test/graphql-ws.js';
import { openSse, type SseStream } from '../inbox/sse.test-kit.js';
import { players, startGame, type TestPlayer } from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { loadConfig } from '../config/app-config.js';

vi.setConfig({ testTimeout: 30_000 });

// Table talk against the real database: rooms, live delivery, paging, mutes, blocks, reports, limits.

const MODERATOR = `mod${process.pid % 10_000}x${Date.now() % 100_000}`;
const PER_MINUTE = 40;

let t: TestApp;
const clients: Client[] = [];
const streams: SseStream[] = [];
beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test' });
  t = await startTestApp({ chat: { ...base.chat, messagesPerMinute: PER_MINUTE, moderators: [MODERATOR.toLowerCase()] } });
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

const SEND = `mutation($input: SendChatInput!) { sendChatMessage(input: $input) { seq room gameId lobbyId body author { id name } } }`;
const PAGE = `query($gameId: ID, $lobbyId: ID, $room: ChatRoom, $first: Int, $after: String) {
  chatMessages(gameId: $gameId, lobbyId: $lobbyId, room: $room, first: $first, after: $after) { messages { seq body author { name } } nextCursor hasMore }
}`;
const GAME_CHAT = `subscription($gameId: ID!, $room: ChatRoom, $after: Int) { gameChat(gameId: $gameId, room: $room, after: $after) { seq room body author { name } } }`;

async function say(p: TestPlayer, table: { gameId?: string; lobbyId?: string }, body: string, room = 'players') {
  return t.gql(SEND, { input: { ...table, room, body } }, p.token);
}

async function said(p: TestPlayer, table: { gameId?: string; lobbyId?: string }, body: string, room = 'players') {
  const r = await say(p, table, body, room);
  expect(r.errors).toBeUndefined();
  return r.data!.sendChatMessage as { seq: number; body: string };
}

async function bodies(p: TestPlayer, gameId: string, room = 'players', first = 100): Promise<string[]> {
  const r = await t.gql(PAGE, { gameId, room, first }, p.token);
  expect(r.errors).toBeUndefined();
  return (r.data!.chatMessages.messages as { body: string }[]).map((m) => m.body).reverse();
}

/** Collects a subscription's messages until `count` arrived. */
function subscribe(token: string, gameId: string, room: string, count: number) {
  const client = wsClient(t.baseUrl, token);
  clients.push(client);
  const got: { seq: number; body: string; room: string }[] = [];
  let ready!: () => void;
  const done = new Promise<typeof got>((resolve, reject) => {
    client.subscribe<{ gameChat: (typeof got)[number] }>(
      { query: GAME_CHAT, variables: { gameId, room, after: 0 } },
      {
        next: (m) => {
          if (m.errors) return reject(new Error(JSON.stringify(m.errors)));
          got.push(m.data!.gameChat);
          if (got.length >= count) resolve(got);
        },
        error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
        complete: () => resolve(got),
      },
    );
    ready = () => undefined;
  });
  void ready;
  return { got, done };
}

async function sse(token: string, path: string) {
  const s = await openSse(`${t.baseUrl}${path}`, { authorization: `Bearer ${token}` });
  streams.push(s);
  return s;
}

describe('table talk', () => {
  it("seats talk and hear it live; the spectators' room is apart, and hidden from the seats while the game is played", async () => {
    const seated = await players(t, 3, 'cht');
    const [watcher] = await players(t, 1, 'chw');
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });

    const live = await sse(seated[1].token, `/api/v1/games/${gameId}/chat/stream`);
    expect(live.status).toBe(200);
    await live.ready();
    const sub = subscribe(seated[2].token, gameId, 'players', 2);

    expect((await said(seated[0], { gameId }, '  Good luck, all!  ')).body).toBe('Good luck, all!');
    // A spectator writes only in the spectators' room; the seats never in it.
    expect((await say(watcher, { gameId }, 'psst, he holds the ace')).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await said(watcher, { gameId }, 'nice bid', 'spectators')).body).toBe('nice bid');
    expect((await say(seated[0], { gameId }, 'hello watchers', 'spectators')).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    await said(seated[1], { gameId }, 'and to you');

    const frames = await live.take(2);
    expect(frames.map((f) => [f.id, f.event, JSON.parse(f.data!).body])).toEqual([
      ['1', 'message', 'Good luck, all!'],
      ['2', 'message', 'and to you'],
    ]);
    expect((await sub.done).map((m) => [m.seq, m.room, m.body])).toEqual([
      [1, 'players', 'Good luck, all!'],
      [2, 'players', 'and to you'],
    ]);

    // Without the host's leave, spectators do not read the players; the seats not the spectators.
    expect((await t.gql(PAGE, { gameId }, watcher.token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await t.gql(PAGE, { gameId, room: 'spectators' }, seated[0].token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await t.rest('GET', `/api/v1/games/${gameId}/chat/stream?room=spectators`, undefined, seated[0].token)).status).toBe(403);
    expect(await bodies(watcher, gameId, 'spectators')).toEqual(['nice bid']);

    // Resuming from a seq (Last-Event-ID) gives what came after it, once the game is over too.
    const resumed = await openSse(`${t.baseUrl}/api/v1/games/${gameId}/chat/stream`, { authorization: `Bearer ${seated[0].token}`, 'last-event-id': '1' });
    streams.push(resumed);
    expect((await resumed.take(1)).map((f) => f.id)).toEqual(['2']);
    await t.app.get(PrismaService).game.update({ where: { id: gameId }, data: { status: 'finished', finishedAt: new Date() } });
    expect(await bodies(seated[0], gameId, 'spectators')).toEqual(['nice bid']);
  });

  it("carries the players' room in the player's own export when asked (includeChat), never the spectators' nor to others", async () => {
    const seated = await players(t, 3, 'chx');
    const [watcher] = await players(t, 1, 'chy');
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });
    await said(seated[0], { gameId }, 'well played');
    await said(seated[2], { gameId }, 'thanks');
    await said(watcher, { gameId }, 'from the rail', 'spectators');
    const { version } = (await t.gql('query($id: ID!) { game(id: $id) { version } }', { id: gameId }, seated[1].token)).data!.game;
    const resigned = await t.gql('mutation($input: ResignInput!) { resign(input: $input) { status } }', { input: { gameId, expectedVersion: version } }, seated[1].token);
    expect(resigned.errors).toBeUndefined();

    const path = `/api/v1/players/${seated[0].name}/games/export`;
    const lines = async (query: string, token?: string) => {
      const r = await fetch(`${t.baseUrl}${path}${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { status: r.status, lines: (await r.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
    };
    const own = await lines('?includeChat=true', seated[0].token);
    expect(own.status).toBe(200);
    const line = own.lines.find((l) => l.gameId === gameId);
    expect(line.chat.map((m: { seq: number; author: string; body: string }) => [m.seq, m.author, m.body])).toEqual([
      [1, seated[0].name, 'well played'],
      [2, seated[2].name, 'thanks'],
    ]);
    expect(line.record.format).toBe('mizerka-record/1');
    expect(JSON.stringify(own.lines)).not.toContain('from the rail');
    // Without asking: the bare records, as before.
    const plain = await lines('', seated[0].token);
    expect(plain.lines.find((l) => l.gameId === gameId)).toBeUndefined();
    expect(plain.lines.every((l) => l.format === 'mizerka-record/1')).toBe(true);
    // Another player's games, or no sign-in: FORBIDDEN naming the parameter.
    for (const token of [seated[1].token, undefined]) {
      const refused = await fetch(`${t.baseUrl}${path}?includeChat=true`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN', field: 'includeChat' });
    }
  });

  it("lets spectators read the players' room when the host chose so at the lobby, and never write in it", async () => {
    const [host, a, b, watcher] = await players(t, 4, 'chl');
    const create = await t.gql(
      `mutation($input: CreateLobbyInput!) { createLobby(input: $input) { id spectatorsSeeTableChat } }`,
      { input: { preset: 'bidding', options: { target: 20 }, spectatorsSeeTableChat: true } },
      host.token,
    );
    expect(create.errors).toBeUndefined();
    const lobbyId = create.data!.createLobby.id as string;
    expect(create.data!.createLobby.spectatorsSeeTableChat).toBe(true);
    await said(host, { lobbyId }, 'waiting for two more');
    // A lobby's room is the seats' (the host allowed spectators: a passer-by reads it too).
    expect((await t.rest('GET', `/api/v1/lobbies/${lobbyId}/chat`, undefined, watcher.token)).body.messages.map((m: { body: string }) => m.body)).toEqual([
      'waiting for two more',
    ]);
    const JOIN = `mutation($input: JoinLobbyInput!) { joinLobby(input: $input) { gameId } }`;
    await t.gql(JOIN, { input: { lobbyId } }, a.token);
    const joined = await t.gql(JOIN, { input: { lobbyId } }, b.token);
    const gameId = joined.data!.joinLobby.gameId as string;
    expect(gameId).toBeTruthy();

    await said(a, { gameId }, 'gl');
    expect(await bodies(watcher, gameId)).toEqual(['gl']);
    expect((await say(watcher, { gameId }, 'hi')).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const rest = await t.rest('POST', `/api/v1/games/${gameId}/chat`, { body: 'hi' }, watcher.token);
    expect(rest.status).toBe(403);
  });

  it('pages newest first by cursor, and refuses a cursor it did not make naming `after`', async () => {
    const seated = await players(t, 3, 'chp');
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });
    for (let i = 1; i <= 25; i++) await said(seated[i % 3], { gameId }, `m${i}`);
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const r = await t.rest('GET', `/api/v1/games/${gameId}/chat?first=10${after ? `&after=${after}` : ''}`, undefined, seated[0].token);
      expect(r.status).toBe(200);
      seen.push(...r.body.messages.map((m: { body: string }) => m.body));
      after = r.body.nextCursor;
      if (!r.body.hasMore) break;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `m${25 - i}`));
    const bad = await t.rest('GET', `/api/v1/games/${gameId}/chat?after=bm9wZQ`, undefined, seated[0].token);
    expect([bad.status, bad.body.field]).toEqual([400, 'after']);
  });

  it('hides a muted player for the muter only, and a block stops chat both ways and any lobby together', async () => {
    const seated = await players(t, 3, 'chm');
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });
    const [ala, ola, ela] = seated;
    const muted = await t.rest('PUT', `/api/v1/chat/mutes/${ola.id}`, undefined, ala.token);
    expect([muted.status, muted.body.player.name]).toEqual([200, ola.name]);
    const live = await sse(ala.token, `/api/v1/games/${gameId}/chat/stream`);
    await live.ready();
    await said(ola, { gameId }, 'from ola');
    await said(ela, { gameId }, 'from ela');
    expect((await live.take(1)).map((f) => JSON.parse(f.data!).body)).toEqual(['from ela']);
    expect(await bodies(ala, gameId)).toEqual(['from ela']);
    expect(await bodies(ela, gameId)).toEqual(['from ola', 'from ela']);
    expect((await t.rest('GET', '/api/v1/chat/mutes', undefined, ala.token)).body.map((p: { player: { id: string } }) => p.player.id)).toEqual([ola.id]);
    expect((await t.rest('DELETE', `/api/v1/chat/mutes/${ola.id}`, undefined, ala.token)).body).toEqual({ unmuted: true });
    expect(await bodies(ala, gameId)).toEqual(['from ola', 'from ela']);
    expect((await t.rest('PUT', `/api/v1/chat/mutes/${ala.id}`, undefined, ala.token)).body.field).toBe('playerId');

    // Ela blocks Ola: Ola cannot write at Ela's table, and neither sees the other's messages.
    const blocked = await t.gql(`mutation($id: ID!) { blockPlayer(playerId: $id) { player { name } } }`, { id: ola.id }, ela.token);
    expect(blocked.data!.blockPlayer.player.name).toBe(ola.name);
    expect((await say(ola, { gameId }, 'still here?')).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(await bodies(ela, gameId)).toEqual(['from ela']);
    expect(await bodies(ola, gameId)).toEqual(['from ola']);
    expect(await bodies(ala, gameId)).toEqual(['from ola', 'from ela']);

    // ...and neither joins a lobby the other sits in.
    const lobby = await t.rest('POST', '/api/v1/lobbies', { preset: 'bidding', options: { target: 20 } }, ela.token);
    expect(lobby.status).toBe(201);
    const join = await t.rest('POST', `/api/v1/lobbies/${lobby.body.id}/join`, {}, ola.token);
    expect(join.status).toBe(403);
    const other = await t.rest('POST', '/api/v1/lobbies', { preset: 'bidding', options: { target: 20 } }, ola.token);
    expect((await t.rest('POST', `/api/v1/lobbies/${other.body.id}/join`, {}, ela.token)).status).toBe(403);
    expect((await t.rest('POST', `/api/v1/lobbies/${lobby.body.id}/join`, {}, ala.token)).status).toBe(200);
    // Lifted, they may sit together again.
    expect((await t.rest('DELETE', `/api/v1/blocks/${ola.id}`, undefined, ela.token)).body).toEqual({ unblocked: true });
    expect((await t.rest('POST', `/api/v1/lobbies/${lobby.body.id}/join`, {}, ola.token)).status).toBe(200);
  });

  it('takes a report to the moderators with its context, once; only a moderator with admin sees the queue', async () => {
    const seated = await players(t, 3, 'chr');
    const moderator = { ...(await t.register(MODERATOR)), name: MODERATOR };
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });
    for (const [i, body] of ['one', 'two', 'rude words', 'four'].entries()) await said(seated[i % 3], { gameId }, body);
    const REPORT = `mutation($input: ReportChatInput!) { reportChatMessage(input: $input) { id status reason message { seq body author { name } } context { seq body } } }`;
    const report = await t.gql(REPORT, { input: { gameId, seq: 3, reason: 'insults' } }, seated[0].token);
    expect(report.errors).toBeUndefined();
    expect(report.data!.reportChatMessage).toMatchObject({ status: 'open', reason: 'insults', message: { seq: 3, body: 'rude words', author: { name: seated[2].name } } });
    expect(report.data!.reportChatMessage.context.map((m: { seq: number }) => m.seq)).toEqual([1, 2, 3, 4]);
    const again = await t.rest('POST', `/api/v1/games/${gameId}/chat/reports`, { seq: 3 }, seated[0].token);
    expect(again.body.id).toBe(report.data!.reportChatMessage.id);
    expect((await t.gql(REPORT, { input: { gameId, seq: 3 } }, seated[2].token)).errors?.[0].extensions?.field).toBe('seq');
    expect((await t.gql(REPORT, { input: { gameId, seq: 99 } }, seated[1].token)).errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const QUEUE = `query { chatReports { reports { id status message { body } context { body } reporter { name } } hasMore } }`;
    expect((await t.gql(QUEUE, {}, seated[0].token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const queue = await t.gql(QUEUE, {}, moderator.token);
    expect(queue.errors).toBeUndefined();
    const mine = queue.data!.chatReports.reports.find((r: { id: string }) => r.id === report.data!.reportChatMessage.id);
    expect(mine).toMatchObject({ status: 'open', message: { body: 'rude words' }, reporter: { name: seated[0].name } });

    const handled = await t.rest('POST', `/api/v1/chat/reports/${mine.id}/handle`, { status: 'resolved' }, moderator.token);
    expect([handled.status, handled.body.status, handled.body.handledBy.name]).toEqual([200, 'resolved', MODERATOR]);
    expect((await t.rest('POST', `/api/v1/chat/reports/${mine.id}/handle`, { status: 'dismissed' }, moderator.token)).status).toBe(409);
    const open = await t.rest('GET', '/api/v1/chat/reports', undefined, moderator.token);
    expect(open.body.reports.some((r: { id: string }) => r.id === mine.id)).toBe(false);
  });

  it('answers 4xx naming the field for a message too long, a control character, an empty one, and too many', async () => {
    const seated = await players(t, 3, 'chx');
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });
    const post = (body: unknown, who = seated[0]) => t.rest('POST', `/api/v1/games/${gameId}/chat`, { body }, who.token);
    const long = await post('x'.repeat(501));
    expect([long.status, long.body.code, long.body.field]).toEqual([400, 'BAD_INPUT', 'body']);
    // 500 characters are enough, emoji counted as one each, spaces around trimmed.
    expect((await post(`  ${'😀'.repeat(500)}  `)).status).toBe(200);
    expect((await post('a\u0007b')).body.field).toBe('body');
    expect((await post('line\nbreak')).body.field).toBe('body');
    expect((await post('\u202Eevil')).body.field).toBe('body');
    expect((await post('   ')).body.field).toBe('body');
    expect((await post(42)).body.field).toBe('body');
    expect((await say(seated[0], { gameId }, 'y'.repeat(501))).errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'body' });
    expect((await t.gql(PAGE, { first: 5 }, seated[0].token)).errors?.[0].extensions?.field).toBe('gameId');

    // Messages are plain text: markup is kept as the characters it is.
    expect((await post('<b>hi</b> <a href="javascript:alert(1)">x</a>', seated[2])).body.body).toBe('<b>hi</b> <a href="javascript:alert(1)">x</a>');

    let refused: { status: number; body: Record<string, unknown>; headers: Headers } | null = null;
    for (let i = 0; i <= PER_MINUTE && !refused; i++) {
      const r = await post(`spam ${i}`, seated[1]);
      if (r.status !== 200) refused = r;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.body).toMatchObject({ code: 'RATE_LIMITED', field: 'body' });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    // One player's budget is theirs: the others still talk.
    expect((await post('still fine', seated[2])).status).toBe(200);
  });
});
