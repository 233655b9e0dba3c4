import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 30_000 });
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { openSse, type SseFrame, type SseStream } from '../inbox/sse.test-kit.js';
import { cardNamesIn, MAKE_MOVE, pickMove, players, playThrough, rng, startGame, TURN_QUERY, type TestPlayer } from './games.test-kit.js';

let t: TestApp;
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await startTestApp({ streams: { keepAliveMs: 100, feedPollMs: 5_000 } });
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await t?.close();
});

async function stream(app: TestApp, gameId: string, token?: string, query = '', headers: Record<string, string> = {}) {
  const s = await openSse(`${app.baseUrl}/api/v1/games/${gameId}/events/stream${query}`, {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...headers,
  });
  streams.push(s);
  return s;
}

async function rest(token: string, gameId: string): Promise<unknown[]> {
  const entries: unknown[] = [];
  for (let after = 0; ; ) {
    const page = await t.rest('GET', `/api/v1/games/${gameId}/events?after=${after}`, undefined, token);
    entries.push(...page.body.entries);
    if (!page.body.hasMore) return entries;
    after = page.body.entries.at(-1).seq;
  }
}

async function drain(s: SseStream): Promise<SseFrame[]> {
  const out: SseFrame[] = [];
  for (let f = await s.next(10_000); f; f = await s.next(10_000)) out.push(f);
  return out;
}

async function move(app: TestApp, seated: TestPlayer[], gameId: string, random: (n: number) => number) {
  const turn = await app.gql(TURN_QUERY, { id: gameId });
  const mover = seated[turn.data!.game.view.toMove];
  const mine = await app.gql(TURN_QUERY, { id: gameId }, mover.token);
  const answer = await app.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.data!.game.view.legalMoves, random) } }, mover.token);
  expect(answer.errors).toBeUndefined();
}

describe('GET /api/v1/games/:id/events/stream', () => {
  it('streams the log live, redacted per viewer like gameLog, and ends after the last entry', async () => {
    const seated = await players(t, 3, 'gsse');
    const [watcher] = await players(t, 1, 'gssew');
    const gameId = await startGame(t, seated, 'bidding', { target: 20 });
    const asSeat = await Promise.all(seated.map((p) => stream(t, gameId, p.token)));
    const asSpectator = await stream(t, gameId, watcher.token, '?after=0');
    expect(asSpectator.status).toBe(200);
    expect(asSpectator.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // All caught up on the deal before the game goes on: the rest arrives live.
    const dealt = await Promise.all([...asSeat, asSpectator].map((s) => s.next()));
    expect(dealt.map((f) => f!.id)).toEqual(['1', '1', '1', '1']);
    const played = await playThrough(t, seated, gameId, 11);
    const version = played.at(-1)!.result.version as number;

    const seatFrames = await Promise.all(asSeat.map(async (s, seat) => [dealt[seat]!, ...(await drain(s))]));
    const spectatorFrames = [dealt[3]!, ...(await drain(asSpectator))];
    for (const frames of [...seatFrames, spectatorFrames]) {
      expect(frames.map((f) => Number(f.id))).toEqual(Array.from({ length: version }, (_, i) => i + 1));
      expect(frames.every((f) => f.event === JSON.parse(f.data!).kind)).toBe(true);
      expect(JSON.parse(frames.at(-1)!.data!).events.some((e: { type: string }) => e.type === 'gameOver')).toBe(true);
    }
    // Exactly what the log shows each viewer (the one redaction point).
    for (let seat = 0; seat < 3; seat++) {
      const log = await rest(seated[seat].token, gameId);
      expect(seatFrames[seat].map((f) => JSON.parse(f.data!))).toEqual(log);
    }
    expect(spectatorFrames.map((f) => JSON.parse(f.data!))).toEqual(await rest(watcher.token, gameId));
    // A seat sees its own hand at each deal, never another's; a spectator no card that was not played.
    const hands = (frames: SseFrame[]) =>
      frames.flatMap((f) => JSON.parse(f.data!).events.filter((e: { type: string }) => e.type === 'dealt').map((e: { hand: string[] | null }) => e.hand));
    const seat0Hands = hands(seatFrames[0]);
    expect(seat0Hands.length).toBeGreaterThan(0);
    expect(seat0Hands.every((h: string[] | null) => h !== null && h.length > 0)).toBe(true);
    // Deal by deal: the same card may of course be in another seat's hand in a later deal.
    const seat1Hands = hands(seatFrames[1]);
    expect(seat1Hands.length).toBe(seat0Hands.length);
    seat0Hands.forEach((hand: string[], deal: number) => {
      const seat1Cards = new Set(seat1Hands[deal]);
      expect(hand.filter((c) => seat1Cards.has(c)), `deal ${deal + 1}`).toEqual([]);
    });
    expect(hands(spectatorFrames).every((h: string[] | null) => h === null)).toBe(true);
    const publicCards = new Set(
      spectatorFrames.flatMap((f) => JSON.parse(f.data!).events.filter((e: { type: string }) => e.type === 'cardPlayed').map((e: { card: string }) => e.card)),
    );
    expect([...cardNamesIn(spectatorFrames.map((f) => f.data))].filter((c) => !publicCards.has(c))).toEqual([]);
    expect(asSpectator.comments.length).toBeGreaterThan(0); // keep-alive comments meanwhile

    // Resuming: Last-Event-ID (a seq) wins over after; a finished game with nothing after answers 204.
    const resumed = await stream(t, gameId, seated[0].token, '?after=2', { 'last-event-id': '5' });
    expect((await drain(resumed)).map((f) => Number(f.id))).toEqual(Array.from({ length: version - 5 }, (_, i) => i + 6));
    expect((await stream(t, gameId, seated[0].token, `?after=${version}`)).status).toBe(204);
  });

  it('needs a token (401), knows the game (404), and refuses a bad Last-Event-ID (400)', async () => {
    const seated = await players(t, 3, 'gssebad');
    const gameId = await startGame(t, seated, 'short');
    expect((await stream(t, gameId)).status).toBe(401);
    const unknown = await stream(t, '00000000-0000-4000-8000-000000000000', seated[0].token);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND' });
    const bad = await stream(t, gameId, seated[0].token, '', { 'last-event-id': 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_INPUT', field: 'Last-Event-ID' });
    expect((await stream(t, gameId, seated[0].token, '?after=-1')).status).toBe(400);
  });

  it('resumes on a restarted server from the last seq received', async () => {
    const first = await startTestApp({ streams: { keepAliveMs: 60_000, feedPollMs: 5_000 } });
    const seated = await players(first, 3, 'gsserst');
    const gameId = await startGame(first, seated, 'short');
    const random = rng(7);
    const s = await stream(first, gameId, seated[0].token);
    expect((await s.next())!.id).toBe('1');
    await move(first, seated, gameId, random);
    expect((await s.next())!.id).toBe('2');
    const closing = Date.now();
    await first.close();
    await s.ended;
    expect(Date.now() - closing).toBeLessThan(1500); // an open stream does not hold the shutdown

    const second = await startTestApp({ streams: { keepAliveMs: 60_000, feedPollMs: 5_000 } }, first.databaseUrl);
    try {
      await move(second, seated, gameId, random);
      const resumed = await stream(second, gameId, seated[0].token, '', { 'last-event-id': '2' });
      expect((await resumed.next())!.id).toBe('3');
      await move(second, seated, gameId, random);
      expect((await resumed.next())!.id).toBe('4');
      resumed.close();
    } finally {
      await second.close();
    }
  });
});
