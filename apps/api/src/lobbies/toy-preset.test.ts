import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { FAMILIES, parsePlayerCount, PRESET_WORDS, PRESETS_OF_FAMILY } from '../games/index.js';
import { LOBBY_FIELDS, type LobbyView, players } from './lobbies.test-kit.js';

// A preset added in one place, the rules' preset table, and nowhere else: the server takes it,
// lists it and plays it.
vi.mock(import('../../../../libs/rules/src/presets.js'), async (original) => {
  const rules = await original();
  const toy = { name: 'toy', label: 'Toy', family: 'contract', players: 3, contracts: ['notrumps', 'mizerka'] } as const;
  return { ...rules, PRESET_TABLE: [...rules.PRESET_TABLE, toy] as unknown as typeof rules.PRESET_TABLE };
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CREATE = `mutation($input: CreateLobbyInput!) { createLobby(input: $input) { ${LOBBY_FIELDS} } }`;
const JOIN = `mutation($input: JoinLobbyInput!) { joinLobby(input: $input) { ${LOBBY_FIELDS} } }`;
const LIST = `query($preset: String) { lobbies(preset: $preset, first: 10) { total lobbies { id preset players } } }`;
const GAME = `query($id: ID!) { game(id: $id) { preset view { family players handSizes legalMoves { kind contracts } } } }`;

describe('a preset described only in the rules', () => {
  it('is one of the server’s presets, of its family', () => {
    expect(PRESETS_OF_FAMILY.contract).toContain('toy');
    expect(PRESETS_OF_FAMILY.bidding).not.toContain('toy');
    expect(FAMILIES).toStrictEqual(['contract', 'bidding']);
    expect(PRESET_WORDS).toBe('classic, classic-4, short, short-4, bidding, bidding-4 or toy');
    expect(parsePlayerCount(3)).toBe(3);
  });

  it('opens a lobby over GraphQL, is listed, and its game deals and offers its own contracts', async () => {
    const [host, a, b] = await players(t, 3, 'toy');
    const created = await t.gql<{ createLobby: LobbyView }>(CREATE, { input: { preset: 'toy', options: { mizerkaQuotas: 'same' } } }, host.token);
    expect(created.errors).toBeUndefined();
    const lobby = created.data!.createLobby;
    expect(lobby).toMatchObject({ preset: 'toy', players: 3, seatsFree: 2, options: { mizerkaQuotas: 'same' } });

    const listed = await t.gql<{ lobbies: { lobbies: { id: string; preset: string }[] } }>(LIST, { preset: 'toy' });
    expect(listed.data!.lobbies.lobbies.map((l) => l.id)).toContain(lobby.id);

    await t.gql(JOIN, { input: { lobbyId: lobby.id } }, a.token);
    const started = await t.gql<{ joinLobby: LobbyView }>(JOIN, { input: { lobbyId: lobby.id } }, b.token);
    expect(started.data!.joinLobby).toMatchObject({ status: 'started', gameId: expect.any(String) });

    const offered = [];
    for (const seated of [host, a, b]) {
      const game = await t.gql(GAME, { id: started.data!.joinLobby.gameId }, seated.token);
      expect(game.errors).toBeUndefined();
      // Dealt: the contract pause shows each seat 6 of its cards.
      expect(game.data!.game).toMatchObject({ preset: 'toy', view: { family: 'contract', players: 3, handSizes: [6, 6, 6] } });
      if (game.data!.game.view.legalMoves) offered.push(game.data!.game.view.legalMoves);
    }
    expect(offered).toStrictEqual([{ kind: 'contract', contracts: ['notrumps', 'mizerka'] }]); // the chooser's, and only theirs
  });

  it('opens a lobby over REST and is listed there; an unknown preset’s message names it among the known', async () => {
    const [host] = await players(t, 1, 'toyr');
    const created = await t.rest('POST', '/api/v1/lobbies', { preset: 'toy' }, host.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ preset: 'toy', players: 3 });
    const list = await t.rest('GET', '/api/v1/lobbies?preset=toy&first=10');
    expect(list.body.lobbies.map((l: LobbyView) => l.id)).toContain(created.body.id);

    const unknown = await t.rest('POST', '/api/v1/lobbies', { preset: 'poker' }, host.token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/known: classic, classic-4, short, short-4, bidding, bidding-4, toy/);
  });
});
