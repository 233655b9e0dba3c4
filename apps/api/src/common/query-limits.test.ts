import { readFileSync } from 'node:fs';
import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_FIELDS, GAME_FIELDS, GAME_QUERY, SEAT_VIEW_FIELDS } from '../../../../test/graphql-selections.js';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { closeWsClients, wsClient } from '../../../../test/graphql-ws.js';
import { makeMoveMutation } from '../../bench/game-client/index.js';
import { loadConfig } from '../config/app-config.js';
import { players, startGame } from '../games/games.test-kit.js';
import { LOBBY_FIELDS } from '../lobbies/lobbies.test-kit.js';
import { graphqlGuards } from './query-limits.js';

// A hostile client's requests are refused before a resolver runs, with QUERY_TOO_COMPLEX naming
// the limit; the requests real clients send fit the defaults.

const DEFAULTS = loadConfig({}).graphqlLimits;
const EVENTS = `entries { seq kind dealIndex seat createdAt events { ${EVENT_FIELDS} } }`;

/** The hostile request of the issue: 200 aliased gameEvents of 1,000 entries each. */
const aliased = (n: number, first: number) =>
  `query($id: ID!) { ${Array.from({ length: n }, (_, i) => `g${i}: gameEvents(gameId: $id, first: ${first}) { version ${EVENTS} }`).join(' ')} }`;

describe('the limits leave room for the queries clients send', () => {
  const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
  const rules = [...specifiedRules, ...graphqlGuards(DEFAULTS).validationRules];
  const ok = (query: string) => validate(schema, parse(query, { maxTokens: DEFAULTS.maxTokens }), rules).map((e) => e.message);

  it.each([
    ['a game, every field', GAME_QUERY],
    ['a move with the seat view', makeMoveMutation()],
    ['a full page of the event log, every field', `query($id: ID!) { gameEvents(gameId: $id) { gameId version hasMore ${EVENTS} } }`],
    ['a full page of lobbies', `query($first: Int) { lobbies(first: $first) { total nextCursor hasMore lobbies { ${LOBBY_FIELDS} } } }`],
    [
      'a full page of my games',
      '{ myGames(first: 100) { nextCursor hasMore items { id preset status version toMove mySeat myTurn createdAt updatedAt finishedAt players { seat playerId name total place } } } }',
    ],
    ['a game and its seat view side by side', `query($id: ID!) { a: game(id: $id) { view { ${SEAT_VIEW_FIELDS} } } b: game(id: $id) { view { ${SEAT_VIEW_FIELDS} } } }`],
  ])('%s', (_what, query) => {
    expect(ok(query)).toEqual([]);
  });

  it('counts a page size given by a variable as the largest page, and an omitted one as its default', () => {
    const events = (first: string) =>
      `query($id: ID!${first.includes('$n') ? ', $n: Int!' : ''}) { ${[1, 2, 3].map((i) => `e${i}: gameEvents(gameId: $id${first}) { ${EVENTS} }`).join(' ')} }`;
    expect(ok(events(', first: 5'))).toEqual([]);
    expect(ok(events(', first: $n'))).toEqual([expect.stringMatching(/cost .* over the limit/)]);
    expect(ok(events(''))).toEqual([expect.stringMatching(/cost .* over the limit/)]);
  });
});

let t: TestApp;
let gameId: string;
beforeAll(async () => {
  t = await startTestApp();
  gameId = await startGame(t, await players(t, 3, 'ql'), 'short');
});
afterAll(async () => {
  await closeWsClients();
  await t?.close();
});

async function post(body: unknown) {
  const response = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] } };
}

const limitsHit = (errors: { extensions: Record<string, unknown> }[] | undefined) =>
  (errors ?? []).filter((e) => e.extensions.code === 'QUERY_TOO_COMPLEX').map((e) => e.extensions.limit);

describe('a request over a limit is refused with QUERY_TOO_COMPLEX (400), before anything runs', () => {
  it('200 aliased gameEvents of 1,000 entries: refused at once, naming the limits', async () => {
    const started = performance.now();
    const answer = await post({ query: aliased(200, 1000), variables: { id: gameId } });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    // Its text alone is over the token limit; with that lifted, aliases and cost refuse it.
    expect(limitsHit(answer.body.errors)).toEqual(['tokens']);
    const lifted = await startTestApp({ graphqlLimits: { ...DEFAULTS, maxTokens: 100_000 } }, t.databaseUrl);
    try {
      const again = await fetch(`${lifted.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: aliased(200, 1000), variables: { id: gameId } }),
      });
      expect(again.status).toBe(400);
      const errors = ((await again.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] }).errors;
      expect(limitsHit(errors).sort()).toEqual(['aliases', 'cost']);
      const aliases = errors.find((e) => e.extensions.limit === 'aliases')!;
      expect(aliases.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', status: 400, max: DEFAULTS.maxAliases, found: 200 });
      expect(aliases.message).toMatch(/aliases 200 is over the limit of 10/);
    } finally {
      await lifted.close();
    }
  });

  it('text nested thousands deep, or of a huge token count, is a client error, not a stack overflow', async () => {
    for (const query of [`{${'a{'.repeat(5000)}a${'}'.repeat(5000)}}`, `{ ${'a '.repeat(5000)}}`, `{ f(x: ${'['.repeat(5000)}1${']'.repeat(5000)}) }`]) {
      const answer = await post({ query });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'QUERY_TOO_COMPLEX', limit: 'tokens', max: DEFAULTS.maxTokens }) })]);
    }
  });

  it('nesting within the token limit but beyond the depth limit', async () => {
    const deep = `{ ${'... on Query { '.repeat(3)}game(id: "${gameId}") { view { legalMoves { cards } } } ${'} '.repeat(3)}}`;
    expect((await post({ query: deep })).status).toBe(200);
    const nested = `{${'a{'.repeat(30)}a${'}'.repeat(30)}}`;
    const answer = await post({ query: nested });
    expect(answer.status).toBe(400);
    expect(limitsHit(answer.body.errors)).toContain('depth');
  });

  it('batching is off: an array of operations is refused, not run', async () => {
    const answer = await post([{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(answer.status).toBe(400);
  });

  it('a response over GRAPHQL_MAX_RESPONSE_BYTES is refused (400), naming the limit', async () => {
    const big = `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } gameEvents(gameId: $id) { ${EVENTS} } }`;
    const full = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: big, variables: { id: gameId } }),
    });
    expect(full.status).toBe(200);
    expect((await full.text()).length).toBeGreaterThan(1024);
    const small = await startTestApp({ graphqlLimits: { ...DEFAULTS, maxResponseBytes: 1024 } }, t.databaseUrl);
    try {
      const response = await fetch(`${small.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: big, variables: { id: gameId } }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { errors: { extensions: Record<string, unknown> }[] };
      expect(body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'responseBytes', max: 1024 });
      expect((await small.gql('{ __typename }')).data).toEqual({ __typename: 'Query' });
    } finally {
      await small.close();
    }
  });
});

describe('no schema names leak through "did you mean" suggestions', () => {
  it('hides enum value suggestions, in a literal and through a variable, as it hides field and argument ones', async () => {
    const id = '00000000-0000-0000-0000-000000000000';
    const answers = await Promise.all([
      post({ query: `mutation { addBot(lobbyId: "${id}", level: strongg) { id } }` }),
      post({ query: `mutation { makeMove(input: { gameId: "${id}", kind: plya, card: "AS" }) { version } }` }),
      post({ query: 'mutation($l: BotLevel!) { addBot(lobbyId: "00000000-0000-0000-0000-000000000000", level: $l) { id } }', variables: { l: 'strongg' } }),
      post({ query: 'mutation($k: MoveKind!) { makeMove(input: { gameId: "00000000-0000-0000-0000-000000000000", kind: $k }) { version } }', variables: { k: 'plya' } }),
      post({ query: '{ lobbiez { total } }' }),
      post({ query: '{ lobbies(frist: 1) { total } }' }),
    ]);
    for (const answer of answers) {
      expect(answer.body.errors?.length, JSON.stringify(answer.body)).toBeGreaterThan(0);
      for (const error of answer.body.errors!) {
        expect(error.extensions.code).toBe('BAD_INPUT');
        expect(error.message).not.toMatch(/did you mean|"strong"|"play"|"lobbies"|"first"/i);
      }
    }
  });
});

describe('the same limits on graphql-ws subscriptions', () => {
  function subscribe(query: string, token: string) {
    const client = wsClient(t.baseUrl, token);
    return new Promise<{ message: string; extensions: Record<string, unknown> }[]>((resolve, reject) => {
      client.subscribe(
        { query, variables: { gameId } },
        {
          next: () => reject(new Error('the subscription ran')),
          error: (errors) => (Array.isArray(errors) ? resolve(errors) : reject(errors instanceof Error ? errors : new Error(String(errors)))),
          complete: () => reject(new Error('the subscription completed')),
        },
      );
    });
  }

  it('refuses too many aliases, too deep a selection and too many tokens, and keeps the socket', async () => {
    const [p] = await players(t, 1, 'qs');
    const aliases = `subscription($gameId: ID!) { gameLog(gameId: $gameId) { ${Array.from({ length: 12 }, (_, i) => `a${i}: seq`).join(' ')} } }`;
    expect(limitsHit(await subscribe(aliases, p.token))).toEqual(['aliases']);
    const deep = `subscription($gameId: ID!) { gameLog(gameId: $gameId) { events { ${'x { '.repeat(20)}x${' }'.repeat(20)} } } }`;
    expect(limitsHit(await subscribe(deep, p.token))).toContain('depth');
    const tokens = `subscription { ${'__typename '.repeat(5000)}}`;
    expect(limitsHit(await subscribe(tokens, p.token))).toEqual(['tokens']);
    const typo = await subscribe('subscription { nope }', p.token);
    expect(typo[0].extensions.code).toBe('BAD_INPUT');
  });
});

describe('a burst of heavy queries does not starve other requests', () => {
  it('50 hostile and 50 maximal queries at once, then a simple query answers within seconds', async () => {
    const [p] = await players(t, 1, 'qb');
    // Close to the cost limit, within every other one.
    const maximal = `query($id: ID!) { a: gameEvents(gameId: $id, first: 100) { version entries { seq kind events { type seat card } } }
      lobbies(first: 100) { total lobbies { id preset seatsTaken seats { seat player { id name } } } }
      myGames(first: 100) { items { id version players { seat name total } } } }`;
    const burst = [
      ...Array.from({ length: 50 }, () => post({ query: aliased(200, 1000), variables: { id: gameId } })),
      ...Array.from({ length: 50 }, () =>
        fetch(`${t.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` },
          body: JSON.stringify({ query: maximal, variables: { id: gameId } }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { errors?: unknown } })),
      ),
    ];
    const started = performance.now();
    const simple = await t.gql('{ lobbies(first: 1) { total } }');
    expect(simple.errors).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5000);
    const answers = await Promise.all(burst);
    expect(answers.slice(0, 50).every((a) => a.status === 400)).toBe(true);
    expect(answers.slice(50).map((a) => [a.status, a.body.errors])).toEqual(Array.from({ length: 50 }, () => [200, undefined]));
  }, 60_000);
});
