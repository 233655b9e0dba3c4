// The SDK's core scenarios against a real server, for any build of the SDK: src/client.test.ts
// runs them on this source; src/compat.test.ts on the SDK built from a release's contract
// (apps/api/contract/<version>), against the current server: what that release's clients do
// must go on working.
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TestApp } from '../../../test/app.js';
import { choose } from '../../../examples/bot.js';
import type * as Sdk from './index.js';

/** What the scenarios use of a build of the SDK (its index module). */
export type SdkModule = Pick<typeof Sdk, 'MizerkaClient' | 'MizerkaError' | 'isMizerkaError' | 'realClock'>;

/**
 * Declares the core scenarios (inside the caller's describe): `sdk()` is the build under test,
 * `app()` the running server (both read when a scenario runs, after the caller's beforeAll).
 */
export function coreScenarios(sdk: () => SdkModule, app: () => TestApp) {
  let n = 0;
  const uniqueName = (prefix: string) => `${prefix}core${process.pid % 10_000}x${n++}`;
  type Client = InstanceType<SdkModule['MizerkaClient']>;
  type Options = ConstructorParameters<SdkModule['MizerkaClient']>[0];

  /** A client of the app as a new bot account. */
  async function botClient(options: Partial<Options> = {}) {
    const { MizerkaClient } = sdk();
    const client = new MizerkaClient({ baseUrl: app().baseUrl, webSocket: WebSocket, reconnect: { minMs: 10, maxMs: 50 }, ...options });
    const { token } = await client.register(uniqueName('sdk'), { bot: true });
    return { client, token };
  }

  /** A `short` game of `client`'s player at seat 0 against two server bots: its id. */
  async function gameAgainstBots(client: Client): Promise<string> {
    const lobby = await client.createLobby({ preset: 'short', rated: false });
    await client.addBot(lobby.id, 'random');
    const started = await client.addBot(lobby.id, 'random');
    expect(started.status).toBe('started');
    return started.gameId!;
  }

  /** Waits until it is `client`'s turn in the game (or the game is over). */
  async function myTurnIn(client: Client, gameId: string) {
    for (let i = 0; i < 400; i++) {
      const game = await client.game(gameId);
      if (game.view.legalMoves?.seat === game.mySeat || game.status !== 'active') return game;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('never my turn');
  }

  const t = { get baseUrl() { return app().baseUrl; }, gql: (...args: Parameters<TestApp['gql']>) => app().gql(...args) };

  it('uses a personal token, and answers typed errors', async () => {
    const { client } = await botClient();
    expect(await client.me()).toMatchObject({ kind: 'bot', botLevel: null });
    const error = await client.game('not-a-uuid').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk().MizerkaError);
    expect(error).toMatchObject({ code: 'BAD_INPUT' });
    const missing = await client.game('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(sdk().isMizerkaError(missing, 'NOT_FOUND')).toBe(true);
    const anonymous = new (sdk().MizerkaClient)({ baseUrl: t.baseUrl });
    expect(await anonymous.me().catch((e: InstanceType<SdkModule['MizerkaError']>) => e.code)).toBe('UNAUTHENTICATED');
  });

  it('signs in with a password and trades the refresh token, once, before the access token expires', async () => {
    let offset = 0;
    const clock: Options['clock'] = { now: () => Date.now() + offset, sleep: sdk().realClock.sleep };
    const client = new (sdk().MizerkaClient)({ baseUrl: t.baseUrl, clock });
    const name = uniqueName('person');
    await new (sdk().MizerkaClient)({ baseUrl: t.baseUrl }).signUp(name, 'correct horse battery');
    const pairs: string[] = [];
    const session = await client.signIn(name.toUpperCase(), 'correct horse battery', { onTokens: (tokens) => pairs.push(tokens.refreshToken) });
    const first = session.current;
    expect((await client.me()).name).toBe(name);
    expect(pairs).toHaveLength(0);

    // 30 s before expiry (inside the default 60 s margin): three requests at once, one refresh.
    offset = first.accessTokenExpiresAt - Date.now() - 30_000;
    const mes = await Promise.all([client.me(), client.me(), client.me()]);
    expect(mes.map((m) => m.name)).toEqual([name, name, name]);
    expect(pairs).toHaveLength(1);
    expect(session.current.accessToken).not.toBe(first.accessToken);
    // The first refresh token is used up: the server ends a session whose refresh token comes twice.
    const reused = await t.gql(`mutation($r: String!) { refreshSession(input: { refreshToken: $r }) { accessToken } }`, { r: first.refreshToken });
    expect(reused.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await client.me().catch((e: InstanceType<SdkModule['MizerkaError']>) => e.code)).toBe('UNAUTHENTICATED');
  });


  it('sends the version it read and a key; a lost answer is asked again with the same key and done once', async () => {
    const sent: { key: string; expectedVersion: number }[] = [];
    let loseNext = false;
    const lossy: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const response = await fetch(input, init);
      if (body.includes('mutation MakeMove')) {
        const { input: move } = JSON.parse(body).variables;
        sent.push({ key: move.idempotencyKey, expectedVersion: move.expectedVersion });
        if (loseNext) {
          loseNext = false;
          throw new TypeError('fetch failed'); // the move was done; its answer is lost on the way
        }
      }
      return response;
    };
    const { client } = await botClient({ fetch: lossy });
    const gameId = await gameAgainstBots(client);
    const game = await myTurnIn(client, gameId);
    loseNext = true;
    const result = await client.move(gameId, choose(game.view.legalMoves!));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toEqual({ key: sent[1].key, expectedVersion: game.version });
    expect(result.version).toBeGreaterThan(game.version);
    const log = await t.gql(`query($id: ID!) { gameEvents(gameId: $id, after: 0) { entries { seq seat actor } } }`, { id: gameId }, undefined);
    const mine = log.data!.gameEvents.entries.filter((e: { actor: string }) => e.actor === 'player');
    expect(mine).toHaveLength(1);

    // Out of turn, or on a version that is gone: typed errors.
    const stale = await client.move(gameId, choose(game.view.legalMoves!), { expectedVersion: game.version }).catch((e: unknown) => e);
    expect(sdk().isMizerkaError(stale, 'CONFLICT', 'NOT_YOUR_TURN')).toBe(true);
    await client.resign(gameId);
    expect((await client.game(gameId)).status).not.toBe('active');
  });

  it('play() reads the table again after a CONFLICT and decides again', async () => {
    let spoil = true;
    const spoiling: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (spoil && body.includes('mutation MakeMove')) {
        spoil = false;
        const parsed = JSON.parse(body);
        parsed.variables.input.expectedVersion -= 1; // as if the clock had moved for us meanwhile
        return fetch(input, { ...init, body: JSON.stringify(parsed) });
      }
      return fetch(input, init);
    };
    const { client } = await botClient({ fetch: spoiling });
    const gameId = await gameAgainstBots(client);
    await myTurnIn(client, gameId);
    let decisions = 0;
    const result = await client.play(gameId, (view) => {
      decisions++;
      return choose(view.legalMoves!);
    });
    expect(decisions).toBe(2);
    expect(result?.gameId).toBe(gameId);
    // Not the caller's move (a player not seated here; the bots may already have brought the
    // turn back to the seat above): no decision asked, null.
    const { client: onlooker } = await botClient();
    expect(await onlooker.play(gameId, () => expect.unreachable(), { attempts: 1 })).toBeNull();
    await client.resign(gameId);
  });

  it('walks every page of a list as an async iterator', async () => {
    const { client } = await botClient();
    const preset = 'classic-4';
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await client.createLobby({ preset })).id);
    const seen: string[] = [];
    let requests = 0;
    const counting = new (sdk().MizerkaClient)({ baseUrl: t.baseUrl, fetch: (input, init) => (requests++, fetch(input, init)) });
    for await (const lobby of counting.lobbies({ preset, pageSize: 1 })) seen.push(lobby.id);
    expect(seen).toEqual(expect.arrayContaining(made));
    expect(new Set(seen).size).toBe(seen.length);
    expect(requests).toBeGreaterThanOrEqual(3);
  });

  it('follows a game over graphql-ws and over SSE, and resumes after the id given', async () => {
    const { client } = await botClient();
    const gameId = await gameAgainstBots(client);
    while ((await client.game(gameId)).version < 3) {
      await myTurnIn(client, gameId);
      await client.play(gameId, (view) => choose(view.legalMoves!));
    }
    const first: number[] = [];
    for await (const entry of client.gameLog(gameId)) if (first.push(entry.seq) === 3) break;
    expect(first).toEqual([1, 2, 3]);
    const resumed: number[] = [];
    for await (const entry of client.gameLog(gameId, { after: 1 })) if (resumed.push(entry.seq) === 2) break;
    expect(resumed).toEqual([2, 3]);
    const overSse: number[] = [];
    const stop = new AbortController();
    const stream = client.gameStream(gameId, { after: 1, signal: stop.signal });
    await stream.ready;
    for await (const entry of stream) if (overSse.push(entry.seq) === 2) break;
    stop.abort();
    expect(overSse).toEqual([2, 3]);
    expect(stream.lastId).toBe('3');
    await client.close();
  });
}
