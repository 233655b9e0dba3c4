import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';
import { addBot, openLobby } from '../bots/bots.test-kit.js';
import { player } from './lobbies.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ quotas: { ...loadConfig({}).quotas, openLobbiesPerPlayer: 2, activeBotGamesPerPlayer: 2 } });
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

describe('active games against server bots per player', () => {
  it('refuses to start one more with CONFLICT naming the limit; the lobby stays open, and starts once a game is over', async () => {
    const ala = await player(t, 'limb');
    const started: string[] = [];
    for (let i = 0; i < 2; i++) {
      const lobbyId = await openLobby(t, ala.token, 'bidding');
      await addBot(t, ala.token, lobbyId, 'random');
      const full = await addBot(t, ala.token, lobbyId, 'random');
      expect(full.errors).toBeUndefined();
      started.push(full.data!.addBot.gameId as string);
    }

    const third = await openLobby(t, ala.token, 'bidding');
    expect((await addBot(t, ala.token, third, 'random')).errors).toBeUndefined();
    const refused = await addBot(t, ala.token, third, 'random');
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', limit: 2 });
    expect(refused.errors?.[0].message).toMatch(/MAX_ACTIVE_BOT_GAMES_PER_PLAYER = 2/);
    const rest = await t.rest('POST', `/api/v1/lobbies/${third}/bots`, { level: 'random' }, ala.token);
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ code: 'CONFLICT', limit: 2 });
    // Nothing of the refused start is kept: the seat is free and the lobby open.
    const lobby = await t.gql('query($id: ID!) { lobby(id: $id) { status seatsTaken gameId } }', { id: third }, ala.token);
    expect(lobby.data!.lobby).toEqual({ status: 'open', seatsTaken: 2, gameId: null });

    const resigned = await t.gql('mutation($id: ID!) { resign(input: { gameId: $id }) { status } }', { id: started[0] }, ala.token);
    expect(resigned.data!.resign.status).toBe('finished');
    const now = await addBot(t, ala.token, third, 'random');
    expect(now.errors).toBeUndefined();
    expect(now.data!.addBot.status).toBe('started');
  }, 60_000);

  it('counts only games against server bots: games among people start beyond it', async () => {
    const ola = await player(t, 'limp');
    const others = [await player(t, 'limq'), await player(t, 'limr')];
    for (let i = 0; i < 3; i++) {
      const lobbyId = await openLobby(t, ola.token, 'bidding');
      for (const other of others) {
        const joined = await t.gql('mutation($id: ID!) { joinLobby(input: { lobbyId: $id }) { status } }', { id: lobbyId }, other.token);
        expect(joined.errors).toBeUndefined();
      }
    }
    const lobbyId = await openLobby(t, ola.token, 'bidding');
    await addBot(t, ola.token, lobbyId, 'random');
    expect((await addBot(t, ola.token, lobbyId, 'random')).data!.addBot.status).toBe('started');
  }, 60_000);
});
