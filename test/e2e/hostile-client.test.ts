// "Bad input is the client's fault, always": a hostile client's requests — malformed, oversized,
// deeply nested, NUL characters, numbers beyond 32 bits, unknown paths, subscriptions over HTTP —
// get a 4xx with BAD_INPUT (or NOT_FOUND) naming the field or the limit, never a 500 or INTERNAL.
// First one regression test per class found by a hostile-client run, then a fuzz test: a few
// thousand generated requests against the real application, after which it still serves a move.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { makeRules } from '@mizerka/rules';
import { playRandomGame } from '../../libs/rules/test-kit/driver.js';
import { makeRng } from '../../libs/rules/test-kit/rng.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import { noteAnswer } from '../openapi-contract.js';
import { data, http, LOBBY_FIELDS, playGame, register, registerMany, seatTable, type Http, type Player } from './clients.js';

let t: TestApp;
let h: Http;
let host: Player;
/** A bidding game under way, and the lobby that started it (seated: `table`). */
let table: Player[];
let gameId: string;
let lobbyId: string;

const PROBLEM = 'application/problem+json';
/** Every request of this file answers within this, or the test fails: no hang. */
const REQUEST_TIMEOUT_MS = 10_000;

interface Answer {
  status: number;
  type: string;
  text: string;
  body: any;
}

/** One raw request: any method, path, headers and body text, answered or timed out. */
async function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  const answer = { status: response.status, type: response.headers.get('content-type') ?? '', text, body: parsed };
  // Raw as they are, these answers are held to the OpenAPI document too (test/openapi-contract.ts).
  noteAnswer({ method, path, status: answer.status, type: answer.type, body: parsed });
  return answer;
}

const json = { 'content-type': 'application/json' };
const auth = (token: string) => ({ ...json, authorization: `Bearer ${token}` });
const postGql = (body: string, token?: string) => send('POST', '/graphql', body, token ? auth(token) : json);

/** A JSON text nested `depth` objects deep, built as text (JSON.stringify would recurse). */
const nestedJson = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

function expectProblem(answer: Answer, status: number, code: string, extra: Record<string, unknown> = {}) {
  expect(answer.type, answer.text).toContain(PROBLEM);
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body, answer.text).toMatchObject({ status, code, ...extra });
}

function expectGqlBadInput(answer: Answer, extensions: Record<string, unknown> = {}) {
  expect(answer.status, answer.text).toBeLessThan(500);
  expect(answer.body?.errors?.length, answer.text).toBeGreaterThan(0);
  for (const error of answer.body.errors) expect(error.extensions, answer.text).toMatchObject({ code: 'BAD_INPUT', ...extensions });
}

beforeAll(async () => {
  t = await startTestApp();
  h = http(t.baseUrl, { timeoutMs: REQUEST_TIMEOUT_MS });
  host = await register(h, 'hc');
  table = await registerMany(h, 3, 'hc');
  ({ gameId, lobbyId } = await seatTable(h, table, 'bidding'));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('each class of the hostile-client run is a 4xx naming the field or the limit', () => {
  it('a JSON body nested deeper than 32 is refused before validation, over REST and GraphQL', async () => {
    const rest = await send('POST', '/api/v1/lobbies', `{"preset":"classic","options":${nestedJson(5000)}}`, auth(host.token));
    expectProblem(rest, 400, 'BAD_INPUT', { limit: 'depth', max: 32 });
    const gql = await postGql(`{"query":"query($v: String) { me { id } }","variables":{"v":${nestedJson(40)}}}`, host.token);
    expectProblem(gql, 400, 'BAD_INPUT', { limit: 'depth', max: 32 });
    // 32 deep is still read (and then refused for what it is, an unknown option)
    const ok = await send('POST', '/api/v1/lobbies', `{"preset":"classic","options":${nestedJson(31)}}`, auth(host.token));
    expectProblem(ok, 400, 'BAD_INPUT', { rule: 'bad-rules' });
  });

  it('a body over 64 kB is refused naming the limit', async () => {
    const answer = await send('POST', '/api/v1/players', JSON.stringify({ name: 'x'.repeat(70_000) }), json);
    expectProblem(answer, 400, 'BAD_INPUT', { limit: 'bodySize', max: 65536 });
  });

  it('a NUL character in any string is BAD_INPUT naming the field: query string, body, GraphQL argument', async () => {
    expectProblem(await send('GET', '/api/v1/lobbies?preset=cl%00assic'), 400, 'BAD_INPUT', { field: 'preset' });
    expectProblem(
      await send('POST', '/api/v1/me/tokens', JSON.stringify({ name: 'lap\u0000top' }), auth(host.token)),
      400,
      'BAD_INPUT',
      { field: 'name' },
    );
    expectGqlBadInput(await postGql(JSON.stringify({ query: '{ lobbies(preset: "cl\\u0000assic") { total } }' })), { field: 'preset' });
    expectGqlBadInput(
      await postGql(
        JSON.stringify({ query: 'mutation($n: String!) { createApiToken(input: { name: $n }) { token } }', variables: { n: 'a\u0000' } }),
        host.token,
      ),
      { field: 'input.name' },
    );
  });

  it('a lone UTF-16 surrogate in any text is BAD_INPUT naming the field: imported record, body, key, GraphQL argument and variable', async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, as a hostile client would.
    const rules = makeRules('short');
    if (!rules.ok) throw new Error(rules.error.message);
    // A record that replays: only the name at seat 1 is wrong.
    const played = playRandomGame(rules.value, makeRng(1), { keepSteps: false, players: [host.name, '\ud800', 'x'] }).record;
    expectProblem(await send('POST', '/api/v1/games/import', JSON.stringify(played), auth(host.token)), 400, 'BAD_INPUT', { field: 'players[1]' });
    expectProblem(await send('POST', '/api/v1/me/tokens', JSON.stringify({ name: 'lap\udc00top' }), auth(host.token)), 400, 'BAD_INPUT', {
      field: 'name',
    });
    expectProblem(await send('POST', '/api/v1/me/tokens', '{"name":"laptop","\\ud800":1}', auth(host.token)), 400, 'BAD_INPUT');
    // graphql-js's parser refuses a lone surrogate spelled in the document itself.
    expectGqlBadInput(await postGql(JSON.stringify({ query: '{ lobbies(preset: "cl\\uD800assic") { total } }' })));
    expectGqlBadInput(
      await postGql(
        JSON.stringify({ query: 'mutation($r: JSON!) { importGame(record: $r) { gameId } }', variables: { r: played } }),
        host.token,
      ),
      { field: 'record.players[1]' },
    );
    expectGqlBadInput(
      await postGql(
        JSON.stringify({ query: 'mutation($n: String!) { createApiToken(input: { name: $n }) { token } }', variables: { n: '\udfffx' } }),
        host.token,
      ),
      { field: 'input.name' },
    );
  });

  it("the event log still takes limit, v1's first name of first, and names it when out of range", async () => {
    const one = await send('GET', `/api/v1/games/${gameId}/events?limit=1`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.entries).toHaveLength(1);
    expect(one.body).toEqual((await send('GET', `/api/v1/games/${gameId}/events?first=1`)).body);
    expectProblem(await send('GET', `/api/v1/games/${gameId}/events?limit=0`), 400, 'BAD_INPUT', { field: 'limit' });
  });

  it('numbers beyond a 32-bit integer are BAD_INPUT naming the field, in REST query strings as in GraphQL', async () => {
    for (const after of ['99999999999', '2147483648', '1e20']) {
      expectProblem(await send('GET', `/api/v1/games/${gameId}/events?after=${after}`), 400, 'BAD_INPUT', { field: 'after' });
    }
    const gql = await postGql(JSON.stringify({ query: `{ gameEvents(gameId: "${gameId}", after: 2147483648) { version } }` }));
    expectGqlBadInput(gql);
    expectProblem(await send('GET', '/api/v1/lobbies?first=100000000000000000000'), 400, 'BAD_INPUT');
    const body = JSON.stringify({ kind: 'bid', bid: 'pass', expectedVersion: 1e20 });
    expectProblem(await send('POST', `/api/v1/games/${gameId}/moves`, body, auth(table[0].token)), 400, 'BAD_INPUT');
    const within = await send('GET', `/api/v1/games/${gameId}/events?after=2147483647`);
    expect(within.status, within.text).toBe(200);
  });

  it('a bidding target is 1 to 10000 on both surfaces, so no lobby or game holds one GraphQL cannot show', async () => {
    const huge = await send('POST', '/api/v1/lobbies', JSON.stringify({ preset: 'bidding', options: { target: 10_000_000_000 } }), auth(host.token));
    expectProblem(huge, 400, 'BAD_INPUT', { field: 'options.target' });
    const message = 'target must be a whole number from 1 to 10000';
    const rest = await send('POST', '/api/v1/lobbies', JSON.stringify({ preset: 'bidding', options: { target: 20_000 } }), auth(host.token));
    expectProblem(rest, 400, 'BAD_INPUT', { rule: 'bad-rules', detail: message });
    const gql = await postGql(
      JSON.stringify({ query: 'mutation { createLobby(input: { preset: "bidding", options: { target: 20000 } }) { id } }' }),
      host.token,
    );
    expectGqlBadInput(gql, { rule: 'bad-rules' });
    expect(gql.body.errors[0].message).toBe(message);
    // the top of the range is a lobby that both surfaces read
    const top = await send('POST', '/api/v1/lobbies', JSON.stringify({ preset: 'bidding', options: { target: 10_000 } }), auth(host.token));
    expect(top.status, top.text).toBe(201);
    const read = await t.gql(`query($id: ID!) { lobby(id: $id) { options { target } } }`, { id: top.body.id });
    expect(read.errors).toBeUndefined();
    expect(read.data).toEqual({ lobby: { options: { target: 10_000 } } });
  });

  it('__proto__ and constructor option keys are refused like any unknown key, not dropped', async () => {
    for (const key of ['__proto__', 'constructor']) {
      const answer = await send('POST', '/api/v1/lobbies', `{"preset":"bidding","options":{"${key}":{"target":50}}}`, auth(host.token));
      expectProblem(answer, 400, 'BAD_INPUT', { field: `options.${key}` });
    }
    const unknown = await send('POST', '/api/v1/lobbies', '{"preset":"bidding","options":{"jokers":1}}', auth(host.token));
    expectProblem(unknown, 400, 'BAD_INPUT', { detail: 'unknown option "jokers"' });
  });

  it('a subscription sent over HTTP is BAD_INPUT with status 400', async () => {
    const answer = await postGql(JSON.stringify({ query: `subscription { gameLog(gameId: "${gameId}") { seq } }` }), table[0].token);
    expect(answer.status, answer.text).toBe(400);
    expectGqlBadInput(answer);
    expect(answer.body.errors[0].message).toMatch(/graphql-ws/);
  });

  it('an unknown persisted-query version is BAD_INPUT', async () => {
    const answer = await postGql(
      JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'ab'.repeat(32) } } }),
    );
    expect(answer.status, answer.text).toBe(400);
    expectGqlBadInput(answer);
    const mismatch = await postGql(
      JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }),
    );
    expect(mismatch.status, mismatch.text).toBe(400);
    expectGqlBadInput(mismatch);
  });

  it('a GraphQL document nested thousands deep is a 4xx, never INTERNAL', async () => {
    for (const query of [
      '{' + ' me {'.repeat(5000) + ' id' + '}'.repeat(5001),
      '{ lobbies(preset: ' + '['.repeat(5000) + ']'.repeat(5000) + ') { total } }',
      '{ lobbies(preset: ' + '{a:'.repeat(4000) + '1' + '}'.repeat(4000) + ') { total } }',
    ]) {
      const answer = await postGql(JSON.stringify({ query }));
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
      for (const error of answer.body.errors) expect(error.extensions.code, answer.text).not.toBe('INTERNAL');
    }
  });

  it('every unknown path, in /api/v1 or not, is a NOT_FOUND problem; /graphql, /health, /api/docs and the web client (/) stay theirs', async () => {
    for (const [method, path] of [
      ['POST', '/'],
      ['GET', '/assets/nope.js'],
      ['GET', '/nope'],
      ['POST', '/index.html'],
      ['DELETE', '/api'],
      ['GET', '/api/v2/lobbies'],
      ['GET', '/api/v1/nope'],
      ['PUT', '/api/v1/lobbies'],
      ['POST', '/health'],
    ]) {
      const answer = await send(method, path);
      expectProblem(answer, 404, 'NOT_FOUND');
    }
    expect((await send('GET', '/health')).status).toBe(200);
    expect((await send('GET', '/health/ready')).status).toBe(200);
    // GET / is the web client once it is built (dist/web, by npm run build), else unknown too.
    const home = await send('GET', '/');
    if (home.status === 200) expect(home.type).toContain('text/html');
    else expectProblem(home, 404, 'NOT_FOUND');
    expect((await send('GET', '/api/docs')).type).toContain('text/html');
    expect((await send('GET', '/api/docs/json')).body.openapi).toMatch(/^3\./);
    expect((await postGql(JSON.stringify({ query: '{ __typename }' }))).body).toMatchObject({ data: { __typename: 'Query' } });
  });
});

// ---------------------------------------------------------------------------------------------
// The fuzz test

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const HUGE = ['2147483648', '-2147483649', '99999999999999999999', '1e400', '-1e400', 'NaN', 'Infinity', '0x10', '1.5', '-0', '', ' '];

/** A value of any JSON type, often a wrong one, a huge number, a NUL string or a long string. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1e20, -1e300, 1.5, 0, -1, 10_001, 2 ** 53, 'a\u0000b', '\u0000', '\ud800', 'a\udc00b', '', null, true, [], {}),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.nat({ max: 3000 }).map((n) => 'x'.repeat(n)),
);

/** A body text: JSON of a likely shape with hostile values, deep nesting, oversize, or not JSON at all. */
const hostileBody: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  {
    weight: 4,
    arbitrary: fc
    .dictionary(
      fc.constantFrom('preset', 'options', 'seat', 'visibility', 'name', 'inviteCode', 'kind', 'card', 'cards', 'discards', 'bid',
        'suit', 'contract', 'expectedVersion', 'idempotencyKey', '__proto__', 'constructor', 'target', 'mizerkaQuotas'),
      hostileValue,
      { maxKeys: 5 },
    )
    .map((v) => JSON.stringify(v)),
  },
  fc.record({ target: hostileValue, doubleMisere: hostileValue }).map((options) => JSON.stringify({ preset: 'bidding', options })),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => nestedJson(depth)),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.constantFrom('{', '{"a":', '[1,', 'null', '"text"', '12', 'true', '{"a":1}{', '\u0000', '{"a":"\\u0000"}', '{"__proto__":{"x":1}}'),
  fc.nat({ max: 100_000 }).map((n) => JSON.stringify({ name: 'y'.repeat(n) })),
);

/** Paths: the real routes with good, wrong and hostile ids and query strings, and random ones. */
function hostilePath(): fc.Arbitrary<string> {
  const id = fc.oneof(
    fc.constantFrom(gameId, lobbyId, table[0].id, randomUUID(), 'not-an-id', '%00', '..', '%2e%2e', '%ff', '%', 'a%00b', ''),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
  );
  const query = fc
    .array(
      fc.tuple(
        fc.constantFrom('offset', 'limit', 'after', 'first', 'status', 'preset', 'seat', '__proto__', 'a[b]', 'after[]'),
        fc.oneof(fc.constantFrom(...HUGE, '%00', 'a%00', 'classic', 'finished', '-1'), fc.string({ maxLength: 12 }).map(encodeURIComponent)),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => (pairs.length === 0 ? '' : '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')));
  const route = fc.oneof(
    fc.constantFrom('/api/v1/lobbies', '/api/v1/games', '/api/v1/players', '/api/v1/me', '/api/v1/me/tokens', '/api/v1/lobbies/join-by-code'),
    id.map((x) => `/api/v1/games/${x}`),
    id.map((x) => `/api/v1/games/${x}/events`),
    id.map((x) => `/api/v1/games/${x}/deals`),
    id.map((x) => `/api/v1/games/${x}/record`),
    id.map((x) => `/api/v1/games/${x}/moves`),
    id.map((x) => `/api/v1/lobbies/${x}`),
    id.map((x) => `/api/v1/lobbies/${x}/join`),
    id.map((x) => `/api/v1/lobbies/by-code/${x}`),
    id.map((x) => `/api/v1/me/tokens/${x}`),
    fc.tuple(id, id).map(([a, b]) => `/api/v1/lobbies/${a}/players/${b}`),
    fc.constantFrom('/', '/health', '/health/ready', '/api', '/api/v1', '/api/v2/lobbies', '/api/docs/nope', '/favicon.ico'),
    fc.array(fc.string({ maxLength: 10 }).map(encodeURIComponent), { maxLength: 4 }).map((parts) => '/' + parts.join('/')),
  );
  return fc.tuple(route, query).map(([r, q]) => r + q);
}

/** Mostly JSON, as a client means it; sometimes not. */
const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'application/json; charset=latin-9', 'multipart/form-data', 'application/graphql-response+json'));
/** Absent more often than not; else hostile. */
const sometimes = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, value);

/** GraphQL documents: the schema's operations with hostile literals, random token soup, deep nesting. */
function hostileDocument(): fc.Arbitrary<string> {
  const literal = fc.oneof(
    fc.constantFrom('2147483648', '-2147483649', '1e400', '1.5', 'null', 'true', '"\\u0000"', '"a\\u0000b"', '[]', '{}', '{a: 1}',
      '"classic"', `"${gameId}"`, `"${lobbyId}"`, '"not-an-id"', '$v', 'ENUM', '"""block\u0000"""', '"\\uD800"', '"a\\uDC00"'),
    fc.integer().map(String),
    fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
  );
  const operation = fc.oneof(
    literal.map((x) => `{ lobbies(preset: ${x}) { total lobbies { id options { target } } } }`),
    fc.tuple(literal, literal).map(([a, b]) => `{ lobbies(first: ${a}, offset: ${b}) { total } }`),
    literal.map((x) => `{ game(id: ${x}) { id version } }`),
    fc.tuple(literal, literal).map(([a, b]) => `{ gameEvents(gameId: ${a}, after: ${b}) { version } }`),
    literal.map((x) => `{ lobby(id: ${x}) { id } }`),
    literal.map((x) => `{ lobbyByInviteCode(code: ${x}) { id } }`),
    literal.map((x) => `{ scoreSheet(gameId: ${x}) { status } }`),
    literal.map((x) => `{ gameRecord(gameId: ${x}) { format } }`),
    fc.tuple(literal, literal).map(([a, b]) => `{ myGames(limit: ${a}, offset: ${b}) { nextOffset } }`),
    fc.tuple(literal, literal).map(([a, b]) => `mutation { createLobby(input: { preset: ${a}, options: { target: ${b} } }) { id } }`),
    fc.tuple(literal, literal).map(([a, b]) => `mutation { joinLobby(input: { lobbyId: ${a}, seat: ${b} }) { id } }`),
    literal.map((x) => `mutation { register(input: { name: ${x} }) { token } }`),
    literal.map((x) => `mutation { createApiToken(input: { name: ${x} }) { token } }`),
    fc.tuple(literal, literal).map(([a, b]) => `mutation { makeMove(input: { gameId: "${gameId}", kind: bid, bid: ${a}, expectedVersion: ${b} }) { version } }`),
    literal.map((x) => `mutation { makeMove(input: { gameId: ${x}, kind: play, card: "AS" }) { version } }`),
    literal.map((x) => `subscription { gameLog(gameId: ${x}) { seq } }`),
    fc.constantFrom('query($v: Int) { lobbies(first: $v) { total } }', 'query($v: String) { lobbies(preset: $v) { total } }',
      'mutation($v: CreateLobbyInput!) { createLobby(input: $v) { id } }', 'mutation($v: MakeMoveInput!) { makeMove(input: $v) { version } }',
      '{ __schema { types { name } } }', '{ __typename }', 'query A { __typename } query B { __typename }'),
  );
  const tokens = fc
    .array(fc.constantFrom('{', '}', '(', ')', '[', ']', ':', '$', '...', '@', '!', '=', 'query', 'mutation', 'subscription',
      'fragment', 'on', 'me', 'id', 'lobbies', '"', '"\\u0000"', '1e99', '#', '\n', '__typename'), { maxLength: 60 })
    .map((parts) => parts.join(' '));
  const deep = fc.integer({ min: 10, max: 10_000 }).chain((depth) =>
    fc.constantFrom(
      '{' + ' me {'.repeat(depth) + ' id' + '}'.repeat(depth + 1),
      `{ lobbies(preset: ${'['.repeat(depth)}${']'.repeat(depth)}) { total } }`,
      `query${'($v: [[Int]])'.repeat(1)} { __typename }${'}'.repeat(depth)}`,
    ),
  );
  const fragments = fc.integer({ min: 1, max: 800 }).map((n) => {
    let text = '{ ...F0 } ';
    for (let i = 0; i < n; i++) text += `fragment F${i} on Query { ...F${i + 1} } `;
    return text + `fragment F${n} on Query { __typename }`;
  });
  const aliases = fc.integer({ min: 1, max: 3000 }).map((n) => '{ ' + Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ') + ' }');
  return fc.oneof({ weight: 6, arbitrary: operation }, { weight: 2, arbitrary: tokens }, { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: fragments }, { weight: 1, arbitrary: aliases }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) });
}

/** A whole GraphQL request: POST or GET, a document, hostile variables, operation name and extensions. */
function hostileGraphQL(): fc.Arbitrary<{ method: string; path: string; body?: string; headers: Record<string, string> }> {
  const payload = fc.record(
    {
      query: fc.oneof({ weight: 8, arbitrary: hostileDocument() }, { weight: 1, arbitrary: hostileValue }),
      variables: sometimes(fc.oneof({ weight: 3, arbitrary: fc.record({ v: hostileValue }) }, hostileValue)),
      operationName: sometimes(fc.oneof(fc.constantFrom('A', 'B', ''), hostileValue)),
      extensions: sometimes(
        fc.oneof(
          hostileValue,
          fc.record({ persistedQuery: fc.record({ version: hostileValue, sha256Hash: fc.oneof(hostileValue, fc.constant('ab'.repeat(32))) }) }),
        ),
      ),
    },
    { requiredKeys: ['query'] },
  );
  const post = fc.tuple(payload, contentType, fc.boolean()).map(([p, type, signed]) => ({
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify(p),
    headers: { 'content-type': type, ...(signed ? { authorization: `Bearer ${host.token}` } : {}) },
  }));
  const get = payload.map((p) => ({
    method: 'GET',
    path: '/graphql?' + new URLSearchParams(
      Object.entries(p)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
    ).toString().slice(0, 6000),
    headers: { 'apollo-require-preflight': 'true' },
  }));
  const raw = fc.tuple(hostileBody, contentType).map(([body, type]) => ({
    method: 'POST',
    path: '/graphql',
    body,
    headers: { 'content-type': type },
  }));
  return fc.oneof({ weight: 6, arbitrary: post }, { weight: 2, arbitrary: get }, { weight: 2, arbitrary: raw });
}

function hostileRest(): fc.Arbitrary<{ method: string; path: string; body?: string; headers: Record<string, string> }> {
  const token = fc.oneof(
    { weight: 3, arbitrary: fc.constant(host.token) },
    fc.constantFrom<string | null>(null, 'garbage', `${host.token}\u00e9`),
  );
  const method = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('GET', 'POST') }, fc.constantFrom(...METHODS));
  return fc.tuple(method, hostilePath(), hostileBody, contentType, token).map(
    ([method, path, body, type, bearer]) => ({
      method,
      path,
      body,
      headers: { 'content-type': type, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    }),
  );
}

/** How often the fuzz saw each status: it must reach the application, not only its front door. */
const statuses = new Map<number, number>();

/** What every answer must be: in time, below 500, never INTERNAL; a problem document for REST errors. */
async function checkAnswer(request: { method: string; path: string; body?: string; headers: Record<string, string> }) {
  let answer: Answer;
  try {
    answer = await send(request.method, request.path, request.body, request.headers);
  } catch (error) {
    // a header value fetch itself refuses (not a request the server saw) is no finding
    if (error instanceof TypeError && /header/i.test(String(error.cause ?? error.message))) return;
    throw error;
  }
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const seen = `${request.method} ${request.path.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, seen).toBeLessThan(500);
  expect(answer.text, seen).not.toContain('"INTERNAL"');
  const own = request.path.startsWith('/graphql') || request.path.startsWith('/api/docs');
  if (answer.status >= 400 && !own && request.method !== 'HEAD') expect(answer.type, seen).toContain(PROBLEM);
}

describe('fuzz: generated malformed and oversized requests', () => {
  it('answers thousands of them with a 4xx or a success, never a 5xx or a hang, and plays on after', async () => {
    const started = Date.now();
    const runs = Number(process.env.HOSTILE_RUNS ?? 1500);
    await fc.assert(fc.asyncProperty(hostileRest(), checkAnswer), { numRuns: runs, endOnFailure: true });
    await fc.assert(fc.asyncProperty(hostileGraphQL(), checkAnswer), { numRuns: runs, endOnFailure: true });

    if (process.env.HOSTILE_DEBUG) console.log([...statuses].sort((a, b) => a[0] - b[0]));
    for (const status of [200, 400, 401, 404]) expect(statuses.get(status) ?? 0, `status ${status} seen`).toBeGreaterThan(runs / 100);

    // still healthy: ready, and a new table plays real moves over GraphQL and REST
    expect((await send('GET', '/health/ready')).status).toBe(200);
    const players = await registerMany(h, 3, 'hz');
    const fresh = await seatTable(h, players, 'classic');
    const { played } = await playGame(h, players, fresh.gameId, { seed: 7, maxMoves: 3 });
    expect(played).toHaveLength(3);
    const lobby = data(await h.gql(`query($id: ID!) { lobby(id: $id) { ${LOBBY_FIELDS} } }`, { id: fresh.lobbyId }), 'lobby');
    expect(lobby.gameId).toBe(fresh.gameId);
    expect(Date.now() - started).toBeLessThan(90_000);
  }, 120_000);
});
