import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../../test/wait.js';
import { loadConfig } from '../config/app-config.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY, type TestPlayer } from '../games/games.test-kit.js';
import { encodeState } from '@mizerka/rules';
import { dealSeedHash, GameLogReader, GameStore } from '../games/index.js';
import { seatlessMove } from '../moves/move-input.js';
import { MovesService } from '../moves/moves.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { CompactionService } from './compaction.service.js';

// Finished games of several presets and endings (played to the end, resigned, forfeited, with
// time-out moves; every player move under an idempotency key, as the SDK sends them) are read
// every way the API offers, compacted, and read again: every answer byte for byte the same. The
// job's runs take an injected `now`; COMPACT_AFTER_SECONDS is long enough that the hourly cron
// (with the worker on, for the records the history module stores) finds nothing on its own.
const DAY = 86_400_000;
const base = loadConfig({});

let t: TestApp;
let prisma: PrismaService;
let compaction: CompactionService;

interface Played {
  gameId: string;
  seated: TestPlayer[];
  preset: string;
  /** Keyed requests sent, with their answers: retried after compaction. */
  keyed: { token: string; query: string; input: Record<string, unknown>; answer: string }[];
}

beforeAll(async () => {
  t = await startTestApp({ compaction: { ...base.compaction, afterSeconds: 10 * 86_400, batch: 2 } });
  prisma = t.app.get(PrismaService);
  compaction = t.app.get(CompactionService);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const RESIGN = `mutation($input: ResignInput!) { resign(input: $input) { gameId version status events { seq type seat reason winners totals } game { phase toMove } } }`;

/** Plays `preset` with keyed moves; after `stopAfter` moves ends it as `end` says (null: plays to the end). */
async function play(preset: string, seed: number, seats: number, end: { after: number; how: 'resign' | 'forfeit' } | null, options: Record<string, unknown> = {}): Promise<Played> {
  const seated = await players(t, seats, 'cp');
  const gameId = await startGame(t, seated, preset, options);
  const random = rng(seed);
  const moves = t.app.get(MovesService);
  const keyed: Played['keyed'] = [];
  let turn = (await t.gql(TURN_QUERY, { id: gameId })).data!.game;
  let seat: number | null = turn.view.toMove;
  for (let n = 0; n < 3000 && seat !== null; n++) {
    const mine = (await t.gql(TURN_QUERY, { id: gameId }, seated[seat].token)).data!.game;
    if (end && n === end.after) {
      if (end.how === 'forfeit') await moves.forfeit(gameId, seat, mine.version);
      else {
        const input = { gameId, expectedVersion: mine.version, idempotencyKey: `resign-${gameId}` };
        const answer = await t.gql(RESIGN, { input }, seated[seat].token);
        expect(answer.errors).toBeUndefined();
        keyed.push({ token: seated[seat].token, query: RESIGN, input, answer: comparable(answer) });
      }
      break;
    }
    const move = pickMove(mine.view.legalMoves, random);
    if (n % 17 === 5) {
      // A time-out: the server moves for the seat (the system actor, no key).
      const result = await moves.moveFor(gameId, seat, seatlessMove(move as never), mine.version);
      turn = (await t.gql(TURN_QUERY, { id: gameId })).data!.game;
      seat = result.status === 'finished' ? null : turn.view.toMove;
      continue;
    }
    const input = { gameId, expectedVersion: mine.version, idempotencyKey: `k-${n}-${seed}`, ...move };
    const answer = await t.gql(MAKE_MOVE, { input }, seated[seat].token);
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    keyed.push({ token: seated[seat].token, query: MAKE_MOVE, input, answer: comparable(answer) });
    const result = answer.data!.makeMove;
    seat = result.status === 'finished' ? null : result.game.toMove;
  }
  await waitFor(async () => (await prisma.storedRecord.count({ where: { gameId } })) === 1, 'the stored record', { timeout: 30_000 });
  return { gameId, seated, preset, keyed };
}

/** A GraphQL answer as text, without the rate limit's count (each request's own). */
function comparable(answer: { data?: unknown; errors?: unknown }): string {
  return JSON.stringify({ data: answer.data, errors: answer.errors });
}

/** A full selection of a GraphQL type from the schema itself, to `depth`: every field without required arguments. */
let types: Map<string, { fields: { name: string; args: { type: { kind: string } }[]; type: TypeRef }[] | null }>;
interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
async function loadTypes(): Promise<void> {
  const ref = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } }';
  const r = await t.gql(`{ __schema { types { name fields { name args { type { kind } } type { ${ref} } } } } }`);
  types = new Map(r.data!.__schema.types.map((x: { name: string }) => [x.name, x]));
}
function named(ref: TypeRef): string {
  return ref.name ?? named(ref.ofType!);
}
function selection(type: string, depth: number): string {
  const fields = types.get(type)?.fields;
  if (!fields) return '';
  const parts: string[] = [];
  for (const f of fields) {
    if (f.args.some((a) => a.type.kind === 'NON_NULL')) continue;
    const inner = types.get(named(f.type))?.fields;
    if (!inner) parts.push(f.name);
    else if (depth > 0) {
      const sub = selection(named(f.type), depth - 1);
      if (sub) parts.push(`${f.name} { ${sub} }`);
    }
  }
  return parts.join(' ');
}

async function sse(path: string, token: string): Promise<string> {
  const response = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  // Keep-alive comments come at times of their own; the events are what is compared.
  return `${response.status} ${text.split('\n').filter((l) => !l.startsWith(':')).join('\n')}`;
}

/** Every read of the game the API offers, as text, by what was asked. */
async function readAll(g: Played): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const viewers: (TestPlayer | null)[] = [...g.seated, null];
  const version: number = (await t.gql(`query($id: ID!) { game(id: $id) { version } }`, { id: g.gameId })).data!.game.version;
  const gql = async (label: string, query: string, variables: Record<string, unknown>, token?: string) =>
    out.set(label, comparable(await t.gql(query, variables, token)));
  const rest = async (label: string, path: string, token?: string) => {
    const r = await t.rest('GET', path, undefined, token);
    out.set(label, `${r.status} ${JSON.stringify(r.body)}`);
  };
  const cursors: [number, number][] = [[0, 100], [0, 1], [5, 7], [Math.max(0, version - 3), 100], [version, 100], [Math.floor(version / 2), 50]];
  for (const [i, viewer] of viewers.entries()) {
    const token = viewer?.token;
    await gql(`game ${i}`, `query($id: ID!) { game(id: $id) { ${selection('Game', 4)} } }`, { id: g.gameId }, token);
    for (const [after, first] of cursors) {
      await gql(`gameEvents ${i} ${after} ${first}`, `query($id: ID!, $after: Int!, $first: Int!) { gameEvents(gameId: $id, after: $after, first: $first) { ${selection('GameEventLog', 4)} } }`, { id: g.gameId, after, first }, token);
      await rest(`events ${i} ${after} ${first}`, `/api/v1/games/${g.gameId}/events?after=${after}&first=${first}`, token);
    }
    await rest(`view ${i}`, `/api/v1/games/${g.gameId}`, token);
    if (viewer) {
      await gql(`myGames ${i}`, `{ myGames(status: finished) { ${selection('GamePage', 3)} } }`, {}, token);
      await rest(`players games ${i}`, `/api/v1/players/${viewer.name}/games`, token);
      await rest(`mine ${i}`, `/api/v1/games?status=finished`, token);
      await rest(`export ${i}`, `/api/v1/players/${viewer.name}/games/export`, token);
      out.set(`sse ${i} 0`, await sse(`/api/v1/games/${g.gameId}/events/stream`, viewer.token));
      out.set(`sse ${i} mid`, await sse(`/api/v1/games/${g.gameId}/events/stream?after=${version - 5}`, viewer.token));
    }
  }
  await gql('gameRecord', `query($id: ID!) { gameRecord(gameId: $id) { ${selection('GameRecord', 4)} } }`, { id: g.gameId });
  await gql('scoreSheet', `query($id: ID!) { scoreSheet(gameId: $id) { ${selection('ScoreSheet', 4)} } }`, { id: g.gameId });
  await rest('record', `/api/v1/games/${g.gameId}/record`);
  await rest('deals', `/api/v1/games/${g.gameId}/deals`);
  await gql('games', `query($preset: String) { games(first: 50, filter: { preset: $preset }) { ${selection('GamePage', 3)} } }`, { preset: g.preset });
  // The view `tricks` (rows, or once compacted the deals' packed tricks) as SQL reads it, and the
  // deals' columns but the packed tricks themselves.
  out.set('tricks rows', JSON.stringify(await prisma.$queryRaw`SELECT * FROM tricks WHERE game_id = ${g.gameId}::uuid ORDER BY deal_index, index`));
  out.set(
    'tricks by deal',
    JSON.stringify(await prisma.$queryRaw`SELECT deal_index, count(*)::int AS n, array_agg(winner ORDER BY index) AS winners FROM tricks WHERE game_id = ${g.gameId}::uuid GROUP BY 1 ORDER BY 1`),
  );
  // As their readers take them: a hash compaction dropped is its seed's (dealSeedHash).
  const deals = await prisma.deal.findMany({ where: { gameId: g.gameId }, orderBy: { index: 'asc' }, omit: { playedTricks: true } });
  out.set('deals rows', JSON.stringify(deals.map((d) => ({ ...d, seedHash: dealSeedHash(d) }))));
  // The move path's read (the stored state, or once compacted the state its compact log rebuilds).
  for (const [i, viewer] of viewers.entries()) {
    const read = await t.app.get(GameStore).read(g.gameId, viewer?.id ?? null, null);
    out.set(`store read ${i}`, JSON.stringify({ ...read, state: JSON.parse(encodeState(read!.state)) }));
  }
  return out;
}

/** Games whose games row still stores their state. */
async function storedStates(ids: readonly string[]): Promise<number> {
  const [{ n }] = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM games WHERE id = ANY(${ids}::uuid[]) AND state IS NOT NULL`;
  return n;
}

describe('compaction of finished games', () => {
  const games: Played[] = [];
  const before = new Map<string, Map<string, string>>();
  /** The games rows' `state` as stored before compaction (json text). */
  const states = new Map<string, string>();

  it('plays finished games of several presets and endings', async () => {
    await loadTypes();
    games.push(await play('short', 1, 3, null));
    games.push(await play('bidding', 2, 3, { after: 40, how: 'resign' }));
    games.push(await play('classic-4', 3, 4, { after: 35, how: 'forfeit' }));
    games.push(await play('short-4', 4, 4, { after: 25, how: 'resign' }));
    for (const g of games) before.set(g.gameId, await readAll(g));
    for (const r of await prisma.$queryRaw<{ id: string; state: string }[]>`SELECT id::text, state::text FROM games WHERE id = ANY(${games.map((g) => g.gameId)}::uuid[])`) {
      states.set(r.id, r.state);
    }
    expect(states.size).toBe(games.length);
    expect(games.every((g) => g.keyed.length > 10)).toBe(true);
  }, 600_000);

  it('leaves games alone until COMPACT_AFTER_SECONDS have passed', async () => {
    expect(await compaction.run(new Date())).toEqual({ compacted: 0, done: 0, kept: 0 });
    expect(await prisma.compactLog.count()).toBe(0);
  });

  it('compacts them: one row each, no log rows left, every read the same byte for byte', async () => {
    const rowsBefore = await prisma.gameEvent.count({ where: { gameId: { in: games.map((g) => g.gameId) } } });
    expect(rowsBefore).toBeGreaterThan(200);
    const counts = await compaction.run(new Date(Date.now() + 11 * DAY));
    expect(counts).toEqual({ compacted: games.length, done: 0, kept: 0 });
    expect(await prisma.gameEvent.count({ where: { gameId: { in: games.map((g) => g.gameId) } } })).toBe(0);
    expect(await prisma.compactLog.count()).toBe(games.length);
    // The tricks too: no row left, a packed deal for each deal that had tricks.
    const ids = games.map((g) => g.gameId);
    expect(await prisma.trick.count({ where: { gameId: { in: ids } } })).toBe(0);
    expect(await prisma.deal.count({ where: { gameId: { in: ids }, playedTricks: { not: null } } })).toBeGreaterThanOrEqual(games.length);
    // And the games rows' state and the stored records: rebuilt from the compact log by every read from now on.
    expect(await storedStates(ids)).toBe(0);
    expect(await prisma.storedRecord.count({ where: { gameId: { in: ids } } })).toBe(0);
    // And the deals' seed hashes, each its seed's: computed by every read from now on.
    expect(await prisma.deal.count({ where: { gameId: { in: ids }, seedHash: { not: null } } })).toBe(0);
    for (const g of games) {
      const after = await readAll(g);
      const was = before.get(g.gameId)!;
      expect([...after.keys()]).toEqual([...was.keys()]);
      for (const [label, text] of was) expect(`${g.preset} ${label}: ${after.get(label)}`).toBe(`${g.preset} ${label}: ${text}`);
    }
  }, 600_000);

  it('answers a retried move or resignation as the first time, after compaction too', async () => {
    for (const g of games) {
      for (const k of [g.keyed[0], g.keyed[Math.floor(g.keyed.length / 2)], g.keyed[g.keyed.length - 1]]) {
        expect(comparable(await t.gql(k.query, { input: k.input }, k.token))).toBe(k.answer);
      }
      // The same key for another request: refused as before compaction; a new key: the game is over.
      const last = g.keyed[g.keyed.length - 1];
      const other = await t.gql(last.query, { input: { ...last.input, expectedVersion: 1 } }, last.token);
      expect(other.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'idempotencyKey', reason: 'idempotency-key-reused' });
      const fresh = await t.gql(last.query, { input: { ...last.input, idempotencyKey: `new-${g.gameId}` } }, last.token);
      expect(fresh.errors?.[0].extensions?.code).toMatch(/ILLEGAL_MOVE|CONFLICT/);
    }
  }, 120_000);

  it('is idempotent: a second run, or one game compacted again, changes nothing', async () => {
    const stored = await prisma.compactLog.findMany({ orderBy: { gameId: 'asc' } });
    expect(await compaction.run(new Date(Date.now() + 12 * DAY))).toEqual({ compacted: 0, done: 0, kept: 0 });
    for (const g of games) expect(await compaction.compact(g.gameId)).toBe('done');
    expect(await prisma.compactLog.findMany({ orderBy: { gameId: 'asc' } })).toEqual(stored);
  });

  it('drops the state of a game compacted before the state was dropped (db:compact --from-start), only when the rebuild equals it', async () => {
    const [a, b] = games;
    // b's row given a's state: a state its compact log does not rebuild; a's its own, as before the change.
    await prisma.$executeRaw`UPDATE games SET state = ${states.get(a.gameId)}::json WHERE id = ${a.gameId}::uuid`;
    await prisma.$executeRaw`UPDATE games SET state = ${states.get(a.gameId)}::json WHERE id = ${b.gameId}::uuid`;
    await prisma.jobMark.deleteMany({ where: { name: 'compaction' } });
    expect(await compaction.run(new Date(Date.now() + 12 * DAY))).toEqual({ compacted: 1, done: 1, kept: 0 });
    expect(await storedStates([a.gameId])).toBe(0);
    expect(await storedStates([b.gameId])).toBe(1);
    const after = await readAll(a);
    for (const [label, text] of before.get(a.gameId)!) expect(`${label}: ${after.get(label)}`).toBe(`${label}: ${text}`);
    // b with its own state again: dropped by the next look at it.
    await prisma.$executeRaw`UPDATE games SET state = ${states.get(b.gameId)}::json WHERE id = ${b.gameId}::uuid`;
    expect(await compaction.compact(b.gameId)).toBe('compacted');
    expect(await storedStates([b.gameId])).toBe(0);
    expect(await compaction.compact(b.gameId)).toBe('done');
  }, 120_000);

  it('drops the seed hashes of a game compacted before they were dropped, only where each is its seed\'s', async () => {
    const [a] = games;
    // As before the change: a's hashes stored; one of them not its seed's (written by hand).
    await prisma.$executeRaw`UPDATE deals SET seed_hash = sha256(convert_to(encode(seed, 'hex'), 'UTF8')) WHERE game_id = ${a.gameId}::uuid`;
    await prisma.$executeRaw`UPDATE deals SET seed_hash = decode(repeat('ab', 32), 'hex') WHERE game_id = ${a.gameId}::uuid AND index = 0`;
    await prisma.jobMark.deleteMany({ where: { name: 'compaction' } });
    expect(await compaction.run(new Date(Date.now() + 12 * DAY))).toEqual({ compacted: 1, done: 0, kept: 0 });
    const kept = await prisma.deal.findMany({ where: { gameId: a.gameId, seedHash: { not: null } }, select: { index: true, seedHash: true } });
    expect(kept.map((d) => [d.index, Buffer.from(d.seedHash!).toString('hex')])).toEqual([[0, 'ab'.repeat(32)]]);
    // With the hand-written one gone too, every read is as before.
    await prisma.$executeRaw`UPDATE deals SET seed_hash = NULL WHERE game_id = ${a.gameId}::uuid`;
    expect(await compaction.compact(a.gameId)).toBe('done');
    const after = await readAll(a);
    for (const [label, text] of before.get(a.gameId)!) expect(`${label}: ${after.get(label)}`).toBe(`${label}: ${text}`);
  }, 120_000);

  it('picks up where a run stopped: games left as rows are compacted by the next run, from its mark', async () => {
    const more = [await play('short', 5, 3, { after: 12, how: 'resign' }), await play('short', 6, 3, { after: 9, how: 'forfeit' }), await play('bidding-4', 7, 4, { after: 8, how: 'resign' })];
    // The runs above were as of days ahead, and so is their mark: back to where a run of today leaves it.
    await prisma.jobMark.deleteMany({ where: { name: 'compaction' } });
    await compaction.run(new Date());
    const reads = new Map<string, Map<string, string>>();
    for (const g of more) reads.set(g.gameId, await readAll(g));
    // A run cut short after its first game (an instance killed): the one game is whole, the rest rows.
    expect(await compaction.compact(more[0].gameId)).toBe('compacted');
    expect(await prisma.gameEvent.count({ where: { gameId: more[0].gameId } })).toBe(0);
    expect(await prisma.gameEvent.count({ where: { gameId: more[1].gameId } })).toBeGreaterThan(0);
    expect(await compaction.run(new Date(Date.now() + 13 * DAY))).toEqual({ compacted: 2, done: 0, kept: 0 });
    for (const g of more) {
      const after = await readAll(g);
      for (const [label, text] of reads.get(g.gameId)!) expect(`${label}: ${after.get(label)}`).toBe(`${label}: ${text}`);
    }
  }, 600_000);

  it('keeps as rows a log the compact form cannot rebuild (a stored event changed), and says so', async () => {
    const g = await play('short', 8, 3, { after: 6, how: 'resign' });
    await prisma.$executeRaw`UPDATE game_events SET events = '[]' WHERE game_id = ${g.gameId}::uuid AND seq = 3`;
    expect(await compaction.compact(g.gameId)).toBe('kept');
    expect(await prisma.compactLog.count({ where: { gameId: g.gameId } })).toBe(0);
    expect(await prisma.gameEvent.count({ where: { gameId: g.gameId } })).toBeGreaterThan(5);
  }, 120_000);

  it('keeps as rows, state and all, a log whose replay does not end in the stored state', async () => {
    const g = await play('short', 10, 3, { after: 8, how: 'resign' });
    await prisma.$executeRaw`UPDATE games SET state = ${states.get(games[0].gameId)}::json WHERE id = ${g.gameId}::uuid`;
    expect(await compaction.compact(g.gameId)).toBe('kept');
    expect(await prisma.compactLog.count({ where: { gameId: g.gameId } })).toBe(0);
    expect(await storedStates([g.gameId])).toBe(1);
  }, 120_000);

  it('keeps a stored record that the compact log does not build the same (an edited one), the log compacted all the same', async () => {
    const g = await play('short', 11, 3, { after: 5, how: 'resign' });
    await prisma.$executeRaw`UPDATE game_records SET record = ('{"edited":true,' || substr(record::text, 2))::json WHERE game_id = ${g.gameId}::uuid`;
    const was = await readAll(g);
    expect(await compaction.compact(g.gameId)).toBe('compacted');
    expect(await prisma.storedRecord.count({ where: { gameId: g.gameId } })).toBe(1);
    expect(await storedStates([g.gameId])).toBe(0);
    const after = await readAll(g);
    for (const [label, text] of was) expect(`${label}: ${after.get(label)}`).toBe(`${label}: ${text}`);
  }, 120_000);

  it('keeps as rows tricks the packed form cannot read back (a card it does not know), the log compacted all the same', async () => {
    const g = await play('short', 9, 3, { after: 7, how: 'resign' });
    await prisma.$executeRaw`UPDATE live_tricks SET cards[1] = '10H' WHERE game_id = ${g.gameId}::uuid AND deal_index = 0 AND index = 0`;
    const rows = await prisma.trick.count({ where: { gameId: g.gameId } });
    expect(rows).toBeGreaterThan(0);
    const was = await readAll(g);
    expect(await compaction.compact(g.gameId)).toBe('compacted');
    expect(await prisma.trick.count({ where: { gameId: g.gameId } })).toBe(rows);
    expect(await prisma.deal.count({ where: { gameId: g.gameId, playedTricks: { not: null } } })).toBe(0);
    const after = await readAll(g);
    for (const [label, text] of was) expect(`${label}: ${after.get(label)}`).toBe(`${label}: ${text}`);
  }, 120_000);

  it('rebuilds a compacted log once for many page reads (the reader caches it)', async () => {
    const reader = t.app.get(GameLogReader);
    const a = await reader.compacted(games[0].gameId);
    expect(a).not.toBeNull();
    expect(await reader.compacted(games[0].gameId)).toBe(a);
    expect(await reader.compacted(games[0].seated[0].id)).toBeNull();
  });
});
