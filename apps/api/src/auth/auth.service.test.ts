import { describe, expect, it } from 'vitest';
import type { ConfigService } from '@nestjs/config';
import { parseRows, type SqlQuery } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import type { HotSql } from '../prisma/hot-sql.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import { AuthService } from './auth.service.js';
import { InstanceBus } from '../instance-bus/instance-bus.js';
import type { IdentityIssuers } from './identity-issuers.js';
import { RevocationBus } from './revocation-bus.js';
import { hashToken } from './tokens.js';

const TOKEN = 'mzk_test-token';
const TOKEN_ID = '11111111-1111-1111-1111-111111111111';

/** A database of one token whose reads can be held back, to line up a race with a revoke. */
function fakeDatabase() {
  let revokedAt: Date | null = null;
  let expiresAt: Date | null = null;
  let gate: Promise<void> | null = null;
  let reads = 0;
  const hot = {
    // Checked against the statement's shape, as HotSql.rows does.
    rows: async <Row>(query: SqlQuery<Row>) => {
      reads++;
      // The row as it is when the statement runs, returned after the gate opens.
      const snapshot = { revoked_at: revokedAt, expires_at: expiresAt };
      if (gate) await gate;
      if (query.values[0] !== hashToken(TOKEN)) return [];
      return parseRows(query, [{ token_id: TOKEN_ID, last_used_at: new Date(), scopes: ['read', 'play'], session_id: null, player_id: 'p1', name: 'ala', ...snapshot }]);
    },
  };
  const prisma = { apiToken: { update: async () => ({}) } };
  return {
    prisma: prisma as unknown as PrismaService,
    hot: hot as unknown as HotSql,
    reads: () => reads,
    revoke: () => (revokedAt = new Date()),
    expire: (at: Date) => (expiresAt = at),
    hold: () => {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
  };
}

const config = (authCacheSeconds: number) => ({ get: () => authCacheSeconds }) as unknown as ConfigService<AppConfig, true>;

/** IDENTITY_ISSUERS unset: asked to verify anything, it fails the test. */
const noIssuers = {
  any: false,
  authenticate: () => {
    throw new Error('no issuer is trusted: nothing should be verified');
  },
} as unknown as IdentityIssuers;

// One instance: no REDIS_URL, so the bus carries nothing between instances.
const singleInstance = new InstanceBus({ get: () => null } as unknown as ConfigService<AppConfig, true>);

describe('AuthService', () => {
  it('caches a token for AUTH_CACHE_SECONDS and drops it at once when revoked here', async () => {
    const db = fakeDatabase();
    const bus = new RevocationBus(singleInstance);
    const auth = new AuthService(db.prisma, db.hot, bus, config(60), noIssuers);
    expect((await auth.authenticate(`Bearer ${TOKEN}`)).scopes).toEqual(['read', 'play']);
    await auth.authenticate(`Bearer ${TOKEN}`);
    expect(db.reads()).toBe(1);
    db.revoke();
    void bus.revoked(TOKEN_ID);
    await expect(auth.authenticate(`Bearer ${TOKEN}`)).rejects.toThrow(/revoked/);
  });

  it('does not re-cache a token whose read raced its revoke', async () => {
    const db = fakeDatabase();
    const bus = new RevocationBus(singleInstance);
    const auth = new AuthService(db.prisma, db.hot, bus, config(60), noIssuers);
    // The read starts and sees the token unrevoked; the revoke commits and is announced before
    // the read's answer comes back.
    const open = db.hold();
    const racing = auth.authenticate(`Bearer ${TOKEN}`);
    await new Promise((r) => setImmediate(r));
    db.revoke();
    void bus.revoked(TOKEN_ID);
    open();
    await expect(racing).rejects.toThrow(/revoked/);
    // Nothing was cached: the next request reads the database, which says revoked.
    await expect(auth.authenticate(`Bearer ${TOKEN}`)).rejects.toThrow(/revoked/);
    expect(db.reads()).toBe(2);
  });

  it('answers, but does not cache, a read that raced the revoke of another token', async () => {
    const db = fakeDatabase();
    const bus = new RevocationBus(singleInstance);
    const auth = new AuthService(db.prisma, db.hot, bus, config(60), noIssuers);
    const open = db.hold();
    const racing = auth.authenticate(`Bearer ${TOKEN}`);
    await new Promise((r) => setImmediate(r));
    void bus.revoked('22222222-2222-2222-2222-222222222222');
    open();
    expect((await racing).id).toBe('p1');
    await auth.authenticate(`Bearer ${TOKEN}`);
    expect(db.reads()).toBe(2);
  });

  it('refuses an expired token, and caches none past its expiry', async () => {
    const db = fakeDatabase();
    const auth = new AuthService(db.prisma, db.hot, new RevocationBus(singleInstance), config(60), noIssuers);
    db.expire(new Date(Date.now() - 1000));
    await expect(auth.authenticate(`Bearer ${TOKEN}`)).rejects.toThrow(/expired/);
    await expect(auth.authenticate(`Bearer ${TOKEN}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

    const soon = fakeDatabase();
    const auth2 = new AuthService(soon.prisma, soon.hot, new RevocationBus(singleInstance), config(60), noIssuers);
    soon.expire(new Date(Date.now() + 30));
    await auth2.authenticate(`Bearer ${TOKEN}`);
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline) {
      try {
        await auth2.authenticate(`Bearer ${TOKEN}`);
      } catch (error) {
        expect(String(error)).toMatch(/expired/);
        return;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the cached token outlived its expiry');
  });

  it('authenticates a request once for the rate limit and the guard, and again when its header changes', async () => {
    const db = fakeDatabase();
    // No cache between requests: every authentication that is not shared reads the token.
    const auth = new AuthService(db.prisma, db.hot, new RevocationBus(singleInstance), config(0), noIssuers);
    const request = { headers: { authorization: `Bearer ${TOKEN}` } as Record<string, string | undefined> };
    const [first, second] = [await auth.authenticateRequest(request), await auth.authenticateRequest(request)];
    expect(second).toBe(first);
    expect(db.reads()).toBe(1);
    await auth.authenticateRequest({ headers: { authorization: `Bearer ${TOKEN}` } });
    expect(db.reads()).toBe(2);

    request.headers.authorization = 'Bearer mzk_unknown';
    await expect(auth.authenticateRequest(request)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(auth.authenticateRequest(request)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'Unknown API token' });
    expect(db.reads()).toBe(3);
  });

  it('refuses a JWT as an unknown token when no issuer is trusted, reading nothing', async () => {
    const db = fakeDatabase();
    const auth = new AuthService(db.prisma, db.hot, new RevocationBus(singleInstance), config(60), noIssuers);
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGEifQ.c2ln';
    await expect(auth.authenticate(`Bearer ${jwt}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'Unknown API token' });
    expect(db.reads()).toBe(0);
  });
});
