import { describe, expect, it } from 'vitest';
import { HashGate } from './hash-gate.js';
import { hashPassword, needsRehash, SCRYPT_COST, verifyPassword } from './password-hash.js';

describe('password hashes', () => {
  it('hashes at the OWASP cost into a PHC string that verifies the password and nothing else', async () => {
    const stored = await hashPassword('zażółć gęślą jaźń');
    expect(stored).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword(stored, 'zażółć gęślą jaźń')).toBe(true);
    expect(await verifyPassword(stored, 'zażółć gęślą jaźn')).toBe(false);
    expect(needsRehash(stored)).toBe(false);
    expect(needsRehash(stored, { ...SCRYPT_COST, ln: 16 })).toBe(true);
  }, 30_000);

  it('salts each hash, and refuses malformed or overpriced stored strings', async () => {
    const cheap = { ln: 4, r: 8, p: 1 };
    const a = await hashPassword('same password', cheap);
    expect(a).not.toBe(await hashPassword('same password', cheap));
    expect(await verifyPassword('plain text', 'plain text')).toBe(false);
    expect(await verifyPassword(a.replace('ln=4', 'ln=30'), 'same password')).toBe(false);
  });
});

describe('HashGate', () => {
  it('runs at most its number at once, and serves waiting addresses in turn', async () => {
    const gate = new HashGate(1, 8);
    const order: string[] = [];
    let release!: () => void;
    const first = gate.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    const runs = ['a', 'a', 'a', 'b'].map((address, i) => gate.run(address, async () => void order.push(`${address}${i}`)));
    expect(gate.load).toEqual({ running: 1, waiting: 4 });
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, ...runs]);
    // b came last but is served second: one of a's, then b's, then the rest of a's.
    expect(order).toEqual(['a0', 'b3', 'a1', 'a2']);
  });

  it('refuses at once past the waiting allowed per address (RATE_LIMITED)', async () => {
    const gate = new HashGate(1, 2);
    let release!: () => void;
    const first = gate.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    const waiting = [gate.run('a', async () => 1), gate.run('a', async () => 2)];
    await expect(gate.run('a', async () => 3)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    const other = gate.run('b', async () => 4);
    release();
    await expect(Promise.all([first, ...waiting, other])).resolves.toEqual([undefined, 1, 2, 4]);
  });
});
