import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type GraphQLResult, type TestApp } from '../../../../test/app.js';
import { finishGame, LOBBY_FIELDS, type LobbyView, player, players, prismaOf, seating, type TestPlayer } from './lobbies.test-kit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CREATE = `mutation($input: CreateLobbyInput!) { createLobby(input: $input) { ${LOBBY_FIELDS} } }`;
const JOIN = `mutation($input: JoinLobbyInput!) { joinLobby(input: $input) { ${LOBBY_FIELDS} } }`;
const LEAVE = `mutation($id: ID!) { leaveLobby(lobbyId: $id) { ${LOBBY_FIELDS} } }`;
const REMOVE = `mutation($id: ID!, $player: ID!) { removeFromLobby(lobbyId: $id, playerId: $player) { ${LOBBY_FIELDS} } }`;
const START = `mutation($id: ID!) { startLobby(lobbyId: $id) { ${LOBBY_FIELDS} } }`;
const PLAY_AGAIN = `mutation($id: ID!) { playAgain(gameId: $id) { ${LOBBY_FIELDS} } }`;
const GET = `query($id: ID!) { lobby(id: $id) { ${LOBBY_FIELDS} } }`;
const BY_CODE = `query($code: String!) { lobbyByInviteCode(code: $code) { ${LOBBY_FIELDS} } }`;
const LIST = `query($preset: String, $first: Int, $after: String) {
  lobbies(preset: $preset, first: $first, after: $after) { total nextCursor hasMore lobbies { ${LOBBY_FIELDS} } }
}`;

function code(result: GraphQLResult): string | undefined {
  return result.errors?.[0]?.extensions?.code;
}

function ok<T>(result: GraphQLResult<Record<string, T>>, field: string): T {
  if (result.errors) throw new Error(`${field}: ${JSON.stringify(result.errors)}`);
  return result.data![field];
}

async function create(host: TestPlayer, input: Record<string, unknown>): Promise<LobbyView> {
  return ok(await t.gql<Record<string, LobbyView>>(CREATE, { input }, host.token), 'createLobby');
}

async function join(who: TestPlayer, input: Record<string, unknown>): Promise<GraphQLResult<Record<string, LobbyView>>> {
  return t.gql<Record<string, LobbyView>>(JOIN, { input }, who.token);
}

/** A lobby of `preset` with the host and `more` players seated (host at 0, then 1, 2, …). */
async function table(preset: string, more: number, extra: Record<string, unknown> = {}) {
  const [host, ...rest] = await players(t, more + 1);
  let lobby = await create(host, { preset, ...extra });
  for (const p of rest) lobby = ok(await join(p, { lobbyId: lobby.id }), 'joinLobby');
  return { lobby, host, rest };
}

describe('creating a lobby', () => {
  it('seats the host at seat 0 and gives the lobby a code', async () => {
    const host = await player(t);
    const lobby = await create(host, { preset: 'classic' });
    expect(lobby).toMatchObject({
      preset: 'classic',
      players: 3,
      visibility: 'public',
      status: 'open',
      seatsTaken: 1,
      seatsFree: 2,
      gameId: null,
      previousGameId: null,
      host: { id: host.id, name: host.name },
    });
    expect(lobby.inviteCode).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    expect(seating(lobby)).toEqual([host.id, null, null]);
  });

  it('takes the seat the host chooses, the preset’s options and the visibility', async () => {
    const host = await player(t);
    const lobby = await create(host, { preset: 'bidding-4', options: { target: 500, doubleMisere: true }, seat: 2, visibility: 'unlisted' });
    expect(lobby).toMatchObject({ players: 4, visibility: 'unlisted', options: { target: 500, doubleMisere: true, mizerkaQuotas: null } });
    expect(seating(lobby)).toEqual([null, null, host.id, null]);
  });

  it('gives every lobby its own code', async () => {
    const host = await player(t);
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) codes.add((await create(host, { preset: 'short' })).inviteCode);
    expect(codes.size).toBe(5);
  });

  it.each([
    [{ preset: 'poker' }, /unknown preset "poker"/],
    [{ preset: 'classic', options: { target: 500 } }, /target belongs to the bidding family/],
    [{ preset: 'classic', options: { mizerkaQuotas: 'upside-down' } }, /mizerkaQuotas must be "reversed" or "same"/],
    [{ preset: 'bidding', options: { target: -5 } }, /target must be a whole number from 1 to 10000/],
    [{ preset: 'bidding', options: { mizerkaQuotas: 'same' } }, /mizerkaQuotas belongs to the contract family/],
    [{ preset: 'classic', seat: 3 }, /seat must be 0 to 2/],
    [{ preset: 'classic-4', seat: -1 }, /seat must be 0 to 3/],
    [{ preset: '' }, /preset/],
  ])('rejects %j with BAD_INPUT and the rules’ message', async (input, message) => {
    const host = await player(t);
    const result = await t.gql(CREATE, { input }, host.token);
    expect(code(result)).toBe('BAD_INPUT');
    expect(result.errors?.[0].message).toMatch(message);
  });

  it('rejects an option of the wrong type and an unknown visibility with BAD_INPUT, not a 500', async () => {
    const host = await player(t);
    expect(code(await t.gql(CREATE, { input: { preset: 'bidding', options: { target: 'lots' } } }, host.token))).toBe('BAD_INPUT');
    expect(code(await t.gql(CREATE, { input: { preset: 'classic', visibility: 'secret' } }, host.token))).toBe('BAD_INPUT');
  });

  it('needs a token', async () => {
    expect(code(await t.gql(CREATE, { input: { preset: 'classic' } }))).toBe('UNAUTHENTICATED');
  });
});

describe('listing lobbies', () => {
  // Only this test makes short-4 lobbies, so the list below is exactly what it made.
  it('lists open public lobbies of a preset, newest first, with seats and names, by page', async () => {
    const [a, b, c, d] = await players(t, 4, 'lst');
    const first = await create(a, { preset: 'short-4' });
    const second = await create(b, { preset: 'short-4' });
    const third = await create(c, { preset: 'short-4', seat: 3 });
    await create(d, { preset: 'short-4', visibility: 'unlisted' });
    await create(d, { preset: 'short' });
    ok(await join(d, { lobbyId: second.id, seat: 2 }), 'joinLobby');

    const all = ok(await t.gql(LIST, { preset: 'short-4' }), 'lobbies') as { total: number; nextCursor: string | null; lobbies: LobbyView[] };
    expect(all.total).toBe(3);
    expect(all.nextCursor).toBeNull();
    expect(all.lobbies.map((l) => l.id)).toEqual([third.id, second.id, first.id]);
    expect(all.lobbies[0].seats[3].player).toEqual({ id: c.id, name: c.name });
    expect(all.lobbies[1]).toMatchObject({ seatsTaken: 2, seatsFree: 2 });
    expect(all.lobbies[1].seats.map((s) => s.player?.name ?? null)).toEqual([b.name, null, d.name, null]);

    const page1 = ok(await t.gql(LIST, { preset: 'short-4', first: 2 }), 'lobbies') as typeof all;
    expect(page1.lobbies.map((l) => l.id)).toEqual([third.id, second.id]);
    expect(page1.total).toBe(3);
    expect(page1.nextCursor).toEqual(expect.any(String));
    expect(page1).toMatchObject({ hasMore: true });
    const page2 = ok(await t.gql(LIST, { preset: 'short-4', first: 2, after: page1.nextCursor }), 'lobbies') as typeof all;
    expect(page2.lobbies.map((l) => l.id)).toEqual([first.id]);
    expect(page2).toMatchObject({ nextCursor: null, hasMore: false });

    const everything = ok(await t.gql(LIST, { first: 100 }), 'lobbies') as typeof all;
    expect(everything.lobbies.every((l) => l.visibility === 'public' && l.status === 'open')).toBe(true);
    expect(everything.lobbies.map((l) => l.preset)).toContain('short');
  });

  it('leaves out unlisted lobbies and lobbies whose game has started', async () => {
    const host = await player(t);
    const unlisted = await create(host, { preset: 'classic', visibility: 'unlisted' });
    const { lobby: full } = await table('classic', 2);
    const list = ok(await t.gql(LIST, { first: 100 }), 'lobbies') as { lobbies: LobbyView[] };
    const ids = list.lobbies.map((l) => l.id);
    expect(ids).not.toContain(unlisted.id);
    expect(ids).not.toContain(full.id);
  });

  it('rejects a bad page with BAD_INPUT', async () => {
    expect(code(await t.gql(LIST, { first: 0 }))).toBe('BAD_INPUT');
    expect(code(await t.gql(LIST, { first: 101 }))).toBe('BAD_INPUT');
    expect(code(await t.gql(LIST, { after: 'nonsense' }))).toBe('BAD_INPUT');
    // Well-formed base64url of something that is no sort key: BAD_INPUT naming the argument.
    const forged = await t.gql(LIST, { after: Buffer.from('2020-01-01|not-an-id').toString('base64url') });
    expect(forged.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'after' });
    expect((await t.gql('{ lobbies(offset: 1) { total } }')).errors?.[0].extensions?.code).toBe('BAD_INPUT');
  });
});

describe('finding one lobby', () => {
  it('finds a public lobby by id (even without a token) and any lobby by its code', async () => {
    const host = await player(t);
    const lobby = await create(host, { preset: 'classic' });
    expect(ok(await t.gql(GET, { id: lobby.id }), 'lobby')).toMatchObject({ id: lobby.id });
    const lower = lobby.inviteCode.toLowerCase().replace(/(....)/, '$1-');
    expect(ok(await t.gql(BY_CODE, { code: lower }), 'lobbyByInviteCode')).toMatchObject({ id: lobby.id });
  });

  it('shows an unlisted lobby by id only to its members, but to anyone with the code', async () => {
    const [host, member, stranger] = await players(t, 3);
    const lobby = await create(host, { preset: 'classic-4', visibility: 'unlisted' });
    ok(await join(member, { inviteCode: lobby.inviteCode }), 'joinLobby');
    expect(code(await t.gql(GET, { id: lobby.id }, stranger.token))).toBe('NOT_FOUND');
    expect(code(await t.gql(GET, { id: lobby.id }))).toBe('NOT_FOUND');
    expect(ok(await t.gql(GET, { id: lobby.id }, host.token), 'lobby')).toMatchObject({ id: lobby.id });
    expect(ok(await t.gql(GET, { id: lobby.id }, member.token), 'lobby')).toMatchObject({ seatsTaken: 2 });
    expect(ok(await t.gql(BY_CODE, { code: lobby.inviteCode }, stranger.token), 'lobbyByInviteCode')).toMatchObject({ id: lobby.id });
  });

  it('answers NOT_FOUND for unknown ids and codes, BAD_INPUT for malformed ones', async () => {
    expect(code(await t.gql(GET, { id: '00000000-0000-4000-8000-000000000000' }))).toBe('NOT_FOUND');
    expect(code(await t.gql(GET, { id: '42' }))).toBe('BAD_INPUT');
    expect(code(await t.gql(BY_CODE, { code: 'ZZZZZZZZ' }))).toBe('NOT_FOUND');
    expect(code(await t.gql(BY_CODE, { code: 'O0O0-I1I1' }))).toBe('BAD_INPUT');
  });
});

describe('joining', () => {
  it('joins by id into the lowest free seat or a chosen one, and by code', async () => {
    const [host, a, b] = await players(t, 3);
    const lobby = await create(host, { preset: 'classic-4', seat: 1 });
    const afterA = ok(await join(a, { lobbyId: lobby.id }), 'joinLobby');
    expect(seating(afterA)).toEqual([a.id, host.id, null, null]);
    const afterB = ok(await join(b, { inviteCode: lobby.inviteCode, seat: 3 }), 'joinLobby');
    expect(seating(afterB)).toEqual([a.id, host.id, null, b.id]);
    expect(afterB).toMatchObject({ status: 'open', seatsTaken: 3, seatsFree: 1, gameId: null });
  });

  it('joins an unlisted lobby by code, but not by id', async () => {
    const [host, a, b] = await players(t, 3);
    const lobby = await create(host, { preset: 'classic', visibility: 'unlisted' });
    expect(code(await join(a, { lobbyId: lobby.id }))).toBe('NOT_FOUND');
    expect(seating(ok(await join(a, { inviteCode: lobby.inviteCode.toLowerCase() }), 'joinLobby'))).toEqual([host.id, a.id, null]);
    expect(code(await join(b, { lobbyId: lobby.id, seat: 2 }))).toBe('NOT_FOUND');
  });

  it('enforces the seat rules', async () => {
    const [host, a, b, c] = await players(t, 4);
    const lobby = await create(host, { preset: 'classic-4' });
    ok(await join(a, { lobbyId: lobby.id, seat: 2 }), 'joinLobby');

    const taken = await join(b, { lobbyId: lobby.id, seat: 2 });
    expect(code(taken)).toBe('CONFLICT');
    expect(taken.errors?.[0].message).toMatch(/Seat 2 is taken/);
    const again = await join(a, { lobbyId: lobby.id });
    expect(code(again)).toBe('CONFLICT');
    expect(again.errors?.[0].message).toMatch(/already seated/);
    const hostAgain = await join(host, { inviteCode: lobby.inviteCode, seat: 3 });
    expect(code(hostAgain)).toBe('CONFLICT');
    for (const seat of [4, -1, 99]) {
      const out = await join(b, { lobbyId: lobby.id, seat });
      expect(code(out)).toBe('BAD_INPUT');
      expect(out.errors?.[0].message).toMatch(/seat must be 0 to 3/);
    }

    expect(code(await join(b, {}))).toBe('BAD_INPUT');
    expect(code(await join(b, { lobbyId: lobby.id, inviteCode: lobby.inviteCode }))).toBe('BAD_INPUT');
    expect(code(await join(b, { lobbyId: 'not-an-id' }))).toBe('BAD_INPUT');
    expect(code(await join(b, { inviteCode: '!!' }))).toBe('BAD_INPUT');
    expect(code(await join(b, { inviteCode: 'ZZZZZZZZ' }))).toBe('NOT_FOUND');
    expect(code(await join(b, { lobbyId: '00000000-0000-4000-8000-000000000000' }))).toBe('NOT_FOUND');
    expect(code(await t.gql(JOIN, { input: { lobbyId: lobby.id } }))).toBe('UNAUTHENTICATED');

    ok(await join(b, { lobbyId: lobby.id }), 'joinLobby');
    ok(await join(c, { lobbyId: lobby.id }), 'joinLobby');
    const late = await join((await player(t)), { lobbyId: lobby.id });
    expect(code(late)).toBe('CONFLICT');
    expect(late.errors?.[0].message).toMatch(/started/);
  });
});

describe('starting the game', () => {
  it('starts by itself when the last seat is taken, and the lobby shows the game', async () => {
    const { lobby, host, rest } = await table('classic', 2);
    expect(lobby.status).toBe('started');
    expect(lobby.gameId).toEqual(expect.any(String));
    const game = await prismaOf(t).game.findUniqueOrThrow({
      where: { id: lobby.gameId! },
      select: { lobbyId: true, preset: true, players: true, seats: { select: { seat: true, playerId: true }, orderBy: { seat: 'asc' } } },
    });
    expect(game).toMatchObject({ lobbyId: lobby.id, preset: 'classic', players: 3 });
    expect(game.seats.map((s) => s.playerId)).toEqual([host.id, rest[0].id, rest[1].id]);
    expect(ok(await t.gql(GET, { id: lobby.id }), 'lobby')).toMatchObject({ status: 'started', gameId: lobby.gameId });

    const twice = await t.gql(START, { id: lobby.id }, host.token);
    expect(code(twice)).toBe('CONFLICT');
    expect(twice.errors?.[0].extensions?.gameId).toBe(lobby.gameId);
  });

  it('passes the options to the game', async () => {
    const { lobby } = await table('bidding', 2, { options: { target: 150 } });
    const game = await prismaOf(t).game.findUniqueOrThrow({ where: { id: lobby.gameId! }, select: { options: true } });
    expect(game.options).toEqual({ target: 150 });
  });

  it('lets only the host start, and only a full table', async () => {
    const { lobby, host, rest } = await table('classic', 1);
    const early = await t.gql(START, { id: lobby.id }, host.token);
    expect(code(early)).toBe('CONFLICT');
    expect(early.errors?.[0].message).toMatch(/Only 2 of 3 seats are taken/);
    expect(code(await t.gql(START, { id: lobby.id }, rest[0].token))).toBe('FORBIDDEN');
    expect(code(await t.gql(START, { id: '00000000-0000-4000-8000-000000000000' }, host.token))).toBe('NOT_FOUND');
  });
});

describe('leaving and removing', () => {
  it('frees the seat of a player who leaves', async () => {
    const { lobby, rest } = await table('classic-4', 2);
    const after = ok(await t.gql(LEAVE, { id: lobby.id }, rest[0].token), 'leaveLobby') as LobbyView;
    expect(seating(after)).toEqual([lobby.host.id, null, rest[1].id, null]);
    const again = await t.gql(LEAVE, { id: lobby.id }, rest[0].token);
    expect(code(again)).toBe('CONFLICT');
    expect(again.errors?.[0].message).toMatch(/not seated/);
  });

  it('hands the lobby to the longest-seated player when the host leaves, and closes it when empty', async () => {
    const [host, a, b] = await players(t, 3);
    const lobby = await create(host, { preset: 'classic-4', seat: 0 });
    ok(await join(a, { lobbyId: lobby.id, seat: 3 }), 'joinLobby');
    ok(await join(b, { lobbyId: lobby.id, seat: 1 }), 'joinLobby');

    const afterHost = ok(await t.gql(LEAVE, { id: lobby.id }, host.token), 'leaveLobby') as LobbyView;
    expect(afterHost.host.id).toBe(a.id);
    expect(afterHost.status).toBe('open');
    expect(code(await t.gql(START, { id: lobby.id }, host.token))).toBe('FORBIDDEN');

    const afterA = ok(await t.gql(LEAVE, { id: lobby.id }, a.token), 'leaveLobby') as LobbyView;
    expect(afterA.host.id).toBe(b.id);
    const empty = ok(await t.gql(LEAVE, { id: lobby.id }, b.token), 'leaveLobby') as LobbyView;
    expect(empty).toMatchObject({ status: 'closed', seatsTaken: 0 });
    expect(code(await join(host, { lobbyId: lobby.id }))).toBe('CONFLICT');
  });

  it('cannot leave after the game has started', async () => {
    const { lobby, rest } = await table('short', 2);
    const result = await t.gql(LEAVE, { id: lobby.id }, rest[1].token);
    expect(code(result)).toBe('CONFLICT');
    expect(result.errors?.[0].message).toMatch(/already started/);
  });

  it('lets the host remove a player; anyone else is FORBIDDEN', async () => {
    const { lobby, host, rest } = await table('classic-4', 2);
    const [a, b] = rest;
    const denied = await t.gql(REMOVE, { id: lobby.id, player: b.id }, a.token);
    expect(code(denied)).toBe('FORBIDDEN');
    const stranger = await player(t);
    expect(code(await t.gql(REMOVE, { id: lobby.id, player: b.id }, stranger.token))).toBe('FORBIDDEN');

    const after = ok(await t.gql(REMOVE, { id: lobby.id, player: b.id }, host.token), 'removeFromLobby') as LobbyView;
    expect(seating(after)).toEqual([host.id, a.id, null, null]);
    expect(code(await t.gql(REMOVE, { id: lobby.id, player: b.id }, host.token))).toBe('NOT_FOUND');
    expect(code(await t.gql(REMOVE, { id: lobby.id, player: host.id }, host.token))).toBe('BAD_INPUT');
    expect(code(await t.gql(REMOVE, { id: lobby.id, player: 'x' }, host.token))).toBe('BAD_INPUT');
    // The removed player may come back.
    expect(ok(await join(b, { lobbyId: lobby.id }), 'joinLobby').seatsTaken).toBe(3);
  });

  it('cannot remove anyone after the start', async () => {
    const { lobby, host, rest } = await table('classic', 2);
    expect(code(await t.gql(REMOVE, { id: lobby.id, player: rest[0].id }, host.token))).toBe('CONFLICT');
  });
});

describe('concurrent joins', () => {
  it('gives the last chosen seat to exactly one of three players, and starts one game', async () => {
    const { lobby } = await table('classic', 1);
    const racers = await players(t, 3, 'race');
    const results = await Promise.all(racers.map((p) => join(p, { lobbyId: lobby.id, seat: 2 })));
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.filter((r) => code(r) === 'CONFLICT')).toHaveLength(2);
    const games = await prismaOf(t).game.findMany({ where: { lobbyId: lobby.id } });
    expect(games).toHaveLength(1);
    const final = ok(await t.gql(GET, { id: lobby.id }), 'lobby') as LobbyView;
    expect(final).toMatchObject({ status: 'started', gameId: games[0].id, seatsTaken: 3 });
  });

  it('gives the last free seat to exactly one of three players joining anywhere', async () => {
    const { lobby } = await table('classic', 1);
    const racers = await players(t, 3, 'race');
    const results = await Promise.all(racers.map((p) => join(p, { inviteCode: lobby.inviteCode })));
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.filter((r) => code(r) === 'CONFLICT')).toHaveLength(2);
    expect(await prismaOf(t).game.count({ where: { lobbyId: lobby.id } })).toBe(1);
  });

  it('starts the game once when the last two seats are filled at the same moment', async () => {
    const { lobby } = await table('classic-4', 1);
    const racers = await players(t, 2, 'race');
    const results = await Promise.all(racers.map((p) => join(p, { lobbyId: lobby.id })));
    expect(results.map((r) => r.errors)).toEqual([undefined, undefined]);
    expect(await prismaOf(t).game.count({ where: { lobbyId: lobby.id } })).toBe(1);
    const final = ok(await t.gql(GET, { id: lobby.id }), 'lobby') as LobbyView;
    expect(final).toMatchObject({ status: 'started', seatsTaken: 4 });
  });
});

describe('play again', () => {
  it('makes a lobby of the same players in the same seats, hosted by the caller, and starts it', async () => {
    const { lobby, host, rest } = await table('bidding', 2, { options: { target: 200 } });
    await finishGame(t, lobby.gameId!);
    const again = ok(await t.gql(PLAY_AGAIN, { id: lobby.gameId }, rest[1].token), 'playAgain') as LobbyView;
    expect(again).toMatchObject({
      preset: 'bidding',
      options: { target: 200 },
      status: 'started',
      visibility: 'unlisted',
      previousGameId: lobby.gameId,
      host: { id: rest[1].id },
    });
    expect(again.id).not.toBe(lobby.id);
    expect(again.gameId).toEqual(expect.any(String));
    expect(again.gameId).not.toBe(lobby.gameId);
    expect(seating(again)).toEqual([host.id, rest[0].id, rest[1].id]);
    // Everyone at the table sees it, and asking again gives the same rematch.
    expect(ok(await t.gql(GET, { id: again.id }, host.token), 'lobby')).toMatchObject({ id: again.id });
    const same = ok(await t.gql(PLAY_AGAIN, { id: lobby.gameId }, host.token), 'playAgain') as LobbyView;
    expect(same.id).toBe(again.id);
  });

  it('makes one rematch when several players ask at once', async () => {
    const { lobby, host, rest } = await table('short', 2);
    await finishGame(t, lobby.gameId!);
    const results = await Promise.all([host, ...rest].map((p) => t.gql(PLAY_AGAIN, { id: lobby.gameId }, p.token)));
    const ids = new Set(results.map((r) => (ok(r, 'playAgain') as LobbyView).id));
    expect(ids.size).toBe(1);
    expect(await prismaOf(t).lobby.count({ where: { previousGameId: lobby.gameId } })).toBe(1);
  });

  it('is only for the players of a finished game', async () => {
    const { lobby, host } = await table('classic', 2);
    const early = await t.gql(PLAY_AGAIN, { id: lobby.gameId }, host.token);
    expect(code(early)).toBe('CONFLICT');
    expect(early.errors?.[0].message).toMatch(/not over/);
    await finishGame(t, lobby.gameId!);
    const stranger = await player(t);
    expect(code(await t.gql(PLAY_AGAIN, { id: lobby.gameId }, stranger.token))).toBe('FORBIDDEN');
    expect(code(await t.gql(PLAY_AGAIN, { id: '00000000-0000-4000-8000-000000000000' }, host.token))).toBe('NOT_FOUND');
    expect(code(await t.gql(PLAY_AGAIN, { id: 'nope' }, host.token))).toBe('BAD_INPUT');
  });
});
