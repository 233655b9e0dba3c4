import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENDED_NOTICE, KEYS, TokenKeeper, type KeeperChange, type KeptStorage, type Lock, type SessionTokens } from './token-keeper';

/** One localStorage shared by the "tabs" of a test. */
function memoryStorage(): KeptStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

/** navigator.locks.request's behaviour: one holder at a time per name, in order of asking. */
function memoryLocks(): Lock {
  const tails = new Map<string, Promise<unknown>>();
  return (name, fn) => {
    const run = (tails.get(name) ?? Promise.resolve()).then(fn);
    tails.set(name, run.catch(() => undefined));
    return run;
  };
}

class Refused extends Error {}

/** A server of refresh tokens: each traded once; a second use is refused (and ends the session). */
function fakeServer(lifetimeMs: number) {
  let n = 0;
  const valid = new Set<string>();
  const calls: string[] = [];
  const issue = (): SessionTokens => {
    n++;
    valid.add(`r${n}`);
    return { accessToken: `a${n}`, refreshToken: `r${n}`, accessTokenExpiresAt: new Date(Date.now() + lifetimeMs).toISOString(), player: { name: 'ola' } };
  };
  return {
    calls,
    issue,
    refresh: async (refreshToken: string) => {
      calls.push(refreshToken);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the round trip
      if (!valid.delete(refreshToken)) {
        valid.clear(); // reuse: the session is over
        throw new Refused('used before');
      }
      return issue();
    },
  };
}

function tab(storage: KeptStorage, server: ReturnType<typeof fakeServer>, lock?: Lock) {
  const keeper = new TokenKeeper({ storage, refresh: server.refresh, isRefusal: (e) => e instanceof Refused, lock });
  const changes: KeeperChange[] = [];
  keeper.onChange((c) => changes.push(c));
  return { keeper, changes };
}

function signIn(keeper: TokenKeeper, tokens: SessionTokens) {
  keeper.keep({ token: tokens.accessToken, name: tokens.player.name, expiresAt: Date.parse(tokens.accessTokenExpiresAt), refreshToken: tokens.refreshToken });
}

describe('TokenKeeper', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-12-02T06:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refreshes a minute before a 15-minute token expires, then plans the next one', async () => {
    const storage = memoryStorage();
    const server = fakeServer(900_000);
    const { keeper } = tab(storage, server, memoryLocks());
    signIn(keeper, server.issue());
    await vi.advanceTimersByTimeAsync(839_000);
    expect(server.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(server.calls).toEqual(['r1']);
    expect(keeper.stored()).toMatchObject({ token: 'a2', refreshToken: 'r2', name: 'ola' });
    expect(storage.map.get(KEYS.refreshToken)).toBe('r2');
    await vi.advanceTimersByTimeAsync(840_000);
    expect(server.calls).toEqual(['r1', 'r2']);
    expect(await keeper.accessToken()).toBe('a3');
    keeper.stop();
  });

  it('refreshes a short-lived token at three quarters of its life, never in a loop', async () => {
    const server = fakeServer(60_000);
    const { keeper } = tab(memoryStorage(), server, memoryLocks());
    signIn(keeper, server.issue());
    await vi.advanceTimersByTimeAsync(44_000);
    expect(server.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(server.calls).toEqual(['r1']);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(server.calls).toEqual(['r1']);
    keeper.stop();
  });

  it('sends no token about to expire: a request waits for the next one', async () => {
    const server = fakeServer(900_000);
    const storage = memoryStorage();
    const { keeper } = tab(storage, server, memoryLocks());
    signIn(keeper, server.issue());
    keeper.stop();
    // A tab woken from sleep, its timer late: the stored token expires in 3 s.
    storage.setItem(KEYS.expiresAt, String(Date.now() + 3_000));
    const token = keeper.accessToken();
    await vi.advanceTimersByTimeAsync(100);
    expect(await token).toBe('a2');
    keeper.stop();
  });

  it('refreshes once for requests refused at the same time', async () => {
    const server = fakeServer(900_000);
    const { keeper } = tab(memoryStorage(), server, memoryLocks());
    signIn(keeper, server.issue());
    const both = Promise.all([keeper.refused('a1'), keeper.refused('a1'), keeper.refused('a1')]);
    await vi.advanceTimersByTimeAsync(100);
    expect(await both).toEqual(['a2', 'a2', 'a2']);
    expect(server.calls).toEqual(['r1']);
    // A request that still sent the old token takes the new one without another refresh.
    expect(await keeper.refused('a1')).toBe('a2');
    expect(server.calls).toEqual(['r1']);
    keeper.stop();
  });

  it('one refresh across tabs: the tab that waited takes the pair the other stored', async () => {
    const storage = memoryStorage();
    const server = fakeServer(900_000);
    const locks = memoryLocks();
    const a = tab(storage, server, locks);
    const b = tab(storage, server, locks);
    signIn(a.keeper, server.issue());
    b.keeper.reread();
    // Both tabs' timers fire at the same moment.
    await vi.advanceTimersByTimeAsync(841_000);
    expect(server.calls).toEqual(['r1']);
    expect(a.keeper.stored()?.token).toBe('a2');
    expect(await b.keeper.accessToken()).toBe('a2');
    expect(b.changes.at(-1)?.stored?.token).toBe('a2');
    a.keeper.stop();
    b.keeper.stop();
  });

  it('without navigator.locks, a lease in storage keeps two tabs from trading the same token', async () => {
    const storage = memoryStorage();
    const server = fakeServer(900_000);
    const a = tab(storage, server);
    const b = tab(storage, server);
    signIn(a.keeper, server.issue());
    b.keeper.reread();
    const both = Promise.all([a.keeper.refused('a1'), b.keeper.refused('a1')]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await both).toEqual(['a2', 'a2']);
    expect(server.calls).toEqual(['r1']);
    expect(storage.map.has(`${KEYS.lease}.mizerka.refresh`)).toBe(false);
    a.keeper.stop();
    b.keeper.stop();
  });

  it('a refused refresh signs out with a notice; a network failure keeps the session', async () => {
    const server = fakeServer(900_000);
    const storage = memoryStorage();
    let offline = true;
    const keeper = new TokenKeeper({
      storage,
      refresh: (token) => (offline ? Promise.reject(new Error('offline')) : server.refresh(token)),
      isRefusal: (e) => e instanceof Refused,
      lock: memoryLocks(),
    });
    const changes: KeeperChange[] = [];
    keeper.onChange((c) => changes.push(c));
    signIn(keeper, server.issue());
    await expect(keeper.refused('a1')).rejects.toThrow('offline');
    expect(keeper.stored()?.token).toBe('a1');
    offline = false;
    // The session was ended elsewhere (here: its refresh token already traded).
    const elsewhere = server.refresh('r1');
    await vi.advanceTimersByTimeAsync(100);
    await elsewhere;
    const next = keeper.refused('a1');
    await vi.advanceTimersByTimeAsync(100);
    expect(await next).toBeNull();
    expect(keeper.stored()).toBeNull();
    expect(storage.map.size).toBe(0);
    expect(changes.at(-1)).toEqual({ stored: null, notice: ENDED_NOTICE });
    keeper.stop();
  });

  it('keeps a personal token as it is: no refresh, no expiry', async () => {
    const server = fakeServer(900_000);
    const { keeper } = tab(memoryStorage(), server, memoryLocks());
    keeper.keep({ token: 'mzk_personal', name: 'bot-owner', expiresAt: null, refreshToken: null });
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(await keeper.accessToken()).toBe('mzk_personal');
    expect(await keeper.refused('mzk_personal')).toBeNull();
    expect(server.calls).toEqual([]);
  });
});
