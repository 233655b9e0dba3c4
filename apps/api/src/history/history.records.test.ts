import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardName, makeRules, replay, shuffledDeck, type GameRecord } from '@mizerka/rules';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { playRandomGame } from '../../../../libs/rules/test-kit/driver.js';
import { makeRng } from '../../../../libs/rules/test-kit/rng.js';
import { MAX_BODY_BYTES, MAX_RECORD_BYTES } from '../common/input-limits.js';
import { cardNamesIn, players, playThrough, startGame, type TestPlayer } from '../games/games.test-kit.js';

// Real games played through the API, then exported, replayed with the rules library, and imported.

let t: TestApp;
let seated: TestPlayer[];
let played: string; // a short game played to its end
let resigned: string; // a classic game that seat 1 resigned
let active: string; // a game in progress
let importer: TestPlayer;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const RESIGN = `mutation($input: ResignInput!) { resign(input: $input) { status } }`;
const VIEW = `query($id: ID!) { game(id: $id) { status imported players { seat playerId name total place } deals { index seed seedHash } } }`;
const SHEET = `query($id: ID!) { scoreSheet(gameId: $id) { status imported standings { seat playerId name total place } deals { index scores tricks { cards } } } }`;
const RECORD = `query($id: ID!) { gameRecord(gameId: $id) { format players firstDealer deals { deck moves { seat play contract exchange bid discard trump } } end { seat reason } } }`;
const IMPORT = `mutation($record: JSON!, $seat: Int) { importGame(record: $record, seat: $seat) { gameId seat } }`;
const GAMES = `query($filter: GameFilter) { games(filter: $filter, first: 100) { edges { node { id status imported importedBy rated endReason players { name playerId place total } } } } }`;

async function exportOf(name: string, query = ''): Promise<GameRecord[]> {
  const r = await fetch(`${t.baseUrl}/api/v1/players/${name}/games/export${query}`);
  expect(r.status).toBe(200);
  return (await r.text()).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as GameRecord);
}

beforeAll(async () => {
  t = await startTestApp();
  seated = await players(t, 3, 'h');
  [importer] = await players(t, 1, 'imp');
  played = await startGame(t, seated, 'short');
  await playThrough(t, seated, played, 7);
  resigned = await startGame(t, seated, 'classic');
  await playThrough(t, seated, resigned, 11, 12);
  const version = (await t.gql('query($id: ID!) { game(id: $id) { version } }', { id: resigned })).data!.game.version;
  const answer = await t.gql(RESIGN, { input: { gameId: resigned, expectedVersion: version } }, seated[1].token);
  expect(answer.errors).toBeUndefined();
  active = await startGame(t, seated, 'bidding');
  await playThrough(t, seated, active, 3, 8);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('export of games played here', () => {
  it('replays each record to the stored standings, and its decks are the committed seeds', async () => {
    const records = await exportOf(seated[0].name);
    expect(records).toHaveLength(2); // the game in progress is left out
    for (const [id, record] of [[resigned, records[0]], [played, records[1]]] as const) {
      const view = (await t.gql(VIEW, { id })).data!.game;
      const result = replay(record);
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      expect(result.value.outcome.finished).toBe(true);
      expect(result.value.outcome.totals).toEqual(view.players.map((p: any) => p.total));
      const sheet = (await t.gql(SHEET, { id })).data!.scoreSheet;
      expect(sheet.standings.map((p: any) => p.place)).toEqual(view.players.map((p: any) => p.place));
      expect(record.players).toEqual(seated.map((p) => p.name));
      const rules = makeRules(record.rules.preset, record.rules.options);
      if (!rules.ok) throw new Error(rules.error.message);
      expect(view.deals).toHaveLength(record.deals.length);
      for (const deal of view.deals) {
        expect(sha256(deal.seed)).toBe(deal.seedHash);
        expect(shuffledDeck(rules.value, deal.seed).map(cardName)).toEqual(record.deals[deal.index].deck);
      }
      // The one record builder: the export's line is the record the game gives.
      const single = (await t.rest('GET', `/api/v1/games/${id}/record`)).body;
      expect(record).toEqual(single);
    }
    expect(records[0].end).toEqual({ seat: 1, reason: 'resigned' });
  });

  it('carries the revealed seeds with seeds=true: each hashes to its commitment and shuffles to its deck', async () => {
    const r = await fetch(`${t.baseUrl}/api/v1/players/${seated[0].name}/games/export?seeds=true`);
    const lines = (await r.text()).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.gameId)).toEqual([resigned, played]);
    for (const { gameId, seeds, record } of lines) {
      const committed = (await t.gql(VIEW, { id: gameId })).data!.game.deals.map((d: any) => d.seedHash);
      expect(seeds.map((s: any) => s.seedHash)).toEqual(committed);
      const rules = makeRules(record.rules.preset, record.rules.options);
      if (!rules.ok) throw new Error(rules.error.message);
      seeds.forEach((s: any, i: number) => {
        expect(sha256(s.seed)).toBe(s.seedHash);
        expect(shuffledDeck(rules.value, s.seed).map(cardName)).toEqual(record.deals[i].deck);
      });
      expect(replay(record).ok).toBe(true);
    }
  });

  it('never shows a card of the game in progress in any history surface', async () => {
    const all = await t.gql(GAMES, { filter: { players: [seated[0].name] } });
    const node = all.data!.games.edges.map((e: any) => e.node).find((n: any) => n.id === active);
    expect(node.status).toBe('active');
    expect(cardNamesIn(all.data)).toEqual(new Set());
    expect(cardNamesIn((await t.rest('GET', `/api/v1/players/${seated[0].name}/games?status=active`)).body)).toEqual(new Set());
    expect(await exportOf(seated[0].name, '?status=active')).toEqual([]);
  });
});

describe('import', () => {
  let record: GameRecord;
  let imported: string;

  beforeAll(async () => {
    record = { ...(await exportOf(seated[0].name, '?preset=short'))[0], players: ['Old One', importer.name, 'Old Two'] };
  });

  it('stores a legal record as an archived, unrated game of the importer, shown as imported everywhere', async () => {
    const r = await t.gql(IMPORT, { record }, importer.token);
    expect(r.errors).toBeUndefined();
    expect(r.data!.importGame.seat).toBe(1);
    imported = r.data!.importGame.gameId;

    const view = (await t.gql(VIEW, { id: imported }, importer.token)).data!.game;
    const original = (await t.gql(VIEW, { id: played })).data!.game;
    expect(view).toMatchObject({ status: 'finished', imported: true });
    expect(view.players.map((p: any) => [p.name, p.playerId, p.total, p.place])).toEqual(
      original.players.map((p: any, seat: number) => [record.players![seat], seat === 1 ? importer.id : null, p.total, p.place]),
    );
    expect(view.deals.every((d: any) => d.seed === null)).toBe(true);

    const sheet = (await t.gql(SHEET, { id: imported })).data!.scoreSheet;
    const originalSheet = (await t.gql(SHEET, { id: played })).data!.scoreSheet;
    expect(sheet.imported).toBe(true);
    expect(sheet.deals).toEqual(originalSheet.deals);
    expect(sheet.standings.map((p: any) => p.name)).toEqual(record.players);

    const again = (await t.gql(RECORD, { id: imported })).data!.gameRecord;
    const first = (await t.gql(RECORD, { id: played })).data!.gameRecord;
    expect(again).toEqual({ ...first, players: record.players });

    const version = (await t.gql('query($id: ID!) { game(id: $id) { version } }', { id: imported })).data!.game.version;
    expect(version).toBe((await t.gql('query($id: ID!) { game(id: $id) { version } }', { id: played })).data!.game.version);
    const log = await t.rest('GET', `/api/v1/games/${imported}/events?after=${version - 1}`);
    expect(log.body.entries.at(-1).events.map((e: any) => e.type)).toContain('gameOver');

    const listed = (await t.gql(GAMES, { filter: { players: [importer.name] } })).data!.games.edges.map((e: any) => e.node);
    expect(listed).toEqual([
      expect.objectContaining({ id: imported, imported: true, importedBy: importer.name, rated: false, status: 'finished' }),
    ]);
    expect((await t.gql(GAMES, { filter: { players: [importer.name], imported: false } })).data!.games.edges).toEqual([]);
    const rest = (await t.rest('GET', `/api/v1/games/${played}/record`)).body;
    expect(await exportOf(importer.name)).toEqual([{ ...rest, players: record.players }]);
  });

  it('takes the seat from the request when the record does not name the importer', async () => {
    const r = await t.rest('POST', '/api/v1/games/import?seat=2', { ...record, players: undefined }, importer.token);
    expect(r.status).toBe(201);
    expect(r.body.seat).toBe(2);
    const unnamed = await t.rest('POST', '/api/v1/games/import', { ...record, players: ['a', 'b', 'c'] }, importer.token);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.field).toBe('seat');
  });

  it('takes a record longer than the ordinary body limit, up to its own', async () => {
    const rules = makeRules('bidding');
    if (!rules.ok) throw new Error(rules.error.message);
    const names = [importer.name, 'x', 'y'];
    let long: GameRecord | null = null;
    for (let seed = 1; long === null && seed < 200; seed++) {
      const game = playRandomGame(rules.value, makeRng(seed), { keepSteps: false, players: names });
      if (JSON.stringify(game.record).length > MAX_BODY_BYTES) long = game.record;
    }
    expect(long).not.toBeNull();
    const r = await t.rest('POST', '/api/v1/games/import', long, importer.token);
    expect(r.status).toBe(201);
    const huge = { ...long, players: [importer.name, 'x'.repeat(MAX_RECORD_BYTES), 'y'] };
    const refused = await t.rest('POST', '/api/v1/games/import', huge, importer.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ limit: 'bodySize', max: MAX_RECORD_BYTES });
    // Elsewhere the ordinary limit holds.
    const elsewhere = await t.rest('POST', '/api/v1/lobbies', long, importer.token);
    expect(elsewhere.body).toMatchObject({ limit: 'bodySize', max: MAX_BODY_BYTES });
  });

  it('answers the same record imported again by the same player with the first game, not a second one', async () => {
    const body = { ...record, players: ['Again One', importer.name, 'Again Two'] };
    const first = await t.rest('POST', '/api/v1/games/import', body, importer.token);
    expect(first.status).toBe(201);
    const again = await t.rest('POST', '/api/v1/games/import', body, importer.token);
    expect(again.body).toEqual(first.body);
    const viaGql = await t.gql(IMPORT, { record: body }, importer.token);
    expect(viaGql.data!.importGame).toEqual(first.body);
    // Someone else's import of it is theirs.
    const [other] = await players(t, 1, 'imo');
    const theirs = await t.rest('POST', '/api/v1/games/import?seat=0', body, other.token);
    expect(theirs.status).toBe(201);
    expect(theirs.body.gameId).not.toBe(first.body.gameId);
  });

  it('keeps the bots the record names: in the record, the views and the score sheet', async () => {
    const body = { ...record, players: ['Robo', importer.name, 'Tin'], bots: ['strong', null, 'account'] };
    const r = await t.rest('POST', '/api/v1/games/import', body, importer.token);
    expect(r.status).toBe(201);
    const id = r.body.gameId;
    const got = (await t.rest('GET', `/api/v1/games/${id}/record`)).body;
    expect(got.bots).toEqual(['strong', null, 'account']);
    const kinds = (list: any[]) => list.map((p: any) => [p.kind, p.botLevel]);
    const expected = [['bot', 'strong'], ['human', null], ['bot', null]];
    expect(kinds((await t.gql('query($id: ID!) { game(id: $id) { players { kind botLevel } } }', { id })).data!.game.players)).toEqual(expected);
    expect(kinds((await t.rest('GET', `/api/v1/games/${id}/deals`)).body.standings)).toEqual(expected);
    const listed = (await t.gql('query($f: GameFilter) { games(filter: $f, first: 100) { edges { node { id players { kind botLevel } } } } }', { f: { players: [importer.name] } }))
      .data!.games.edges.map((e: any) => e.node).find((n: any) => n.id === id);
    expect(kinds(listed.players)).toEqual(expected);
  });

  it('says that an imported game cannot be played again', async () => {
    const r = await t.rest('POST', '/api/v1/games/import', { ...record, players: ['P1', importer.name, 'P2'], firstDealer: record.firstDealer }, importer.token);
    const again = await t.rest('POST', `/api/v1/games/${r.body.gameId}/play-again`, undefined, importer.token);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/imported game cannot be played again/);
  });

  it('refuses an illegal record with a 400 naming the first illegal move', async () => {
    const deals = record.deals.map((d) => ({ ...d, moves: [...d.moves] }));
    const at = deals[0].moves.findIndex((m) => m.play !== undefined);
    deals[0].moves[at] = { ...deals[0].moves[at], seat: (deals[0].moves[at].seat + 1) % 3 };
    const r = await t.rest('POST', '/api/v1/games/import', { ...record, deals }, importer.token);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_INPUT');
    expect(r.body.detail ?? r.body.message ?? r.body.title).toContain(`deal 0, move ${at}: illegal move (not-your-turn)`);
    expect(r.body).toMatchObject({ field: 'record', rule: 'not-your-turn', dealIndex: 0, moveIndex: at });

    const cases: [unknown, string][] = [
      [{ ...record, format: 'other' }, 'bad-format'],
      [{ ...record, extra: 1 }, 'bad-record'],
      [{ ...record, deals: [{ ...record.deals[0], deck: record.deals[0].deck.slice(1) }] }, 'deck-length'],
      [{ ...record, deals: record.deals.slice(0, 1) }, 'finished'],
      [[1, 2], 'bad-record'],
    ];
    for (const [body, words] of cases) {
      const bad = await t.rest('POST', '/api/v1/games/import', body, importer.token);
      expect(bad.status, words).toBe(400);
      expect(JSON.stringify(bad.body), words).toContain(words);
    }
    const gql = await t.gql(IMPORT, { record: { ...record, deals } }, importer.token);
    expect(gql.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_INPUT', rule: 'not-your-turn' } });
    expect(gql.errors?.[0].message).toContain(`move ${at}`);
    expect((await t.rest('POST', '/api/v1/games/import', record)).status).toBe(401);
  });
});

describe('a game that ends mid-deal', () => {
  // The deal's facts known at the resignation (a chosen contract; a declarer, bid and trump) are on
  // the live game's score sheet as on the sheet of its record imported: one rule writes both.
  it.each([
    ['classic', 'contract'],
    ['bidding', 'trump'],
  ] as const)('%s: the live score sheet equals the imported record’s', async (preset, fixing) => {
    const table = await players(t, 3, 'mid');
    const id = await startGame(t, table, preset);
    // One move at a time until the move that fixes the fact is made.
    let kinds: string[] = [];
    for (let seed = 1; !kinds.includes(fixing); seed++) {
      await playThrough(t, table, id, seed, 1);
      kinds = (await t.rest('GET', `/api/v1/games/${id}/events?after=0`, undefined, table[0].token)).body.entries.map((e: any) => e.kind);
    }
    const version = (await t.gql('query($id: ID!) { game(id: $id) { version } }', { id })).data!.game.version;
    const resigned = await t.gql(RESIGN, { input: { gameId: id, expectedVersion: version } }, table[1].token);
    expect(resigned.errors).toBeUndefined();

    const record = (await t.rest('GET', `/api/v1/games/${id}/record`)).body;
    const imported = await t.rest('POST', '/api/v1/games/import?seat=0', record, importer.token);
    expect(imported.status).toBe(201);
    // The seed's hash (a commitment) and the deck's (an import's) are different things: left out.
    const sheet = async (gameId: string) =>
      (await t.rest('GET', `/api/v1/games/${gameId}/deals`)).body.deals.map(({ seedHash: _, ...d }: any) => d);
    const live = await sheet(id);
    expect(live.at(-1)).toMatchObject(preset === 'classic' ? { contract: expect.any(String) } : { declarer: expect.any(Number), bid: expect.any(String), trump: expect.any(String) });
    expect(live).toEqual(await sheet(imported.body.gameId));
  });
});
