import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';
import { player } from './lobbies.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ quotas: { ...loadConfig({}).quotas, openLobbiesPerPlayer: 2 } });
});
afterAll(async () => {
  await t?.close();
});

const CREATE = 'mutation { createLobby(input: { preset: "short" }) { id } }';

describe('open lobbies per player', () => {
  it('refuses a third open lobby, created or joined, with CONFLICT; leaving one frees a place', async () => {
    const ala = await player(t, 'lim');
    const other = await player(t, 'limo');
    const first = await t.gql(CREATE, {}, ala.token);
    expect(first.errors).toBeUndefined();
    expect((await t.gql(CREATE, {}, ala.token)).errors).toBeUndefined();

    const third = await t.gql(CREATE, {}, ala.token);
    expect(third.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(third.errors?.[0].message).toMatch(/MAX_OPEN_LOBBIES_PER_PLAYER = 2/);
    const rest = await t.rest('POST', '/api/v1/lobbies', { preset: 'short' }, ala.token);
    expect(rest.status).toBe(409);
    expect(rest.body.code).toBe('CONFLICT');

    const theirs = await t.gql(CREATE, {}, other.token);
    const join = await t.gql('mutation($id: ID!) { joinLobby(input: { lobbyId: $id }) { id } }', { id: theirs.data!.createLobby.id }, ala.token);
    expect(join.errors?.[0].extensions?.code).toBe('CONFLICT');

    const left = await t.gql('mutation($id: ID!) { leaveLobby(lobbyId: $id) { status } }', { id: first.data!.createLobby.id }, ala.token);
    expect(left.errors).toBeUndefined();
    expect((await t.gql(CREATE, {}, ala.token)).errors).toBeUndefined();
  });
});
