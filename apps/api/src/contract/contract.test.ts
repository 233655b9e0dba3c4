import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { changelogSections, explain, judgeContract, latestKeptVersion, readContract, type Contract } from './contract-check.js';
import { breakingRestChanges } from './openapi-diff.js';

// The committed schema.graphql and openapi.json are a promise to every client written against the
// last release (apps/api/contract/<version>/): what the server takes and answers may grow, never
// shrink, unless CHANGELOG.md announces a new major version. Other work adds fields and routes all
// the time; only a break fails here.

const apiDir = fileURLToPath(new URL('../..', import.meta.url));
const rootDir = fileURLToPath(new URL('../../../..', import.meta.url));
const contractDir = `${apiDir}contract`;
const packageVersion = (JSON.parse(readFileSync(`${rootDir}package.json`, 'utf8')) as { version: string }).version;
const changelog = readFileSync(`${rootDir}CHANGELOG.md`, 'utf8');
const keptVersion = latestKeptVersion(contractDir);
const kept = readContract(`${contractDir}/${keptVersion}`);
const current = readContract(apiDir);

/** The kept contract with edits: GraphQL by replacing text (each edit must apply), REST on a copy. */
function edited(graphqlEdits: [string | RegExp, string][], restEdit: (doc: any) => void = () => {}): Contract {
  let graphql = kept.graphql;
  for (const [from, to] of graphqlEdits) {
    const next = graphql.replace(from, to);
    expect(next, `the edit of ${String(from)} applies`).not.toBe(graphql);
    graphql = next;
  }
  const openapi = structuredClone(kept.openapi) as any;
  restEdit(openapi);
  return { graphql, openapi };
}

const judge = (next: Contract, options: { version?: string; changelog?: string } = {}) =>
  judgeContract({
    kept: { ...kept, version: keptVersion },
    current: { ...next, version: options.version ?? keptVersion },
    changelog: options.changelog ?? changelog,
  });

describe('the API contract', () => {
  it('keeps every promise of the last release kept under apps/api/contract/', async () => {
    const verdict = await judge(current, { version: packageVersion });
    expect(verdict.unannounced.length + verdict.problems.length, explain(verdict, keptVersion)).toBe(0);
  });

  it('has package.json at or past the kept release, and both versions in CHANGELOG.md', () => {
    const versions = changelogSections(changelog).map((s) => s.version);
    expect(versions[0]).toBe('Unreleased');
    expect(versions).toContain(packageVersion);
    expect(versions).toContain(keptVersion);
  });

  it('fails on deliberate breaking changes, naming each', async () => {
    const broken = edited(
      [
        // a field removed, an argument made required, an enum value removed, a type narrowed
        [/^ {2}deals: \[DealInfo!\]!\n/m, ''],
        [/(games\(\n(?:.*\n)*?\s+)first: Int! = 20/, '$1first: Int!'],
        [/^enum GameStatus \{\n {2}active\n {2}finished\n/m, 'enum GameStatus {\n  active\n'],
        [/^input RegisterInput \{\n/m, 'input RegisterInput {\n  """Required now"""\n  age: Int!\n'],
        [/(leaderboard\(\n.*\n\s+)after: String/, '$1after: String!'],
      ],
      (doc) => {
        const events = doc.paths['/api/v1/games/{id}/events'].get;
        events.parameters.find((p: any) => p.name === 'after').name = 'cursor';
        delete doc.paths['/api/v1/me/sign-out'];
        delete doc.components.schemas.Player.properties.id;
        doc.components.schemas.RegisterInput.properties.name.maxLength = 16;
        doc.components.schemas.LobbyVisibility.enum = ['public'];
      },
    );
    const verdict = await judge(broken);
    const message = explain(verdict, keptVersion);
    for (const expected of [
      "GraphQL: Game.deals: Field 'deals' was removed from object type 'Game'",
      'GraphQL: Query.games.first: the default 20 was removed from a non-null argument: clients must now send it',
      'GraphQL: Query.leaderboard.after',
      'GraphQL: GameStatus.finished',
      'GraphQL: RegisterInput.age',
      'REST: GET /api/v1/games/{id}/events query parameter `after` was removed',
      'REST: POST /api/v1/me/sign-out was removed',
      'REST: GET /api/v1/me response 200 field `id` was removed',
      'REST: POST /api/v1/players response 201 field `player.id` was removed',
      'REST: POST /api/v1/players request body field `name` maxLength lowered from 32 to 16',
      'REST: POST /api/v1/lobbies request body field `visibility` enum value `unlisted` was removed',
    ]) {
      expect(message).toContain(expected);
    }
    // Adding `cursor` does not make up for removing `after`: a client sending `after` breaks.
    expect(message).not.toContain('`cursor`');
  });

  it('accepts additions: fields, arguments, routes, optional parameters, enum values', async () => {
    const grown = edited(
      [
        [/^type Game \{\n/m, 'type Game {\n  """New"""\n  spectators: Int!\n'],
        [/(games\(\n)/, '$1    """New"""\n    sort: String\n'],
        [/^enum GameStatus \{\n {2}active\n/m, 'enum GameStatus {\n  abandoned\n  active\n'],
        [/^type Query \{\n/m, 'type Query {\n  serverClock: DateTime!\n'],
        [/^input RegisterInput \{\n/m, 'input RegisterInput {\n  """Optional"""\n  locale: String\n'],
      ],
      (doc) => {
        doc.paths['/api/v1/some-new-route'] = { get: { parameters: [], responses: { 200: { description: 'new' } } } };
        doc.paths['/api/v1/games/{id}/events'].get.parameters.push({ name: 'kinds', in: 'query', required: false, schema: { type: 'string' } });
        doc.components.schemas.Player.properties.flag = { type: 'string' };
        doc.components.schemas.Player.required.push('flag');
        doc.components.schemas.RegisterInput.properties.locale = { type: 'string' };
        doc.components.schemas.RegisterInput.properties.name.maxLength = 64;
        doc.paths['/api/v1/games/{id}/events'].get.deprecated = true;
      },
    );
    const verdict = await judge(grown);
    expect(verdict, explain(verdict, keptVersion)).toEqual({ unannounced: [], announced: [], problems: [] });
  });

  it('lets a breaking change through only when CHANGELOG.md announces it under a new major that package.json has', async () => {
    const broken = edited([[/^ {2}deals: \[DealInfo!\]!\n/m, '']]);
    const change = "GraphQL: Game.deals: Field 'deals' was removed from object type 'Game'";
    const next = `${Number(keptVersion.split('.')[0]) + 1}.0.0`;
    const announcing = `# Changelog\n\n## [Unreleased]\n\n## [${next}] - 2027-06-01\n\n### Removed\n\n- ${change} (deprecated since ${keptVersion})\n`;

    expect((await judge(broken, { version: next, changelog: announcing })).announced).toEqual([change]);
    // Announced, but package.json still has the old major: refused.
    expect((await judge(broken, { version: keptVersion, changelog: announcing })).problems).toEqual([
      `CHANGELOG.md announces "${change}" in ${next}, but package.json's version is ${keptVersion}`,
    ]);
    // Listed under a minor version of the same major: not an announcement.
    const minor = announcing.replace(`## [${next}]`, `## [${keptVersion.replace(/\.\d+$/, '.9')}]`);
    expect((await judge(broken, { version: next, changelog: minor })).unannounced).toEqual([change]);
  });
});

describe('breakingRestChanges', () => {
  const doc = (operation: object, schemas: Record<string, object> = {}) => ({
    paths: { '/api/v1/games/{id}': { post: operation } },
    components: { schemas },
  });
  const body = (schema: object, required = true) => ({ requestBody: { required, content: { 'application/json': { schema } } }, responses: {} });
  const answer = (schema: object, status = '200') => ({ responses: { [status]: { description: '', content: { 'application/json': { schema } } } } });

  it('takes a renamed path parameter as the same route, a header in any case as the same header', () => {
    const before = { paths: { '/g/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true }, { name: 'Idempotency-Key', in: 'header' }], responses: {} } } } };
    const after = { paths: { '/g/{gameId}': { get: { parameters: [{ name: 'gameId', in: 'path', required: true }, { name: 'idempotency-key', in: 'header' }], responses: {} } } } };
    expect(breakingRestChanges(before, after)).toEqual([]);
  });

  it('judges a type change by direction: a request may widen, a response may narrow', () => {
    const integer = { type: 'object', properties: { seat: { type: 'integer' } } };
    const number = { type: 'object', properties: { seat: { type: 'number' } } };
    expect(breakingRestChanges(doc(body(integer)), doc(body(number)))).toEqual([]);
    expect(breakingRestChanges(doc(body(number)), doc(body(integer)))).toEqual([
      'REST: POST /api/v1/games/{id} request body field `seat` type changed from number to integer',
    ]);
    expect(breakingRestChanges(doc(answer(number)), doc(answer(integer)))).toEqual([]);
    expect(breakingRestChanges(doc(answer(integer)), doc(answer(number)))).toEqual([
      'REST: POST /api/v1/games/{id} response 200 field `seat` type changed from integer to number',
    ]);
  });

  it('sees a response field that may be absent or null, a success status changed, and a body made required', () => {
    const required = { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, required: ['at'] };
    const optional = { type: 'object', properties: { at: { type: 'string', format: 'date-time', nullable: true } } };
    expect(breakingRestChanges(doc(answer(required)), doc(answer(optional)))).toEqual([
      'REST: POST /api/v1/games/{id} response 200 field `at` may now be absent',
      'REST: POST /api/v1/games/{id} response 200 field `at` may now be null',
    ]);
    expect(breakingRestChanges(doc(answer(required)), doc(answer(required, '201')))).toEqual(['REST: POST /api/v1/games/{id} response 200 was removed']);
    expect(breakingRestChanges(doc(body(required, false)), doc(body(required)))).toEqual(['REST: POST /api/v1/games/{id} request body became required']);
  });

  it('follows $refs and allOf into nested fields and array items, and stops on a schema that contains itself', () => {
    const schemas = (itemMax: number) => ({
      Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } }, seat: { allOf: [{ $ref: '#/components/schemas/Seat' }] } } },
      Seat: { type: 'integer', maximum: itemMax },
    });
    const tree = { $ref: '#/components/schemas/Tree' };
    expect(breakingRestChanges(doc(body(tree), schemas(3)), doc(body(tree), schemas(3)))).toEqual([]);
    expect(breakingRestChanges(doc(body(tree), schemas(3)), doc(body(tree), schemas(2)))).toEqual([
      'REST: POST /api/v1/games/{id} request body field `seat` maximum lowered from 3 to 2',
    ]);
  });

  it('sees a new required parameter and an optional one made required', () => {
    const before = doc({ parameters: [{ name: 'first', in: 'query', required: false, schema: { type: 'number' } }], responses: {} });
    const after = doc({
      parameters: [
        { name: 'first', in: 'query', required: true, schema: { type: 'number' } },
        { name: 'family', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: {},
    });
    expect(breakingRestChanges(before, after)).toEqual([
      'REST: POST /api/v1/games/{id} query parameter `first` became required',
      'REST: POST /api/v1/games/{id} new required query parameter `family`',
    ]);
  });
});
