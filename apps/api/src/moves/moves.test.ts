import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay, type GameRecord } from '@mizerka/rules';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import {
  cardNamesIn,
  GAME_QUERY,
  knowledge,
  leaked,
  MAKE_MOVE,
  playThrough,
  players,
  startGame,
  TURN_QUERY,
  type PlayedMove,
  type TestPlayer,
} from '../games/games.test-kit.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { placesOf } from '@mizerka/rules';

let t: TestApp;
let prisma: PrismaService;
beforeAll(async () => {
  t = await startTestApp();
  prisma = t.app.get(PrismaService);
});
afterAll(async () => {
  await t?.close();
});

const RECORD_QUERY = `query($id: ID!) { gameRecord(gameId: $id) {
  format firstDealer players rules { preset options { mizerkaQuotas target doubleMisere } }
  deals { deck moves { seat contract exchange bid discard trump play } } } }`;

const EVENTS_QUERY = `query($id: ID!, $after: Int) { gameEvents(gameId: $id, after: $after) {
  version hasMore entries { seq kind dealIndex seat events { seq type hand discards drawn cards card } } } }`;

/** GraphQL gives absent fields as null; a record has no such keys. */
function dropNulls<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_k, v) => (v === null ? undefined : v)));
}

type Turn = { version: number; status: string; view: { toMove: number; legalMoves: any } };

async function turn(id: string, token?: string): Promise<Turn> {
  const answer = await t.gql(TURN_QUERY, { id }, token);
  return answer.data!.game as Turn;
}

/** The turn as the player to move sees it (with their legal moves). */
async function moverTurn(id: string, seated: TestPlayer[]): Promise<Turn & { mover: TestPlayer }> {
  const mover = seated[(await turn(id)).view.toMove];
  return { ...(await turn(id, mover.token)), mover };
}

async function finishedChecks(id: string, seated: TestPlayer[]) {
  const game = (await t.gql(GAME_QUERY, { id }, seated[0].token)).data!.game;
  expect(game.status).toBe('finished');
  expect(game.view.over).toBe(true);
  expect(game.finishedAt).toBeTruthy();

  const rec = await t.gql(RECORD_QUERY, { id });
  expect(rec.errors).toBeUndefined();
  const record = dropNulls(rec.data!.gameRecord) as GameRecord;
  const rest = await t.rest('GET', `/api/v1/games/${id}/record`);
  expect(rest.status).toBe(200);
  expect(rest.body).toEqual(record);
  expect(record.players).toEqual(seated.map((p) => p.name));

  const replayed = replay(record);
  if (!replayed.ok) throw new Error(JSON.stringify(replayed.error));
  const { outcome } = replayed.value;
  expect(outcome.finished).toBe(true);
  expect(game.players.map((p: { total: number }) => p.total)).toEqual(outcome.totals);
  expect(game.players.map((p: { place: number }) => p.place)).toEqual(placesOf(outcome.totals));
  expect(game.winners).toEqual(outcome.winners);
  expect(game.view.totals).toEqual(outcome.totals);

  // Seeds are revealed once the game is over, and match the hashes published from the start.
  for (const d of game.deals) {
    expect(d.finished).toBe(true);
    expect(createHash('sha256').update(d.seed).digest('hex')).toBe(d.seedHash);
  }
  expect(game.deals.map((d: { scores: number[] }) => d.scores)).toEqual(outcome.deals.map((d) => d.scores));

  // The projections: one Deal row per deal with its result, one Trick row per trick, standings on the seats.
  const deals = await prisma.deal.findMany({ where: { gameId: id }, orderBy: { index: 'asc' }, include: { liveTricks: true } });
  expect(deals).toHaveLength(outcome.deals.length);
  deals.forEach((d, i) => {
    const o = outcome.deals[i] as unknown as Record<string, unknown>;
    expect(d.finishedAt).not.toBeNull();
    expect(d.scores).toEqual(o.scores);
    expect(d.tricks).toEqual(o.tricks);
    expect(d.contract).toBe(o.contract ?? null);
    expect(d.declarer).toBe(o.declarer ?? null);
    expect(d.bid).toBe(o.bid ?? null);
    expect(d.trump).toBe(o.trump ?? null);
    const taken = (o.tricks as (number | null)[]).reduce<number>((a, b) => a + (b ?? 0), 0);
    expect(d.liveTricks).toHaveLength(taken);
    for (const trick of d.liveTricks) expect(trick.cards).toHaveLength(3);
  });
  const seats = await prisma.gameSeat.findMany({ where: { gameId: id }, orderBy: { seat: 'asc' } });
  expect(seats.map((s) => s.total)).toEqual(outcome.totals);
  expect(seats.map((s) => s.place)).toEqual(placesOf(outcome.totals));

  // The log: seq 1..version without gaps, one entry per deal dealt and per move.
  const events = await prisma.gameEvent.findMany({ where: { gameId: id }, orderBy: { seq: 'asc' }, select: { seq: true, kind: true } });
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.length).toBe(game.version);
  expect(events.filter((e) => e.kind === 'deal')).toHaveLength(record.deals.length);
  expect(events.length).toBe(record.deals.length + record.deals.reduce((a, d) => a + d.moves.length, 0));
  return { game, record };
}

/** Every move result and every seat's (and a spectator's) event log hold only cards that seat may know. */
async function leakChecks(id: string, seated: TestPlayer[], record: GameRecord, played: PlayedMove[]) {
  const known = knowledge(record);
  for (const { mover, result } of played) {
    const moveSeq = result.events[0].seq as number;
    for (const event of result.events) {
      const allowed = event.seq === moveSeq ? [known(moveSeq - 1, mover), known(moveSeq, mover)] : [known(event.seq, mover)];
      expect(leaked(event, ...allowed), `move at seq ${moveSeq}, event ${event.type}`).toEqual([]);
    }
    expect(leaked(result.game, known(result.version, mover)), `view at ${result.version}`).toEqual([]);
  }
  const hands: string[][] = [];
  for (const viewer of [...seated, undefined]) {
    const seat = viewer ? seated.indexOf(viewer) : null;
    const log = await t.gql(EVENTS_QUERY, { id, after: 0 }, viewer?.token);
    expect(log.errors).toBeUndefined();
    if (seat !== null) hands[seat] = log.data!.gameEvents.entries[0].events[0].hand;
    for (const entry of log.data!.gameEvents.entries) {
      const allowed = entry.kind === 'deal' ? [known(entry.seq, seat)] : [known(entry.seq - 1, seat), known(entry.seq, seat)];
      expect(leaked(entry, ...allowed), `seat ${seat}, entry ${entry.seq}`).toEqual([]);
    }
  }
  // The check has teeth: another seat's first hand counts as a leak for seat 0.
  expect(hands[1].length).toBeGreaterThan(0);
  expect(leaked(hands[1], known(1, 0))).toEqual(hands[1]);
  expect(leaked(hands[0], known(1, 0))).toEqual([]);
}

describe('a complete short game over GraphQL', () => {
  let seated: TestPlayer[];
  let id: string;
  let played: PlayedMove[];
  let record: GameRecord;

  beforeAll(async () => {
    seated = await players(t, 3, 's');
    id = await startGame(t, seated, 'short');
    played = await playThrough(t, seated, id, 7);
  }, 180_000);

  it('is played to the end with the legal moves the views offer; standings equal replay(record)', async () => {
    expect(played.length).toBe(9 * (1 + 3 + 39));
    ({ record } = await finishedChecks(id, seated));
    expect(record.deals).toHaveLength(9);
  });

  it('never shows a seat, nor a spectator, cards it may not know', async () => {
    await leakChecks(id, seated, record, played);
  }, 60_000);

  it('refuses a move once the game is over with ILLEGAL_MOVE (rule game-over)', async () => {
    const answer = await t.gql(MAKE_MOVE, { input: { gameId: id, kind: 'play', card: 'AS' } }, seated[0].token);
    expect(answer.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'game-over' });
  });
});

describe('a bidding game with a small target over GraphQL', () => {
  it('is played to the end; standings equal replay(record); nothing leaks', async () => {
    const seated = await players(t, 3, 'b');
    const id = await startGame(t, seated, 'bidding', { target: 20, doubleMisere: true });
    const played = await playThrough(t, seated, id, 11);
    expect(played.at(-1)!.result.status).toBe('finished');
    const { game, record } = await finishedChecks(id, seated);
    expect(game.options).toMatchObject({ target: 20, doubleMisere: true });
    expect(game.deals.every((d: { declarer: number | null; bid: string | null }) => d.declarer !== null && d.bid !== null)).toBe(true);
    expect(Math.max(...game.view.totals)).toBeGreaterThanOrEqual(20);
    await leakChecks(id, seated, record, played);
  }, 180_000);
});

describe('who may move', () => {
  let seated: TestPlayer[];
  let outsider: TestPlayer;
  let id: string;

  beforeAll(async () => {
    seated = await players(t, 3, 'w');
    [outsider] = await players(t, 1, 'o');
    id = await startGame(t, seated, 'short');
  });

  it('needs a token: UNAUTHENTICATED', async () => {
    const answer = await t.gql(MAKE_MOVE, { input: { gameId: id, kind: 'contract', contract: 'hearts' } });
    expect(answer.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const rest = await t.rest('POST', `/api/v1/games/${id}/moves`, { kind: 'contract', contract: 'hearts' });
    expect(rest.status).toBe(401);
  });

  it('refuses a player without a seat: FORBIDDEN', async () => {
    const answer = await t.gql(MAKE_MOVE, { input: { gameId: id, kind: 'contract', contract: 'hearts' } }, outsider.token);
    expect(answer.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses a seated player who is not to move: NOT_YOUR_TURN', async () => {
    const { view } = await turn(id);
    const other = seated[(view.toMove + 1) % 3];
    const answer = await t.gql(MAKE_MOVE, { input: { gameId: id, kind: 'contract', contract: 'hearts' } }, other.token);
    expect(answer.errors?.[0].extensions).toMatchObject({ code: 'NOT_YOUR_TURN', rule: 'not-your-turn' });
    const rest = await t.rest('POST', `/api/v1/games/${id}/moves`, { kind: 'contract', contract: 'hearts' }, other.token);
    expect(rest.status).toBe(409);
    expect(rest.headers.get('content-type')).toMatch(/problem\+json/);
    expect(rest.body).toMatchObject({ code: 'NOT_YOUR_TURN', rule: 'not-your-turn' });
  });

  it('maps rule refusals to ILLEGAL_MOVE with the rule, and malformed moves to BAD_INPUT', async () => {
    const { view } = await turn(id);
    const mover = seated[view.toMove];
    const wrongPhase = await t.gql(MAKE_MOVE, { input: { gameId: id, kind: 'play', card: 'AS' } }, mover.token);
    expect(wrongPhase.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_MOVE', rule: 'wrong-phase' });

    for (const input of [
      { kind: 'play', card: 'ZZ' },
      { kind: 'exchange', discards: ['2C', '1X'] },
      { kind: 'contract' },
      { kind: 'contract', contract: 'hearts', card: 'AS' },
    ]) {
      const answer = await t.gql(MAKE_MOVE, { input: { gameId: id, ...input } }, mover.token);
      expect(answer.errors?.[0].extensions?.code, JSON.stringify(input)).toBe('BAD_INPUT');
    }
    const rest = await t.rest('POST', `/api/v1/games/${id}/moves`, { kind: 'play', card: 'ZZ' }, mover.token);
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('BAD_INPUT');
    const unknown = await t.gql(MAKE_MOVE, { input: { gameId: '00000000-0000-4000-8000-000000000000', kind: 'bid', bid: 'pass' } }, mover.token);
    expect(unknown.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await turn(id)).version).toBe(1);
  });

  it('accepts the move of the seat to move over REST too, and returns the mover’s events and view', async () => {
    const { view } = await turn(id);
    const mover = seated[view.toMove];
    const rest = await t.rest('POST', `/api/v1/games/${id}/moves`, { kind: 'contract', contract: view.legalMoves === null ? 'hearts' : 'hearts' }, mover.token);
    expect(rest.status).toBe(200);
    expect(rest.body.version).toBe(2);
    expect(rest.body.events.map((e: { type: string }) => e.type)).toEqual(['contractChosen', 'handCompleted']);
    expect(rest.body.game.viewer).toBe(view.toMove);
    expect(rest.body.game.hand).toHaveLength(13);
    expect(rest.body.game.phase).toBe('exchange');
  });
});

describe('concurrency and idempotency', () => {
  let seated: TestPlayer[];
  let id: string;

  beforeAll(async () => {
    seated = await players(t, 3, 'c');
    id = await startGame(t, seated, 'bidding');
  });

  /**
   * Holds the game row locked while `start` fires requests, until every one of them waits on that
   * lock (so all have read before any writes), then lets them go.
   */
  async function withRowLocked<T>(start: () => Promise<T>[]): Promise<T[]> {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM games WHERE id = $1 FOR UPDATE', [id]);
      const pending = start();
      let settled = false;
      const early = Promise.allSettled(pending).then(() => (settled = true));
      for (const deadline = Date.now() + 20_000; ; ) {
        // pg_stat_activity is a snapshot taken once per transaction: a request on a connection
        // opened since (the move path's pool opens one for the second request) would never show.
        await client.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await client.query<{ waiting: number }>(
          // Blocked by this lock, or queued behind a request blocked by it (on the row's tuple lock).
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`,
        );
        if (rows[0].waiting >= pending.length) break;
        // A request that answered without waiting never reached the write: the race did not happen.
        if (settled || Date.now() > deadline) {
          throw new Error(`only ${rows[0].waiting} of ${pending.length} requests waited on the game's row lock`);
        }
        await Promise.race([early, new Promise((resolve) => setTimeout(resolve, 5))]);
      }
      await client.query('COMMIT');
      return await Promise.all(pending);
    } finally {
      await client.end();
    }
  }

  const bid = (token: string, input: Record<string, unknown>) =>
    t.gql(MAKE_MOVE, { input: { gameId: id, kind: 'bid', bid: 'pass', ...input } }, token);

  it('answers a stale expectedVersion with CONFLICT and the current version', async () => {
    const { version, view } = await turn(id);
    const answer = await bid(seated[view.toMove].token, { expectedVersion: version - 1 });
    expect(answer.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', version });
  });

  it('applies exactly one of two concurrent moves; the other gets CONFLICT with the new version', async () => {
    const { version, view } = await turn(id);
    const token = seated[view.toMove].token;
    const answers = await Promise.all([bid(token, { expectedVersion: version }), bid(token, { expectedVersion: version })]);
    const ok = answers.filter((a) => !a.errors);
    const refused = answers.filter((a) => a.errors);
    expect(ok).toHaveLength(1);
    expect(refused[0].errors![0].extensions).toMatchObject({ code: 'CONFLICT', version: version + 1 });
    expect(await prisma.gameEvent.count({ where: { gameId: id } })).toBe(version + 1);
  });

  it('resolves a race decided at the write (both read the same version): without expectedVersion the loser is decided again on the new state', async () => {
    const { version, view } = await turn(id);
    const token = seated[view.toMove].token;
    const answers = await withRowLocked(() => [bid(token, {}), bid(token, { bid: 'play' })]);
    const ok = answers.filter((a) => !a.errors);
    expect(ok).toHaveLength(1);
    // The seat has moved; on the game as it is now, it is another seat's turn.
    expect(answers.find((a) => a.errors)!.errors![0].extensions).toMatchObject({ code: 'NOT_YOUR_TURN' });
    expect(await prisma.gameEvent.count({ where: { gameId: id } })).toBe(version + 1);
  });

  it('returns the first result for a retried idempotency key, without moving again', async () => {
    const { version, view, mover } = await moverTurn(id, seated);
    // With the version it had then, which a retry sends again, stale by then.
    const input = { gameId: id, ...pickFirst(view.legalMoves), expectedVersion: version, idempotencyKey: 'retry-1' };
    const first = await t.gql(MAKE_MOVE, { input }, mover.token);
    expect(first.errors).toBeUndefined();
    const again = await t.gql(MAKE_MOVE, { input }, mover.token);
    expect(again.errors).toBeUndefined();
    expect(again.data).toEqual(first.data);
    expect(await prisma.gameEvent.count({ where: { gameId: id } })).toBe(first.data!.makeMove.version);
  });

  it('answers a retry exactly as the first time, even after the game moved on: the same version, the same view', async () => {
    const { view, mover } = await moverTurn(id, seated);
    const input = { gameId: id, ...pickFirst(view.legalMoves), idempotencyKey: 'exact-1' };
    const first = await t.gql(MAKE_MOVE, { input }, mover.token);
    expect(first.errors).toBeUndefined();
    // Someone moves after it: the mover's hand and the table change.
    const next = await moverTurn(id, seated);
    expect((await t.gql(MAKE_MOVE, { input: { gameId: id, ...pickFirst(next.view.legalMoves) } }, next.mover.token)).errors).toBeUndefined();
    const retry = await t.gql(MAKE_MOVE, { input }, mover.token);
    expect(retry.errors).toBeUndefined();
    expect(retry.data).toEqual(first.data);
    const rest = await t.rest('POST', `/api/v1/games/${id}/moves`, { ...input, gameId: undefined }, mover.token);
    expect(rest.status).toBe(200);
    expect(rest.body.version).toBe(first.data!.makeMove.version);
    expect(rest.body.game.hand).toEqual(first.data!.makeMove.game.hand);
  });

  it('refuses a key reused for a different request, and moves nothing', async () => {
    const { view, mover } = await moverTurn(id, seated);
    const input = { gameId: id, ...pickFirst(view.legalMoves), idempotencyKey: 'reused-1' };
    const first = await t.gql(MAKE_MOVE, { input }, mover.token);
    expect(first.errors).toBeUndefined();
    const after = (await turn(id)).version;
    const other = await t.gql(MAKE_MOVE, { input: { ...input, expectedVersion: after } }, mover.token);
    expect(other.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'idempotencyKey', reason: 'idempotency-key-reused' });
    const different = await t.rest('POST', `/api/v1/games/${id}/resign`, { idempotencyKey: 'reused-1' }, mover.token);
    expect(different.status).toBe(400);
    expect(different.body).toMatchObject({ code: 'BAD_INPUT', reason: 'idempotency-key-reused' });
    expect((await turn(id)).version).toBe(after);
  });

  it('returns one result to two identical requests that race', async () => {
    const { version, view, mover } = await moverTurn(id, seated);
    const input = { gameId: id, ...pickFirst(view.legalMoves), idempotencyKey: 'twin' };
    const answers = await withRowLocked(() => [t.gql(MAKE_MOVE, { input }, mover.token), t.gql(MAKE_MOVE, { input }, mover.token)]);
    expect(answers.map((a) => a.errors)).toEqual([undefined, undefined]);
    expect(answers[0].data!.makeMove.version).toBe(answers[1].data!.makeMove.version);
    expect(answers[0].data!.makeMove.events).toEqual(answers[1].data!.makeMove.events);
    expect(await prisma.gameEvent.count({ where: { gameId: id, idempotencyKey: 'twin' } })).toBe(1);
    expect((await turn(id)).version).toBeGreaterThan(version);
  });

  it('takes the key from the Idempotency-Key header on REST', async () => {
    const { view, mover } = await moverTurn(id, seated);
    const post = () =>
      fetch(`${t.baseUrl}/api/v1/games/${id}/moves`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${mover.token}`, 'idempotency-key': 'hdr-1' },
        body: JSON.stringify(pickFirst(view.legalMoves)),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { version: number } }));
    const first = await post();
    const again = await post();
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await prisma.gameEvent.count({ where: { gameId: id, idempotencyKey: 'hdr-1' } })).toBe(1);
  });
});

/** The first legal move, as input fields (bids, then discards, then trump, then a card). */
function pickFirst(legal: any): Record<string, unknown> {
  switch (legal.kind) {
    case 'bid':
      return { kind: 'bid', bid: legal.bids[legal.bids.length - 1] };
    case 'discard':
      return { kind: 'discard', cards: legal.cards.slice(0, 2) };
    case 'trump':
      return { kind: 'trump', suit: legal.suits[0] };
    case 'play':
      return { kind: 'play', card: legal.cards[0] };
    case 'contract':
      return { kind: 'contract', contract: legal.contracts[0] };
    default:
      return { kind: 'exchange', discards: [] };
  }
}

describe('a spectator', () => {
  it('sees the table without any hand, and no card before one is played', async () => {
    const seated = await players(t, 3, 'v');
    const id = await startGame(t, seated, 'short');
    const seen = await t.gql(GAME_QUERY, { id });
    expect(seen.errors).toBeUndefined();
    const game = seen.data!.game;
    expect(game.mySeat).toBeNull();
    expect(game.view).toMatchObject({ viewer: null, hand: null, legalMoves: null, discards: null });
    expect(game.deals[0].seed).toBeNull();
    expect([...cardNamesIn(game)]).toEqual([]);
    const rest = await t.rest('GET', `/api/v1/games/${id}`);
    expect(rest.status).toBe(200);
    expect([...cardNamesIn(rest.body)]).toEqual([]);
    expect(rest.body.view.viewer).toBeNull();
  });
});
