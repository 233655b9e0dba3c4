import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ME = '{ me { id name createdAt } }';

describe('registration and tokens over GraphQL', () => {
  it('registers a player, returns a token once, and `me` answers with it', async () => {
    const { token, id } = await t.register('ala');
    expect(token).toMatch(/^mzk_[A-Za-z0-9_-]{43}$/);
    const me = await t.gql(ME, {}, token);
    expect(me.errors).toBeUndefined();
    expect(me.data?.me).toMatchObject({ id, name: 'ala' });
  });

  it('rejects a taken name, ignoring case, with CONFLICT', async () => {
    await t.register('bartek');
    const again = await t.gql('mutation { register(input: { name: "Bartek" }) { token } }');
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
  });

  it.each([
    ['ab', 'too short'],
    ['x'.repeat(33), 'too long'],
    ['-ala', 'leading dash'],
    ['ala ma kota', 'spaces'],
    ['zażółć', 'non-ASCII'],
  ])('rejects the name %j (%s) with BAD_INPUT', async (name) => {
    const result = await t.gql('mutation($n: String!) { register(input: { name: $n }) { token } }', { n: name });
    expect(result.errors?.[0].extensions?.code).toBe('BAD_INPUT');
    expect(result.errors?.[0].message).toMatch(/name/);
  });

  it('answers UNAUTHENTICATED without a token, with an unknown one and with a malformed header', async () => {
    expect((await t.gql(ME)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.gql(ME, {}, 'mzk_nope')).errors?.[0].message).toMatch(/Unknown API token/);
    const response = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic abc' },
      body: JSON.stringify({ query: ME }),
    });
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(body.errors[0].message).toMatch(/Malformed/);
  });

  it('creates further tokens, lists them without secrets, and revokes them', async () => {
    const { token } = await t.register('celina');
    const created = await t.gql(
      'mutation { createApiToken(input: { name: "phone" }) { token apiToken { id name revokedAt } } }',
      {},
      token,
    );
    const second = created.data?.createApiToken as { token: string; apiToken: { id: string } };
    expect(second.token).not.toBe(token);
    expect((await t.gql(ME, {}, second.token)).data?.me.name).toBe('celina');

    const list = await t.gql('{ myApiTokens { hasMore nextCursor tokens { id name revokedAt } } }', {}, token);
    expect(list.data?.myApiTokens).toMatchObject({ hasMore: false, nextCursor: null });
    expect(list.data?.myApiTokens.tokens.map((x: { name: string }) => x.name)).toEqual(['default', 'phone']);
    expect(JSON.stringify(list)).not.toContain(second.token);

    const revoked = await t.gql('mutation($id: ID!) { revokeApiToken(id: $id) { revokedAt } }', { id: second.apiToken.id }, token);
    expect(revoked.data?.revokeApiToken.revokedAt).toBeTruthy();
    const after = await t.gql(ME, {}, second.token);
    expect(after.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(after.errors?.[0].message).toMatch(/revoked/);
    expect((await t.gql(ME, {}, token)).data?.me.name).toBe('celina');
  });

  it("cannot revoke another player's token, and a bad id is BAD_INPUT", async () => {
    const a = await t.register('dawid');
    const b = await t.register('ewa');
    const list = await t.gql('{ myApiTokens { tokens { id } } }', {}, b.token);
    const theirs = list.data?.myApiTokens.tokens[0].id;
    const attempt = await t.gql('mutation($id: ID!) { revokeApiToken(id: $id) { id } }', { id: theirs }, a.token);
    expect(attempt.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const bad = await t.gql('mutation { revokeApiToken(id: "42") { id } }', {}, a.token);
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_INPUT');
  });

  it('answers a malformed query with BAD_INPUT, not a 500', async () => {
    const result = await t.gql('{ me { nope } }', {}, 'x');
    expect(result.errors?.[0].extensions?.code).toBe('BAD_INPUT');
  });
});

describe('the same over REST', () => {
  it('registers, answers /me, and manages tokens', async () => {
    const created = await t.rest('POST', '/api/v1/players', { name: 'franek' });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    const me = await t.rest('GET', '/api/v1/me', undefined, token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: 'franek', id: created.body.player.id });

    const second = await t.rest('POST', '/api/v1/me/tokens', { name: 'bot' }, token);
    expect(second.status).toBe(201);
    const revoke = await t.rest('DELETE', `/api/v1/me/tokens/${second.body.apiToken.id}`, undefined, token);
    expect(revoke.status).toBe(200);
    expect((await t.rest('GET', '/api/v1/me', undefined, second.body.token)).status).toBe(401);
  });

  it('reports errors as problem documents with the shared codes', async () => {
    const noToken = await t.rest('GET', '/api/v1/me');
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(noToken.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });

    const badName = await t.rest('POST', '/api/v1/players', { name: 'a b' });
    expect(badName.status).toBe(400);
    expect(badName.body.code).toBe('BAD_INPUT');

    const extra = await t.rest('POST', '/api/v1/players', { name: 'grzegorz', admin: true });
    expect(extra.status).toBe(400);

    const notJson = await t.rest('POST', '/api/v1/players', '{"name":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe('BAD_INPUT');

    const taken = await t.rest('POST', '/api/v1/players', { name: 'FRANEK' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('CONFLICT');

    const missing = await t.rest('GET', '/api/v1/nothing-here');
    expect([401, 404]).toContain(missing.status);
  });
});

describe('health and docs', () => {
  it('answers liveness and readiness', async () => {
    expect((await t.rest('GET', '/health')).status).toBe(200);
    const ready = await t.rest('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.info.database.status).toBe('up');
  });

  it('serves the OpenAPI document with the REST operations', async () => {
    const doc = await t.rest('GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/v1/players', '/api/v1/me', '/api/v1/me/tokens']));
  });
});
