import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placesOf } from '@mizerka/rules';
import { startTestApp, type GraphQLResult, type TestApp } from '../../../../test/app.js';
import { withClient } from '../../../../test/database.js';
import { ExportService } from './history-export.js';
import { HistoryService } from './history.service.js';

// The games connection over a hand-built set of games with known answers: every filter, and every
// pair of filters of different kinds, paged, against the same filter applied here in memory.

let t: TestApp;
let people: { id: string; name: string; token: string }[];
const base = Date.parse('2026-01-01T00:00:00.000Z');
const PRESETS = ['classic', 'classic-4', 'short', 'short-4', 'bidding', 'bidding-4'];
const FAMILY: Record<string, string> = { classic: 'contract', 'classic-4': 'contract', short: 'contract', 'short-4': 'contract', bidding: 'bidding', 'bidding-4': 'bidding' };

interface Fixture {
  id: string;
  preset: string;
  n: number;
  seats: string[]; // player ids by seat; an imported game's other seats are names only (null here)
  playerSeats: (string | null)[];
  status: 'active' | 'finished' | 'forfeited';
  endReason: string | null;
  endSeat: number | null;
  rated: boolean;
  importedBy: string | null;
  createdAt: number;
  places: (number | null)[];
}
const games: Fixture[] = [];

async function sql(text: string, values: unknown[] = []) {
  return withClient(t.databaseUrl, (c) => c.query(text, values));
}

async function insertGame(g: Fixture, totals: number[]) {
  await withClient(t.databaseUrl, async (c) => {
    await c.query(
      `INSERT INTO games (id, preset, options, players, first_dealer, status, version, phase, state, totals, winners, rated,
                          imported_by, seat_names, end_reason, end_seat, created_at, updated_at, finished_at)
       VALUES ($1, $2, '{}', $3, 0, $4::"GameStatus", 1, 'play', '{}', $5, '{}', $6, $7, $8, $9, $10, $11, $11, $12)`,
      [
        g.id, g.preset, g.n, g.status === 'active' ? 'active' : 'finished', totals, g.rated, g.importedBy,
        g.importedBy ? g.playerSeats.map((p, s) => p ?? `ghost${s}`) : [], g.endReason, g.endSeat,
        new Date(g.createdAt), g.status === 'active' ? null : new Date(g.createdAt + 30_000),
      ],
    );
    for (let seat = 0; seat < g.n; seat++) {
      const player = g.playerSeats[seat];
      if (player === null) continue;
      await c.query('INSERT INTO game_seats (game_id, seat, player_id, total, place, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        g.id, seat, player, g.status === 'active' ? null : totals[seat], g.places[seat], new Date(g.createdAt),
      ]);
    }
  });
}

beforeAll(async () => {
  t = await startTestApp();
  people = [];
  for (const name of ['ala', 'bob', 'cyd', 'dan', 'eve']) people.push({ name, ...(await t.register(name)) });
  const kinds = [
    { status: 'active', endReason: null },
    { status: 'finished', endReason: null },
    { status: 'forfeited', endReason: 'forfeit' },
    { status: 'finished', endReason: 'resigned' },
    { status: 'finished', endReason: null },
  ] as const;
  for (let i = 0; i < 60; i++) {
    const preset = PRESETS[i % 6];
    const n = preset.endsWith('-4') ? 4 : 3;
    const rotated = [...people.slice(i % 5), ...people.slice(0, i % 5)];
    const seats = rotated.slice(0, n).map((p) => p.id);
    const imported = i % 11 === 4;
    const kind = imported ? kinds[1] : kinds[(i * 3 + Math.floor(i / 6)) % 5];
    const totals = seats.map((_, s) => (i * 13 + s * 7) % 19);
    const endSeat = kind.endReason ? i % n : null;
    const over = kind.status !== 'active';
    const places = over ? placesOf(totals, endSeat) : seats.map(() => null);
    const g: Fixture = {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      preset,
      n,
      seats,
      playerSeats: imported ? seats.map((p, s) => (s === 0 ? p : null)) : seats,
      status: kind.status,
      endReason: kind.endReason,
      endSeat,
      rated: !imported && i % 3 !== 0,
      importedBy: imported ? seats[0] : null,
      // Two games share each time: the id breaks the tie.
      createdAt: base + Math.floor(i / 2) * 60_000,
      places,
    };
    games.push(g);
    await insertGame(g, totals);
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const GAMES = `query($filter: GameFilter, $first: Int, $after: String) {
  games(filter: $filter, first: $first, after: $after) {
    edges { cursor node { id preset family playerCount status rated imported importedBy createdAt finishedAt endReason
                          players { seat playerId name kind total place } } }
    pageInfo { hasNextPage endCursor } } }`;

type Filter = Record<string, unknown>;

/** Every page of a query, in order. */
async function all(filter: Filter, first: number, token?: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < 100; page++) {
    const r: GraphQLResult = await t.gql(GAMES, { filter, first, after }, token);
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    const c: any = r.data!.games;
    ids.push(...c.edges.map((e: any) => e.node.id));
    if (!c.pageInfo.hasNextPage) return ids;
    after = c.pageInfo.endCursor;
  }
  throw new Error('too many pages');
}

/** The filter applied in memory, newest first; `caller` is the subject when no player is named. */
function expected(filter: Filter, caller: string): string[] {
  const idOf = (name: string) => people.find((p) => p.name === name)!.id;
  const named = ((filter.players as string[] | undefined) ?? []).map(idOf);
  const subject = named[0] ?? caller;
  const place = (g: Fixture) => g.places[g.playerSeats.indexOf(subject)] ?? null;
  return games
    .filter((g) => named.every((p) => g.playerSeats.includes(p)))
    .filter((g) => filter.preset === undefined || g.preset === filter.preset)
    .filter((g) => filter.family === undefined || FAMILY[g.preset] === filter.family)
    .filter((g) => filter.playerCount === undefined || g.n === filter.playerCount)
    .filter((g) => filter.status === undefined || g.status === filter.status)
    .filter((g) => filter.rated === undefined || g.rated === filter.rated)
    .filter((g) => filter.imported === undefined || (g.importedBy !== null) === filter.imported)
    .filter((g) => filter.from === undefined || g.createdAt >= Date.parse(filter.from as string))
    .filter((g) => filter.to === undefined || g.createdAt < Date.parse(filter.to as string))
    .filter((g) => (filter.result === undefined && filter.place === undefined) || g.playerSeats.includes(subject))
    .filter((g) => filter.result === undefined || (filter.result === 'WON' ? place(g) === 1 : (place(g) ?? 0) > 1))
    .filter((g) => filter.place === undefined || place(g) === filter.place)
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .map((g) => g.id);
}

const KINDS: Filter[][] = [
  [{ players: ['ala'] }, { players: ['bob', 'cyd'] }],
  [{ preset: 'short' }],
  [{ family: 'bidding' }],
  [{ playerCount: 4 }],
  [{ status: 'active' }, { status: 'finished' }, { status: 'forfeited' }],
  [{ rated: true }, { rated: false }],
  [{ imported: true }, { imported: false }],
  [{ from: new Date(base + 10 * 60_000).toISOString() }],
  [{ to: new Date(base + 20 * 60_000).toISOString() }],
  [{ result: 'WON' }, { result: 'LOST' }],
  [{ place: 2 }],
];
const singles = KINDS.flat();
const pairs = KINDS.flatMap((kind, i) => KINDS.slice(i + 1).flatMap((other) => kind.flatMap((a) => other.map((b) => ({ ...a, ...b })))));

describe('games connection', () => {
  it('has fixtures that make every filter matter', () => {
    for (const f of singles) {
      const hits = expected(f, people[0].id).length;
      expect(hits, JSON.stringify(f)).toBeGreaterThan(0);
      expect(hits, JSON.stringify(f)).toBeLessThan(games.length);
    }
  });

  it.each(singles.map((f) => [JSON.stringify(f), f] as const))('filters by %s', async (_, filter) => {
    expect(await all(filter, 7, people[0].token)).toEqual(expected(filter, people[0].id));
  });

  it('has pairs of filters that mostly match something', () => {
    expect(pairs.filter((f) => expected(f, people[0].id).length > 0).length).toBeGreaterThan(pairs.length / 2);
  });

  it.each(pairs.map((f) => [JSON.stringify(f), f] as const))('filters by the pair %s', async (_, filter) => {
    expect(await all(filter, 9, people[0].token)).toEqual(expected(filter, people[0].id));
  });

  it('lists every game newest first without a filter, and pages without gap or duplicate', async () => {
    const want = expected({}, people[0].id);
    expect(want).toHaveLength(60);
    for (const first of [1, 5, 60, 100]) expect(await all({}, first)).toEqual(want);
  });

  it('shows summaries with bots and imported games as such, and never a card', async () => {
    await sql(`UPDATE players SET kind = 'bot', bot_level = 'basic' WHERE name = 'eve'`);
    const r = await t.gql(GAMES, { filter: { players: ['ala'] }, first: 100 });
    const nodes = r.data!.games.edges.map((e: any) => e.node);
    const eveSeat = nodes.flatMap((n: any) => n.players).find((p: any) => p.name === 'eve');
    expect(eveSeat.kind).toBe('bot');
    const imported = nodes.find((n: any) => n.imported);
    expect(imported).toMatchObject({ rated: false, importedBy: 'ala', status: 'finished' });
    expect(imported.players.filter((p: any) => p.playerId === null).map((p: any) => p.name)).toEqual(
      imported.players.slice(1).map((_: unknown, i: number) => `ghost${i + 1}`),
    );
    expect(JSON.stringify(nodes)).not.toMatch(/"[2-9TJQKA][CDHS]"/);
    await sql(`UPDATE players SET kind = 'human', bot_level = NULL WHERE name = 'eve'`);
  });

  it('shows a place only once the game is over, on both surfaces', async () => {
    // The fixtures' active games have totals that rank the seats: a provisional place must not show.
    const active = await t.gql(GAMES, { filter: { players: ['ala'], status: 'active' }, first: 100 });
    const activeNodes = active.data!.games.edges.map((e: any) => e.node);
    expect(activeNodes.length).toBeGreaterThan(0);
    for (const node of activeNodes) for (const p of node.players) expect(p.place, node.id).toBeNull();
    const rest = await t.rest('GET', '/api/v1/players/ala/games?status=active&first=100');
    expect(rest.body.items.map((g: any) => g.id)).toEqual(activeNodes.map((n: any) => n.id));
    for (const g of rest.body.items) for (const p of g.players) expect(p.place, g.id).toBeNull();
    const mine = await t.rest('GET', '/api/v1/games?first=100', undefined, people[0].token);
    for (const g of mine.body.items) for (const p of g.players) expect(p.place, g.id).toBeNull();
    // A finished game keeps its places.
    const over = await t.rest('GET', '/api/v1/players/ala/games?status=finished&first=100');
    for (const g of over.body.items) expect(g.players.map((p: any) => p.place)).toEqual(games.find((f) => f.id === g.id)!.places);
  });

  it('fits a full page with every field within the query limits', async () => {
    const full = `{ games(first: 100) { edges { cursor node { id preset family playerCount status rated imported importedBy createdAt
      finishedAt endReason players { seat playerId name kind botLevel total place } } } pageInfo { hasNextPage endCursor } } }`;
    const r = await t.gql(full);
    expect(r.errors).toBeUndefined();
    expect(r.data!.games.edges.length).toBeGreaterThanOrEqual(60);
  });

  it('answers REST with the same games and cursors', async () => {
    const first = await t.rest('GET', '/api/v1/players/bob/games?with=cyd&status=finished&first=2');
    expect(first.status).toBe(200);
    const want = expected({ players: ['bob', 'cyd'], status: 'finished' }, people[0].id);
    const ids = first.body.items.map((g: any) => g.id);
    let after = first.body.nextCursor;
    while (after) {
      const next = await t.rest('GET', `/api/v1/players/bob/games?with=cyd&status=finished&first=2&after=${after}`);
      ids.push(...next.body.items.map((g: any) => g.id));
      after = next.body.nextCursor;
    }
    expect(ids).toEqual(want);
    const gql = await t.gql(GAMES, { filter: { players: ['bob', 'cyd'], status: 'finished' }, first: 2 });
    expect(gql.data!.games.pageInfo.endCursor).toBe(first.body.nextCursor);
  });

  it("gives the caller their own games at GET /games, active ones by default, with the same filters", async () => {
    const ala = people[0];
    const ids = (r: { body: any }) => r.body.items.map((g: any) => g.id);
    const active = await t.rest('GET', '/api/v1/games?first=100', undefined, ala.token);
    expect(ids(active)).toEqual(expected({ players: ['ala'], status: 'active' }, ala.id));
    const filtered = await t.rest('GET', '/api/v1/games?status=finished&with=bob&rated=true&first=100', undefined, ala.token);
    expect(ids(filtered)).toEqual(expected({ players: ['ala', 'bob'], status: 'finished', rated: true }, ala.id));
    expect(filtered.body.items.length).toBeGreaterThan(0);
    for (const g of filtered.body.items) {
      expect(g.players[g.mySeat].name).toBe('ala');
      expect(g).toMatchObject({ myTurn: false, version: 1 });
    }
    const won = await t.rest('GET', '/api/v1/games?status=finished&result=WON&first=100', undefined, ala.token);
    expect(ids(won)).toEqual(expected({ players: ['ala'], status: 'finished', result: 'WON' }, ala.id));
  });

  it('refuses bad filters naming the field', async () => {
    const cases: [string, string][] = [
      ['/api/v1/players/ala/games?playerCount=5', 'playerCount'],
      ['/api/v1/players/ala/games?family=poker', 'family'],
      ['/api/v1/players/ala/games?preset=chess', 'preset'],
      ['/api/v1/players/ala/games?status=paused', 'status'],
      ['/api/v1/players/ala/games?after=bogus', 'after'],
      ['/api/v1/players/ala/games?place=9', 'place'],
    ];
    for (const [path, field] of cases) {
      const r = await t.rest('GET', path);
      expect(r.status, path).toBe(400);
      expect(JSON.stringify(r.body), path).toContain(field);
    }
    expect((await t.rest('GET', '/api/v1/players/nobody/games')).status).toBe(404);
    const anonymous = await t.gql(GAMES, { filter: { result: 'WON' } });
    expect(anonymous.errors?.[0].extensions?.code).toBe('BAD_INPUT');
  });

  it('refuses an impossible calendar date as BAD_INPUT naming the field, on both surfaces, and takes a real one', async () => {
    for (const [field, value] of [['to', '2026-02-30T00:00:00Z'], ['from', '2026-04-31T10:00:00Z'], ['to', '2026-13-01T00:00:00Z'], ['from', 'yesterday']]) {
      const rest = await t.rest('GET', `/api/v1/players/ala/games?${field}=${value}`);
      expect(rest.status, value).toBe(400);
      expect(rest.body, value).toMatchObject({ code: 'BAD_INPUT', field });
      const byVariable = await t.gql(GAMES, { filter: { [field]: value } });
      expect(byVariable.errors?.[0].extensions, value).toMatchObject({ code: 'BAD_INPUT', field: `filter.${field}` });
      const literal = await t.gql(`{ games(filter: { ${field}: "${value}" }) { pageInfo { hasNextPage } } }`);
      expect(literal.errors?.[0].extensions, value).toMatchObject({ code: 'BAD_INPUT', field: `filter.${field}` });
    }
    const leapDay = await t.rest('GET', '/api/v1/players/ala/games?from=2028-02-29T00:00:00Z&first=100');
    expect(leapDay.status).toBe(200);
    expect(leapDay.body.items).toEqual([]);
    const upTo = new Date(base + 20 * 60_000).toISOString();
    expect(await all({ to: upTo }, 50, people[0].token)).toEqual(expected({ to: upTo }, people[0].id));
  });

  it('pages without gap or duplicate while games finish and new ones start', async () => {
    const want = expected({ players: ['ala'] }, people[0].id);
    const seen: string[] = [];
    let after: string | null = null;
    let round = 0;
    do {
      const r: GraphQLResult = await t.gql(GAMES, { filter: { players: ['ala'] }, first: 3, after }, people[0].token);
      const c: any = r.data!.games;
      seen.push(...c.edges.map((e: any) => e.node.id));
      after = c.pageInfo.hasNextPage ? c.pageInfo.endCursor : null;
      // Between pages: an active game of ala's finishes, and a new one starts (now: newer than all).
      const active = games.find((g) => g.status === 'active' && g.playerSeats.includes(people[0].id) && !g.id.endsWith('f'));
      if (active) {
        await sql(`UPDATE games SET status = 'finished', finished_at = now(), updated_at = now() WHERE id = $1`, [active.id]);
        active.status = 'finished';
      }
      const seats = [people[0].id, people[1].id, people[2].id];
      const fresh: Fixture = {
        ...games[0],
        id: `00000000-0000-4000-8000-00000000f${String(round++).padStart(3, '0')}`,
        seats,
        playerSeats: seats,
        status: 'active',
        places: [null, null, null],
        createdAt: Date.now(),
      };
      await insertGame(fresh, [0, 0, 0]);
      games.push(fresh);
    } while (after);
    expect(seen).toEqual(want);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('export', () => {
  it('holds no database connection while its client takes nothing, and stops when the client leaves', async () => {
    const history = t.app.get(HistoryService);
    const exports = t.app.get(ExportService);
    const q = await history.query({ players: ['ala'] }, null);
    // A client that takes nothing: the first line fills its buffer, the export waits, then the client leaves.
    let firstLine!: () => void;
    const wrote = new Promise<void>((resolve) => (firstLine = resolve));
    const client = new Writable({ highWaterMark: 1, write: () => firstLine() });
    const done = exports.stream(q, 10_000, client);
    await wrote;
    const busy = await sql(`SELECT state, query FROM pg_stat_activity WHERE application_name = 'mizerka-history' AND state <> 'idle'`);
    expect(busy.rows).toEqual([]); // the page was read and its connection released before the line was written
    client.destroy();
    await done;
  });

  it('streams only finished games, as NDJSON', async () => {
    const r = await fetch(`${t.baseUrl}/api/v1/players/ala/games/export`);
    expect(r.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await r.text()).split('\n').filter((l) => l !== '');
    const finished = expected({ players: ['ala'] }, people[0].id).filter((id) => games.find((g) => g.id === id)?.status !== 'active');
    expect(lines.length).toBe(finished.length);
    for (const line of lines) expect(JSON.parse(line).format).toBe('mizerka-record/1');
    const limited = await (await fetch(`${t.baseUrl}/api/v1/players/ala/games/export?limit=2&status=forfeited`)).text();
    expect(limited.split('\n').filter((l) => l !== '')).toHaveLength(2);
    expect((await fetch(`${t.baseUrl}/api/v1/players/ala/games/export?limit=0`)).status).toBe(400);
  });
});
