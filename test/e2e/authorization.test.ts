// Issue 5, "Tests": who may do what. Every mutation and the main queries, as the right player,
// another seated player, a spectator (registered, not seated), without a token and with a revoked
// token; REST spot checks (problem+json with `code`); and bad input, which is BAD_INPUT or
// ILLEGAL_MOVE (with the rule), never a 500, and never changes the game.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import {
  chooseMove,
  data,
  errorCode,
  GAME_QUERY,
  http,
  LOBBY_FIELDS,
  MAKE_MOVE,
  playGame,
  register,
  registerMany,
  rng,
  seatTable,
  turnOf,
  type GqlResult,
  type Http,
  type Player,
} from './clients.js';

let t: TestApp;
let h: Http;

/** A, B, C hold seats 0, 1, 2 of `active` (a bidding game under way) and of `finishedGame`. */
let A: Player, B: Player, C: Player;
/** Registered, seated nowhere. */
let S: Player;
/** A token that was revoked (its player still has another one). */
let revoked: string;
let active: string;
let finishedGame: string;

const NONE = null;
const BAD = () => revoked;

const CREATE = `mutation($input: CreateLobbyInput!) { createLobby(input: $input) { ${LOBBY_FIELDS} } }`;
const JOIN = `mutation($input: JoinLobbyInput!) { joinLobby(input: $input) { ${LOBBY_FIELDS} } }`;
const LEAVE = `mutation($id: ID!) { leaveLobby(lobbyId: $id) { ${LOBBY_FIELDS} } }`;
const REMOVE = `mutation($id: ID!, $player: ID!) { removeFromLobby(lobbyId: $id, playerId: $player) { ${LOBBY_FIELDS} } }`;
const START = `mutation($id: ID!) { startLobby(lobbyId: $id) { ${LOBBY_FIELDS} } }`;
const PLAY_AGAIN = `mutation($id: ID!) { playAgain(gameId: $id) { ${LOBBY_FIELDS} } }`;
const LOBBY = `query($id: ID!) { lobby(id: $id) { ${LOBBY_FIELDS} } }`;
// A full-access token: managing tokens needs the admin scope, which a new token has only when asked for.
const CREATE_TOKEN = `mutation($name: String!) { createApiToken(input: { name: $name, scopes: [admin] }) { token apiToken { id name revokedAt } } }`;
const REVOKE_TOKEN = `mutation($id: ID!) { revokeApiToken(id: $id) { id revokedAt } }`;
const ME = `query { me { id name } }`;
const MY_TOKENS = `query { myApiTokens { tokens { id name revokedAt } } }`;
const MY_GAMES = `query { myGames { items { id mySeat myTurn toMove } nextCursor hasMore } }`;
const EVENTS = `query($id: ID!) { gameEvents(gameId: $id) { version entries { seq kind seat } } }`;
const RECORD = `query($id: ID!) { gameRecord(gameId: $id) { format } }`;
const SHEET = `query($id: ID!) { scoreSheet(gameId: $id) { status standings { seat total } } }`;
const VERSION = `query($id: ID!) { game(id: $id) { version status view { toMove phase } } }`;

function expectCode(result: GqlResult, code: string) {
  expect(result.errors?.map((e) => e.extensions?.code), JSON.stringify(result.errors)).toEqual([code]);
}

async function version(gameId: string): Promise<number> {
  return data(await h.gql(VERSION, { id: gameId }), 'game').version;
}

async function newLobby(host: Player, preset = 'classic-4', extra: Record<string, unknown> = {}) {
  return data(await h.gql(CREATE, { input: { preset, ...extra } }, host.token), 'createLobby');
}

beforeAll(async () => {
  t = await startTestApp();
  h = http(t.baseUrl);
  [A, B, C, S] = await registerMany(h, 4, 'au');
  // A player whose first token is revoked through a second one.
  const R = await register(h, 'ar');
  const second = data(await h.gql(CREATE_TOKEN, { name: 'second' }, R.token), 'createApiToken');
  const tokens = data(await h.gql(MY_TOKENS, {}, second.token), 'myApiTokens').tokens;
  const first = tokens.find((x: any) => x.name === 'default');
  data(await h.gql(REVOKE_TOKEN, { id: first.id }, second.token), 'revokeApiToken');
  revoked = R.token;

  active = (await seatTable(h, [A, B, C], 'bidding', { target: 30 })).gameId;
  finishedGame = (await seatTable(h, [A, B, C], 'bidding', { target: 20 })).gameId;
  await playGame(h, [A, B, C], finishedGame, { seed: 7 });
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe('makeMove', () => {
  it('only the seat to move moves; everyone else is refused and nothing changes', async () => {
    const players = [A, B, C];
    const turn = await turnOf(h, active, players[(await h.gql(VERSION, { id: active })).data!.game.view.toMove]);
    const mover = players[turn.seat];
    const other = players[(turn.seat + 1) % 3];
    const move = chooseMove(turn.legal, rng(1));
    const input = { gameId: active, expectedVersion: turn.version, ...move };

    expectCode(await h.gql(MAKE_MOVE, { input }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(MAKE_MOVE, { input }, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(MAKE_MOVE, { input }, 'not-a-token'), 'UNAUTHENTICATED');
    expectCode(await h.gql(MAKE_MOVE, { input }, S.token), 'FORBIDDEN');
    const notYours = await h.gql(MAKE_MOVE, { input }, other.token);
    expectCode(notYours, 'NOT_YOUR_TURN');
    expect(await version(active)).toBe(turn.version);

    expectCode(await h.gql(MAKE_MOVE, { input: { ...input, gameId: randomUUID() } }, mover.token), 'NOT_FOUND');
    expectCode(await h.gql(MAKE_MOVE, { input: { ...input, expectedVersion: turn.version - 1 } }, mover.token), 'CONFLICT');
    const conflict = await h.gql(MAKE_MOVE, { input: { ...input, expectedVersion: turn.version + 5 } }, mover.token);
    expectCode(conflict, 'CONFLICT');
    expect(conflict.errors![0].extensions!.version).toBe(turn.version);
    expect(await version(active)).toBe(turn.version);

    const ok = data(await h.gql(MAKE_MOVE, { input }, mover.token), 'makeMove');
    expect(ok.version).toBeGreaterThan(turn.version);
    // The same move again at the old version: CONFLICT, not a second move.
    expectCode(await h.gql(MAKE_MOVE, { input }, mover.token), 'CONFLICT');
    expect(await version(active)).toBe(ok.version);
  });

  it('an idempotency key is the caller’s own: another player using it gets no replay of someone else’s move', async () => {
    const players = [A, B, C];
    const turn = await turnOf(h, active, players[(await h.gql(VERSION, { id: active })).data!.game.view.toMove]);
    const mover = players[turn.seat];
    const other = players[(turn.seat + 1) % 3];
    const key = `k-${randomUUID()}`;
    const input = { gameId: active, idempotencyKey: key, ...chooseMove(turn.legal, rng(5)) };
    const first = data(await h.gql(MAKE_MOVE, { input }, mover.token), 'makeMove');
    // The same key again by the mover: the first result, no second move.
    const again = data(await h.gql(MAKE_MOVE, { input }, mover.token), 'makeMove');
    expect(again.version).toBe(first.version);
    expect(await version(active)).toBe(first.version);
    // The same key over REST (header) by the mover: the same.
    const { gameId: _id, idempotencyKey: _k, ...body } = input;
    const rest = await h.rest('POST', `/api/v1/games/${active}/moves`, body, mover.token, { 'idempotency-key': key });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.version).toBe(first.version);
    // Another seat, the same key: treated as its own request (its turn or not), never the mover's result.
    const stranger = await h.gql(MAKE_MOVE, { input }, S.token);
    expectCode(stranger, 'FORBIDDEN');
    const otherSeat = await h.gql(MAKE_MOVE, { input }, other.token);
    if (otherSeat.data?.makeMove) {
      expect(otherSeat.data.makeMove.version).toBeGreaterThan(first.version); // it was their turn: a move of their own
    } else {
      expect(['NOT_YOUR_TURN', 'ILLEGAL_MOVE']).toContain(errorCode(otherSeat));
      expect(await version(active)).toBe(first.version);
    }
  });

  it('a finished game takes no more moves (ILLEGAL_MOVE, rule game-over); a spectator is still FORBIDDEN', async () => {
    const v = await version(finishedGame);
    const result = await h.gql(MAKE_MOVE, { input: { gameId: finishedGame, kind: 'play', card: 'AS' } }, A.token);
    expectCode(result, 'ILLEGAL_MOVE');
    expect(result.errors![0].extensions!.rule).toBe('game-over');
    expectCode(await h.gql(MAKE_MOVE, { input: { gameId: finishedGame, kind: 'play', card: 'AS' } }, S.token), 'FORBIDDEN');
    expect(await version(finishedGame)).toBe(v);
  });
});

describe('lobby mutations', () => {
  it('createLobby needs a valid token', async () => {
    expectCode(await h.gql(CREATE, { input: { preset: 'classic' } }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(CREATE, { input: { preset: 'classic' } }, BAD()), 'UNAUTHENTICATED');
    const lobby = await newLobby(S, 'classic');
    expect(lobby.host.id).toBe(S.id);
    data(await h.gql(LEAVE, { id: lobby.id }, S.token), 'leaveLobby');
  });

  it('joinLobby: token needed; seated twice, full, started or closed is CONFLICT; unknown or unlisted-by-id is NOT_FOUND', async () => {
    const lobby = await newLobby(A);
    expectCode(await h.gql(JOIN, { input: { lobbyId: lobby.id } }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(JOIN, { input: { lobbyId: lobby.id } }, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(JOIN, { input: { lobbyId: lobby.id } }, A.token), 'CONFLICT');
    expectCode(await h.gql(JOIN, { input: { lobbyId: randomUUID() } }, B.token), 'NOT_FOUND');
    const joined = data(await h.gql(JOIN, { input: { lobbyId: lobby.id, seat: 2 } }, B.token), 'joinLobby');
    expect(joined.seats[2].player.id).toBe(B.id);
    expectCode(await h.gql(JOIN, { input: { lobbyId: lobby.id, seat: 2 } }, S.token), 'CONFLICT');
    data(await h.gql(LEAVE, { id: lobby.id }, B.token), 'leaveLobby');

    const unlisted = await newLobby(A, 'short', { visibility: 'unlisted' });
    expectCode(await h.gql(JOIN, { input: { lobbyId: unlisted.id } }, S.token), 'NOT_FOUND');
    expectCode(await h.gql(LOBBY, { id: unlisted.id }, S.token), 'NOT_FOUND');
    expectCode(await h.gql(LOBBY, { id: unlisted.id }, NONE), 'NOT_FOUND');
    expect(data(await h.gql(LOBBY, { id: unlisted.id }, A.token), 'lobby').id).toBe(unlisted.id);
    data(await h.gql(LEAVE, { id: unlisted.id }, A.token), 'leaveLobby');
    // Closed now.
    expectCode(await h.gql(JOIN, { input: { inviteCode: unlisted.inviteCode } }, S.token), 'CONFLICT');
  });

  it('leaveLobby: token needed; not seated is CONFLICT; after the start is CONFLICT', async () => {
    const lobby = await newLobby(A);
    expectCode(await h.gql(LEAVE, { id: lobby.id }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(LEAVE, { id: lobby.id }, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(LEAVE, { id: lobby.id }, S.token), 'CONFLICT');
    expectCode(await h.gql(LEAVE, { id: randomUUID() }, A.token), 'NOT_FOUND');
    data(await h.gql(LEAVE, { id: lobby.id }, A.token), 'leaveLobby');

    const { lobbyId } = await seatTable(h, [A, B, C], 'short');
    expectCode(await h.gql(LEAVE, { id: lobbyId }, B.token), 'CONFLICT');
  });

  it('removeFromLobby: only the host; an unseated player is NOT_FOUND; after the start CONFLICT', async () => {
    const lobby = await newLobby(A);
    data(await h.gql(JOIN, { input: { lobbyId: lobby.id } }, B.token), 'joinLobby');
    data(await h.gql(JOIN, { input: { lobbyId: lobby.id } }, C.token), 'joinLobby');
    const vars = { id: lobby.id, player: C.id };
    expectCode(await h.gql(REMOVE, vars, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(REMOVE, vars, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(REMOVE, vars, B.token), 'FORBIDDEN');
    expectCode(await h.gql(REMOVE, vars, S.token), 'FORBIDDEN');
    expectCode(await h.gql(REMOVE, { id: lobby.id, player: S.id }, A.token), 'NOT_FOUND');
    const after = data(await h.gql(REMOVE, vars, A.token), 'removeFromLobby');
    expect(after.seats.some((s: any) => s.player?.id === C.id)).toBe(false);

    const { lobbyId } = await seatTable(h, [A, B, C], 'short');
    expectCode(await h.gql(REMOVE, { id: lobbyId, player: B.id }, A.token), 'CONFLICT');
  });

  it('startLobby: only the host, only a full table, only once', async () => {
    const lobby = await newLobby(A, 'short');
    data(await h.gql(JOIN, { input: { lobbyId: lobby.id } }, B.token), 'joinLobby');
    expectCode(await h.gql(START, { id: lobby.id }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(START, { id: lobby.id }, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(START, { id: lobby.id }, B.token), 'FORBIDDEN');
    expectCode(await h.gql(START, { id: lobby.id }, S.token), 'FORBIDDEN');
    expectCode(await h.gql(START, { id: lobby.id }, A.token), 'CONFLICT'); // 2 of 3 seats
    const full = data(await h.gql(JOIN, { input: { lobbyId: lobby.id } }, C.token), 'joinLobby');
    expect(full.status).toBe('started');
    const again = await h.gql(START, { id: lobby.id }, A.token);
    expectCode(again, 'CONFLICT');
    expect(again.errors![0].extensions!.gameId).toBe(full.gameId);
  });

  it('playAgain: only a finished game’s players; unfinished is CONFLICT; one rematch for all', async () => {
    expectCode(await h.gql(PLAY_AGAIN, { id: finishedGame }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(PLAY_AGAIN, { id: finishedGame }, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(PLAY_AGAIN, { id: finishedGame }, S.token), 'FORBIDDEN');
    expectCode(await h.gql(PLAY_AGAIN, { id: active }, A.token), 'CONFLICT');
    expectCode(await h.gql(PLAY_AGAIN, { id: randomUUID() }, A.token), 'NOT_FOUND');
    const first = data(await h.gql(PLAY_AGAIN, { id: finishedGame }, B.token), 'playAgain');
    const second = data(await h.gql(PLAY_AGAIN, { id: finishedGame }, C.token), 'playAgain');
    expect(second.id).toBe(first.id);
    expect(first.previousGameId).toBe(finishedGame);
    expect(first.gameId).toBeTruthy();
  });
});

describe('tokens and the caller', () => {
  it('createApiToken / revokeApiToken / me / myApiTokens need a valid token; another player’s token is NOT_FOUND', async () => {
    for (const q of [ME, MY_TOKENS, MY_GAMES]) {
      expectCode(await h.gql(q, {}, NONE), 'UNAUTHENTICATED');
      expectCode(await h.gql(q, {}, BAD()), 'UNAUTHENTICATED');
    }
    expectCode(await h.gql(CREATE_TOKEN, { name: 'x' }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(CREATE_TOKEN, { name: 'x' }, BAD()), 'UNAUTHENTICATED');

    const P = await register(h, 'at');
    const made = data(await h.gql(CREATE_TOKEN, { name: 'laptop' }, P.token), 'createApiToken');
    expect(data(await h.gql(ME, {}, made.token), 'me').id).toBe(P.id);
    const list = data(await h.gql(MY_TOKENS, {}, P.token), 'myApiTokens').tokens;
    expect(list.map((x: any) => x.name).sort()).toEqual(['default', 'laptop']);
    // Secrets are never listed.
    expect(JSON.stringify(list)).not.toContain(P.token);
    expect(JSON.stringify(list)).not.toContain(made.token);

    expectCode(await h.gql(REVOKE_TOKEN, { id: made.apiToken.id }, NONE), 'UNAUTHENTICATED');
    expectCode(await h.gql(REVOKE_TOKEN, { id: made.apiToken.id }, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(REVOKE_TOKEN, { id: made.apiToken.id }, S.token), 'NOT_FOUND');
    expect(data(await h.gql(ME, {}, made.token), 'me').id).toBe(P.id); // still valid
    expectCode(await h.gql(REVOKE_TOKEN, { id: randomUUID() }, P.token), 'NOT_FOUND');
    data(await h.gql(REVOKE_TOKEN, { id: made.apiToken.id }, P.token), 'revokeApiToken');
    expectCode(await h.gql(ME, {}, made.token), 'UNAUTHENTICATED');
    // A player may revoke the very token they call with; it stops working at once.
    const mine = data(await h.gql(MY_TOKENS, {}, P.token), 'myApiTokens').tokens.find((x: any) => x.name === 'default');
    data(await h.gql(REVOKE_TOKEN, { id: mine.id }, P.token), 'revokeApiToken');
    expectCode(await h.gql(ME, {}, P.token), 'UNAUTHENTICATED');
  });

  it('myGames lists a player’s own games only', async () => {
    const mine = data(await h.gql(MY_GAMES, {}, A.token), 'myGames');
    expect(mine.items.some((g: any) => g.id === active && g.mySeat === 0)).toBe(true);
    expect(data(await h.gql(MY_GAMES, {}, S.token), 'myGames').items).toEqual([]);
    const done = data(await h.gql('query { myGames(status: finished) { items { id status mySeat myTurn players { seat place } } } }', {}, B.token), 'myGames');
    const game = done.items.find((g: any) => g.id === finishedGame);
    expect(game).toMatchObject({ status: 'finished', mySeat: 1, myTurn: false });
    expect(game.players.every((p: any) => p.place >= 1)).toBe(true);
    expect(mine.items.some((g: any) => g.id === finishedGame)).toBe(false);
  });
});

describe('game queries', () => {
  it('game: seat view for a seated player, spectator view otherwise; a revoked token is UNAUTHENTICATED', async () => {
    const asA = data(await h.gql(GAME_QUERY, { id: active }, A.token), 'game');
    expect(asA.mySeat).toBe(0);
    expect(asA.view.viewer).toBe(0);
    expect(asA.view.hand?.length).toBeGreaterThan(0);
    for (const token of [S.token, NONE]) {
      const spectator = data(await h.gql(GAME_QUERY, { id: active }, token), 'game');
      expect(spectator.mySeat).toBeNull();
      expect(spectator.view.viewer).toBeNull();
      expect(spectator.view.hand).toBeNull();
      expect(spectator.view.legalMoves).toBeNull();
    }
    expectCode(await h.gql(GAME_QUERY, { id: active }, BAD()), 'UNAUTHENTICATED');
    expectCode(await h.gql(GAME_QUERY, { id: randomUUID() }, NONE), 'NOT_FOUND');
    expectCode(await h.gql(GAME_QUERY, { id: 'nope' }, NONE), 'BAD_INPUT');
  });

  it('gameRecord: FORBIDDEN while the game is played, for everyone; public once it is over', async () => {
    for (const token of [A.token, B.token, S.token, NONE]) expectCode(await h.gql(RECORD, { id: active }, token), 'FORBIDDEN');
    for (const token of [A.token, S.token, NONE]) expect(data(await h.gql(RECORD, { id: finishedGame }, token), 'gameRecord').format).toBe('mizerka-record/1');
    expectCode(await h.gql(RECORD, { id: randomUUID() }, NONE), 'NOT_FOUND');
    expectCode(await h.gql(RECORD, { id: '123' }, NONE), 'BAD_INPUT');
  });

  it('scoreSheet is public; unknown game NOT_FOUND; malformed id BAD_INPUT', async () => {
    for (const token of [A.token, S.token, NONE]) expect(data(await h.gql(SHEET, { id: active }, token), 'scoreSheet').status).toBe('active');
    expectCode(await h.gql(SHEET, { id: randomUUID() }, NONE), 'NOT_FOUND');
    expectCode(await h.gql(SHEET, { id: 'x' }, NONE), 'BAD_INPUT');
  });

  it('gameEvents is public (seat or spectator); unknown game NOT_FOUND; revoked token UNAUTHENTICATED', async () => {
    for (const token of [A.token, S.token, NONE]) {
      const log = await h.gql(EVENTS, { id: active }, token);
      expect(log.errors, JSON.stringify(log.errors)).toBeUndefined();
      expect(log.data!.gameEvents.entries[0].kind).toBe('deal');
    }
    expectCode(await h.gql(EVENTS, { id: randomUUID() }, NONE), 'NOT_FOUND');
    expectCode(await h.gql(EVENTS, { id: active }, BAD()), 'UNAUTHENTICATED');
  });
});

describe('REST spot checks (problem+json with code)', () => {
  async function problem(method: string, path: string, body: unknown, token: string | null, status: number, code: string) {
    const r = await h.rest(method, path, body, token);
    expect(r.status, `${method} ${path}: ${r.text}`).toBe(status);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(r.body.code).toBe(code);
    expect(r.body.status).toBe(status);
    return r.body;
  }

  it('moves: 401 without/with a revoked token, 403 spectator, 409 not your turn, 404 unknown, 400 malformed, 409 stale', async () => {
    const toMove = data(await h.gql(VERSION, { id: active }), 'game').view.toMove as number;
    const players = [A, B, C];
    const turn = await turnOf(h, active, players[toMove]);
    const body = { expectedVersion: turn.version, ...chooseMove(turn.legal, rng(3)) };
    const path = `/api/v1/games/${active}/moves`;
    await problem('POST', path, body, NONE, 401, 'UNAUTHENTICATED');
    await problem('POST', path, body, BAD(), 401, 'UNAUTHENTICATED');
    await problem('POST', path, body, S.token, 403, 'FORBIDDEN');
    await problem('POST', path, body, players[(toMove + 2) % 3].token, 409, 'NOT_YOUR_TURN');
    await problem('POST', `/api/v1/games/${randomUUID()}/moves`, body, players[toMove].token, 404, 'NOT_FOUND');
    await problem('POST', '/api/v1/games/not-an-id/moves', body, players[toMove].token, 400, 'BAD_INPUT');
    await problem('POST', path, { ...body, expectedVersion: turn.version - 1 }, players[toMove].token, 409, 'CONFLICT');
    expect(await version(active)).toBe(turn.version);
    const ok = await h.rest('POST', path, body, players[toMove].token);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.version).toBeGreaterThan(turn.version);
  });

  it('players, lobbies, games: the same codes as GraphQL', async () => {
    await problem('GET', '/api/v1/me', undefined, NONE, 401, 'UNAUTHENTICATED');
    await problem('GET', '/api/v1/me', undefined, BAD(), 401, 'UNAUTHENTICATED');
    await problem('GET', '/api/v1/me/tokens', undefined, NONE, 401, 'UNAUTHENTICATED');
    await problem('POST', '/api/v1/me/tokens', { name: 'x' }, BAD(), 401, 'UNAUTHENTICATED');
    await problem('DELETE', `/api/v1/me/tokens/${randomUUID()}`, undefined, S.token, 404, 'NOT_FOUND');
    await problem('POST', '/api/v1/lobbies', { preset: 'classic' }, NONE, 401, 'UNAUTHENTICATED');
    const lobby = await newLobby(A, 'short');
    await problem('POST', `/api/v1/lobbies/${lobby.id}/start`, undefined, S.token, 403, 'FORBIDDEN');
    await problem('POST', `/api/v1/lobbies/${lobby.id}/start`, undefined, A.token, 409, 'CONFLICT');
    await problem('POST', `/api/v1/lobbies/${lobby.id}/leave`, undefined, S.token, 409, 'CONFLICT');
    await problem('DELETE', `/api/v1/lobbies/${lobby.id}/players/${A.id}`, undefined, S.token, 403, 'FORBIDDEN');
    await problem('POST', `/api/v1/lobbies/${randomUUID()}/join`, {}, S.token, 404, 'NOT_FOUND');
    await problem('POST', `/api/v1/games/${finishedGame}/play-again`, undefined, S.token, 403, 'FORBIDDEN');
    await problem('POST', `/api/v1/games/${active}/play-again`, undefined, A.token, 409, 'CONFLICT');
    await problem('GET', `/api/v1/games/${active}/record`, undefined, A.token, 403, 'FORBIDDEN');
    await problem('GET', `/api/v1/games/${randomUUID()}`, undefined, NONE, 404, 'NOT_FOUND');
    await problem('GET', `/api/v1/games/${active}`, undefined, BAD(), 401, 'UNAUTHENTICATED');
    await problem('GET', '/api/v1/games', undefined, NONE, 401, 'UNAUTHENTICATED');
    await problem('GET', `/api/v1/games/zzz/deals`, undefined, NONE, 400, 'BAD_INPUT');
    const spectator = await h.rest('GET', `/api/v1/games/${active}`, undefined, NONE);
    expect(spectator.status).toBe(200);
    expect(spectator.body.mySeat).toBeNull();
    expect(spectator.body.view.hand).toBeNull();
    data(await h.gql(LEAVE, { id: lobby.id }, A.token), 'leaveLobby');
  });
});

describe('bad input never changes a game and is never a 500', () => {
  /** Sends `input` as the seat to move; expects `code` (and `rule`); the version and the view stay as they were. */
  async function refused(gameId: string, mover: Player, input: Record<string, unknown>, code: string, rule?: string | RegExp) {
    const before = data(await h.gql(GAME_QUERY, { id: gameId }, mover.token), 'game');
    const result = await h.gql(MAKE_MOVE, { input: { gameId, ...input } }, mover.token);
    expect(result.errors?.length, `${JSON.stringify(input)} → ${JSON.stringify(result)}`).toBe(1);
    const error = result.errors![0];
    expect(error.extensions?.code, `${JSON.stringify(input)} → ${JSON.stringify(error)}`).toBe(code);
    if (rule !== undefined) expect(error.extensions?.rule).toMatch(rule);
    // The same over REST (input without gameId), never 5xx.
    // REST spells the bids as the records do ("double-misere").
    const body = input.bid === 'double_misere' ? { ...input, bid: 'double-misere' } : input;
    const rest = await h.rest('POST', `/api/v1/games/${gameId}/moves`, body, mover.token);
    expect(rest.status, rest.text).toBeLessThan(500);
    expect(rest.body.code).toBe(code);
    const after = data(await h.gql(GAME_QUERY, { id: gameId }, mover.token), 'game');
    expect(after.version).toBe(before.version);
    expect(after.view).toEqual(before.view);
    return error;
  }

  /** A game played at random until the seat to move is offered `kind` (or `until` says so). */
  async function reach(preset: string, options: Record<string, unknown>, until: (kind: string, turn: any) => boolean, seed: number) {
    const players = await registerMany(h, preset.endsWith('-4') ? 4 : 3, 'ab');
    const { gameId } = await seatTable(h, players, preset, options);
    let stopped: any = null;
    await playGame(h, players, gameId, {
      seed,
      stopBefore: (turn) => {
        if (until(turn.legal.kind, turn)) {
          stopped = turn;
          return true;
        }
        return false;
      },
    });
    if (!stopped) throw new Error(`never reached the wanted turn in ${preset}`);
    return { gameId, players, turn: stopped, mover: players[stopped.seat] };
  }

  it('contract family: exchange and play', async () => {
    // The chooser to move at the contract pause.
    const c = await reach('short', {}, (kind) => kind === 'contract', 11);
    const hand: string[] = data(await h.gql(GAME_QUERY, { id: c.gameId }, c.mover.token), 'game').view.hand;
    await refused(c.gameId, c.mover, { kind: 'play', card: hand[0] }, 'ILLEGAL_MOVE', /./);
    await refused(c.gameId, c.mover, { kind: 'exchange', discards: [] }, 'ILLEGAL_MOVE', /./);
    await refused(c.gameId, c.mover, { kind: 'contract', contract: 'spades' }, 'ILLEGAL_MOVE', /./); // not in "short"
    await refused(c.gameId, c.mover, { kind: 'contract' }, 'BAD_INPUT');
    await refused(c.gameId, c.mover, { kind: 'contract', contract: 'hearts', card: 'AS' }, 'BAD_INPUT');
    await refused(c.gameId, c.mover, { kind: 'bid', bid: 'pass' }, 'ILLEGAL_MOVE', /./);
    await refused(c.gameId, c.mover, { kind: 'contract', contract: 'hearts', expectedVersion: -1 }, 'BAD_INPUT');
    await refused(c.gameId, c.mover, { kind: 'contract', contract: 'hearts', idempotencyKey: 'k'.repeat(200) }, 'BAD_INPUT');
    const bad = await h.gql(MAKE_MOVE, { input: { gameId: c.gameId, kind: 'dance' } }, c.mover.token);
    expect(errorCode(bad)).toBe('BAD_INPUT');
    const badId = await h.gql(MAKE_MOVE, { input: { gameId: 'not-a-uuid', kind: 'contract', contract: 'hearts' } }, c.mover.token);
    expect(errorCode(badId)).toBe('BAD_INPUT');

    // The chooser's exchange: move to it.
    data(await h.gql(MAKE_MOVE, { input: { gameId: c.gameId, kind: 'contract', contract: 'hearts' } }, c.mover.token), 'makeMove');
    const ex = await turnOf(h, c.gameId, c.mover);
    expect(ex.legal.kind).toBe('exchange');
    const full: string[] = data(await h.gql(GAME_QUERY, { id: c.gameId }, c.mover.token), 'game').view.hand;
    const notMine = ['AS', 'KS', 'QS', 'JS', 'TS', '9S', '2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C'].find((x) => !full.includes(x))!;
    await refused(c.gameId, c.mover, { kind: 'exchange', discards: ['ZZ'] }, 'BAD_INPUT');
    await refused(c.gameId, c.mover, { kind: 'exchange', discards: ['as'] }, 'BAD_INPUT');
    await refused(c.gameId, c.mover, { kind: 'exchange', discards: [notMine] }, 'ILLEGAL_MOVE', /card-not-in-hand|not-in-hand/);
    await refused(c.gameId, c.mover, { kind: 'exchange', discards: [full[0], full[0]] }, 'ILLEGAL_MOVE', /duplicate/);
    await refused(c.gameId, c.mover, { kind: 'exchange', discards: [...full, notMine] }, 'BAD_INPUT'); // 14 > 13 cards
    await refused(c.gameId, c.mover, { kind: 'play', card: full[0] }, 'ILLEGAL_MOVE', /./);
    // The chooser takes 11 of the 13 talon cards: the next seat may exchange at most 2.
    data(await h.gql(MAKE_MOVE, { input: { gameId: c.gameId, kind: 'exchange', discards: full.slice(0, 11) } }, c.mover.token), 'makeMove');
    const nextSeat: number = data(await h.gql(VERSION, { id: c.gameId }), 'game').view.toMove;
    const next = c.players[nextSeat];
    const nextTurn = await turnOf(h, c.gameId, next);
    expect(nextTurn.legal.maxDiscards).toBe(2);
    const nextHand: string[] = data(await h.gql(GAME_QUERY, { id: c.gameId }, next.token), 'game').view.hand;
    await refused(c.gameId, next, { kind: 'exchange', discards: nextHand.slice(0, 3) }, 'ILLEGAL_MOVE', 'exchange-too-many');

    // On to the first trick: a card not in hand, and a card that does not follow suit.
    const p = await reach('short', {}, (kind, turn) => kind === 'play' && turn.legal.cards.length < 13 && turn.legal.cards.length > 0, 12);
    const view = data(await h.gql(GAME_QUERY, { id: p.gameId }, p.mover.token), 'game').view;
    const legal: string[] = p.turn.legal.cards;
    const illegal = (view.hand as string[]).find((x) => !legal.includes(x));
    const foreign = ['AS', 'AH', 'AD', 'AC', 'KS', 'KH', 'KD', 'KC', '2S', '2H', '2D', '2C'].find((x) => !view.hand.includes(x))!;
    await refused(p.gameId, p.mover, { kind: 'play', card: foreign }, 'ILLEGAL_MOVE', /not-in-hand/);
    if (illegal) await refused(p.gameId, p.mover, { kind: 'play', card: illegal }, 'ILLEGAL_MOVE', 'follow-suit');
    await refused(p.gameId, p.mover, { kind: 'play', card: 'ZZ' }, 'BAD_INPUT');
    await refused(p.gameId, p.mover, { kind: 'play', card: '' }, 'BAD_INPUT');
    await refused(p.gameId, p.mover, { kind: 'play', cards: [legal[0]] }, 'BAD_INPUT');
    await refused(p.gameId, p.mover, { kind: 'exchange', discards: [] }, 'ILLEGAL_MOVE', /./);
    await refused(p.gameId, p.mover, { kind: 'contract', contract: 'hearts' }, 'ILLEGAL_MOVE', /./);
  }, 300_000);

  it('bidding family: bid, discard, trump', async () => {
    const b = await reach('bidding', { target: 30 }, (kind) => kind === 'bid', 21);
    await refused(b.gameId, b.mover, { kind: 'bid', bid: 'double_misere' }, 'ILLEGAL_MOVE', /double-misere/);
    await refused(b.gameId, b.mover, { kind: 'bid' }, 'BAD_INPUT');
    await refused(b.gameId, b.mover, { kind: 'trump', suit: 'hearts' }, 'ILLEGAL_MOVE', /./);
    await refused(b.gameId, b.mover, { kind: 'discard', cards: ['AS', 'KS'] }, 'ILLEGAL_MOVE', /./);
    const badEnum = await h.gql(MAKE_MOVE, { input: { gameId: b.gameId, kind: 'bid', bid: 'grand' } }, b.mover.token);
    expect(errorCode(badEnum)).toBe('BAD_INPUT');
    // A bid that does not rank above an earlier one: first bid "misere", then the next seat bids "play".
    data(await h.gql(MAKE_MOVE, { input: { gameId: b.gameId, kind: 'bid', bid: 'misere' } }, b.mover.token), 'makeMove');
    const nextSeat: number = data(await h.gql(VERSION, { id: b.gameId }), 'game').view.toMove;
    await refused(b.gameId, b.players[nextSeat], { kind: 'bid', bid: 'play' }, 'ILLEGAL_MOVE', /bid-too-low|too-low/);

    const d = await reach('bidding', { target: 30 }, (kind) => kind === 'discard', 22);
    const hand: string[] = data(await h.gql(GAME_QUERY, { id: d.gameId }, d.mover.token), 'game').view.hand;
    expect(hand.length).toBe(12);
    const foreigners = ['AS', 'KS', 'QS', 'JS', 'TS', '9S', '8S', '7S', 'AH', 'KH', 'QH', 'JH', 'TH', '9H', '8H'].filter((x) => !hand.includes(x));
    const foreign = foreigners[0];
    await refused(d.gameId, d.mover, { kind: 'discard', cards: [hand[0]] }, 'ILLEGAL_MOVE', /discard-two|two/);
    await refused(d.gameId, d.mover, { kind: 'discard', cards: hand.slice(0, 3) }, 'ILLEGAL_MOVE', /discard-two|two/);
    await refused(d.gameId, d.mover, { kind: 'discard', cards: [hand[0], hand[0]] }, 'ILLEGAL_MOVE', /duplicate/);
    await refused(d.gameId, d.mover, { kind: 'discard', cards: [hand[0], foreign] }, 'ILLEGAL_MOVE', /not-in-hand/);
    await refused(d.gameId, d.mover, { kind: 'discard', cards: [hand[0], '1S'] }, 'BAD_INPUT');
    await refused(d.gameId, d.mover, { kind: 'discard', cards: [...hand, ...foreigners.slice(0, 2)] }, 'BAD_INPUT'); // 14 names
    await refused(d.gameId, d.mover, { kind: 'play', card: hand[0] }, 'ILLEGAL_MOVE', /./);
    await refused(d.gameId, d.mover, { kind: 'discard', discards: hand.slice(0, 2) }, 'BAD_INPUT');

    const tr = await reach('bidding', { target: 30 }, (kind) => kind === 'trump', 23);
    await refused(tr.gameId, tr.mover, { kind: 'trump', suit: 'notrumps' }, 'BAD_INPUT');
    await refused(tr.gameId, tr.mover, { kind: 'trump' }, 'BAD_INPUT');
    await refused(tr.gameId, tr.mover, { kind: 'bid', bid: 'play' }, 'ILLEGAL_MOVE', /./);
  }, 300_000);

  it('REST: a body that is not JSON, unknown fields, a wrong type are BAD_INPUT', async () => {
    const toMove = data(await h.gql(VERSION, { id: active }), 'game').view.toMove as number;
    const mover = [A, B, C][toMove];
    const v = await version(active);
    const path = `/api/v1/games/${active}/moves`;
    for (const body of ['{"kind":', '"play"', { kind: 'play', card: 'AS', seat: 1 }, { kind: 'play', card: 7 }, { kind: ['play'] }, {}]) {
      const r = await h.rest('POST', path, body, mover.token);
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
      expect(r.body.code).toBe('BAD_INPUT');
    }
    const key = await h.rest('POST', path, { kind: 'bid', bid: 'pass' }, mover.token, { 'idempotency-key': '' });
    expect(key.status).toBeLessThan(500);
    expect(await version(active)).toBe(v);
  });
});
