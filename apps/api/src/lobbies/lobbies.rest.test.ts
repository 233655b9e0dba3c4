import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { finishGame, type LobbyView, players, prismaOf, seating } from './lobbies.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const BASE = '/api/v1/lobbies';

describe('lobbies over REST', () => {
  it('creates, lists, finds, joins by id and by code, and starts the game', async () => {
    const [host, a, b] = await players(t, 3, 'rest');
    const created = await t.rest('POST', BASE, { preset: 'classic', options: { mizerkaQuotas: 'same' } }, host.token);
    expect(created.status).toBe(201);
    const lobby = created.body as LobbyView;
    expect(lobby).toMatchObject({ preset: 'classic', players: 3, status: 'open', options: { mizerkaQuotas: 'same' } });
    expect(seating(lobby)).toEqual([host.id, null, null]);

    const list = await t.rest('GET', `${BASE}?preset=classic&first=10`);
    expect(list.status).toBe(200);
    expect(list.body.lobbies.map((l: LobbyView) => l.id)).toContain(lobby.id);
    expect(list.body.total).toBeGreaterThanOrEqual(1);

    expect((await t.rest('GET', `${BASE}/${lobby.id}`)).body).toMatchObject({ id: lobby.id });
    expect((await t.rest('GET', `${BASE}/by-code/${lobby.inviteCode.toLowerCase()}`)).body).toMatchObject({ id: lobby.id });

    const joinA = await t.rest('POST', `${BASE}/${lobby.id}/join`, { seat: 2 }, a.token);
    expect(joinA.status).toBe(200);
    expect(seating(joinA.body)).toEqual([host.id, null, a.id]);

    const joinB = await t.rest('POST', `${BASE}/join-by-code`, { inviteCode: lobby.inviteCode }, b.token);
    expect(joinB.status).toBe(200);
    expect(joinB.body).toMatchObject({ status: 'started', gameId: expect.any(String) });
    expect(seating(joinB.body)).toEqual([host.id, b.id, a.id]);

    const start = await t.rest('POST', `${BASE}/${lobby.id}/start`, undefined, host.token);
    expect(start.status).toBe(409);
    expect(start.body).toMatchObject({ code: 'CONFLICT', gameId: joinB.body.gameId });
  });

  it('joins without a body, leaves, removes and hands over the host', async () => {
    const [host, a, b] = await players(t, 3, 'rest');
    const lobby = (await t.rest('POST', BASE, { preset: 'classic-4', visibility: 'unlisted' }, host.token)).body as LobbyView;
    expect((await t.rest('POST', `${BASE}/${lobby.id}/join`, undefined, a.token)).status).toBe(404);
    expect((await t.rest('POST', `${BASE}/join-by-code`, { inviteCode: lobby.inviteCode }, a.token)).status).toBe(200);
    expect((await t.rest('POST', `${BASE}/join-by-code`, { inviteCode: lobby.inviteCode, seat: 3 }, b.token)).status).toBe(200);
    // Now a member, b sees the unlisted lobby by id; joining it again is a conflict.
    expect((await t.rest('GET', `${BASE}/${lobby.id}`, undefined, b.token)).status).toBe(200);
    expect((await t.rest('POST', `${BASE}/${lobby.id}/join`, {}, b.token)).status).toBe(409);

    const denied = await t.rest('DELETE', `${BASE}/${lobby.id}/players/${b.id}`, undefined, a.token);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('FORBIDDEN');
    const removed = await t.rest('DELETE', `${BASE}/${lobby.id}/players/${b.id}`, undefined, host.token);
    expect(removed.status).toBe(200);
    expect(seating(removed.body)).toEqual([host.id, a.id, null, null]);

    const left = await t.rest('POST', `${BASE}/${lobby.id}/leave`, undefined, host.token);
    expect(left.status).toBe(200);
    expect(left.body.host.id).toBe(a.id);
    // The old host is no member any more: the unlisted lobby is hidden from them by id.
    expect((await t.rest('GET', `${BASE}/${lobby.id}`, undefined, host.token)).status).toBe(404);
  });

  it('plays again', async () => {
    const [host, a, b] = await players(t, 3, 'rest');
    const lobby = (await t.rest('POST', BASE, { preset: 'short' }, host.token)).body as LobbyView;
    await t.rest('POST', `${BASE}/${lobby.id}/join`, {}, a.token);
    const full = (await t.rest('POST', `${BASE}/${lobby.id}/join`, {}, b.token)).body as LobbyView;
    await finishGame(t, full.gameId!);
    const again = await t.rest('POST', `/api/v1/games/${full.gameId}/play-again`, undefined, a.token);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ previousGameId: full.gameId, status: 'started', host: { id: a.id } });
    expect(seating(again.body)).toEqual([host.id, a.id, b.id]);
    expect(await prismaOf(t).game.count({ where: { lobbyId: again.body.id } })).toBe(1);
  });

  it('answers errors as problem documents with the shared codes', async () => {
    const [host] = await players(t, 1, 'rest');
    const badPreset = await t.rest('POST', BASE, { preset: 'nope' }, host.token);
    expect(badPreset.status).toBe(400);
    expect(badPreset.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(badPreset.body).toMatchObject({ code: 'BAD_INPUT', detail: expect.stringMatching(/unknown preset/) });

    const unknownOption = await t.rest('POST', BASE, { preset: 'classic', options: { jokers: true } }, host.token);
    expect(unknownOption.status).toBe(400);
    expect(unknownOption.body.detail).toMatch(/unknown option "jokers"/);
    expect((await t.rest('POST', BASE, { preset: 'classic', options: 'x' }, host.token)).status).toBe(400);
    expect((await t.rest('POST', BASE, { preset: 'classic', extra: 1 }, host.token)).status).toBe(400);
    expect((await t.rest('POST', BASE, { preset: 'classic' })).status).toBe(401);

    const lobby = (await t.rest('POST', BASE, { preset: 'classic' }, host.token)).body as LobbyView;
    expect((await t.rest('POST', `${BASE}/${lobby.id}/join`, { seat: 5 }, host.token)).status).toBe(400);
    expect((await t.rest('POST', `${BASE}/${lobby.id}/join`, { seat: 'one' }, host.token)).status).toBe(400);
    expect((await t.rest('GET', `${BASE}/not-a-uuid`)).status).toBe(400);
    expect((await t.rest('GET', `${BASE}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await t.rest('GET', `${BASE}/by-code/ABCDEFGH`)).status).toBe(404);
    expect((await t.rest('GET', `${BASE}?first=abc`)).status).toBe(400);
    expect((await t.rest('GET', `${BASE}?first=0`)).status).toBe(400);
    expect((await t.rest('GET', `${BASE}?after=zzz`)).status).toBe(400);
    const forged = await t.rest('GET', `${BASE}?after=${Buffer.from('2020-01-01T00:00:00.000Z|x').toString('base64url')}`);
    expect(forged).toMatchObject({ status: 400, body: { code: 'BAD_INPUT', field: 'after' } });
    expect((await t.rest('GET', `${BASE}?offset=1`)).status).toBe(400);
  });

  it('documents every lobby operation in the OpenAPI document', async () => {
    const doc = await t.rest('GET', '/api/docs/json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/lobbies',
        '/api/v1/lobbies/{id}',
        '/api/v1/lobbies/by-code/{code}',
        '/api/v1/lobbies/join-by-code',
        '/api/v1/lobbies/{id}/join',
        '/api/v1/lobbies/{id}/leave',
        '/api/v1/lobbies/{id}/players/{playerId}',
        '/api/v1/lobbies/{id}/start',
        '/api/v1/games/{id}/play-again',
      ]),
    );
    expect(Object.keys(doc.body.components.schemas)).toEqual(
      expect.arrayContaining(['Lobby', 'LobbySeat', 'LobbyPage', 'CreateLobbyInput', 'JoinByCodeBody']),
    );
  });
});
