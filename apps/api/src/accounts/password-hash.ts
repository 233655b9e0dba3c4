import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost: N = 2^ln, block size r, parallelism p. */
export interface ScryptCost {
  ln: number;
  r: number;
  p: number;
}

/**
 * OWASP's Password Storage Cheat Sheet lists scrypt at N=2^17, r=8, p=1 (128 MiB a hash) or, of
 * equal cost, N=2^15, r=8, p=3: the same work (p lanes are worked one after another) in 32 MiB.
 * We take the second: PASSWORD_HASHES_AT_ONCE hashes at a time cost a quarter of the memory.
 * The cost is stored in each hash, so it can be raised here: a sign-in with a hash of a lower cost
 * stores the password again at this one.
 */
export const SCRYPT_COST: ScryptCost = { ln: 15, r: 8, p: 3 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const MIB = 1024 * 1024;
/** The most any stored hash may ask for: a hash written by hand cannot make a check take gigabytes. */
const MAX_LN = 20;

/** The async scrypt (libuv's thread pool): the event loop never waits for a hash. */
function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost.ln, r: cost.r, p: cost.p, maxmem: 128 * 2 ** cost.ln * cost.r + 16 * MIB };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** A PHC-like string: `$scrypt$ln=15,r=8,p=3$<salt>$<hash>` (base64 without padding). */
export async function hashPassword(password: string, cost: ScryptCost = SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return `$scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${b64(salt)}$${b64(key)}`;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,64})\$([A-Za-z0-9+/]{16,128})$/;

interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const match = PHC.exec(stored);
  if (!match) return null;
  const cost = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (cost.ln < 1 || cost.ln > MAX_LN || cost.r < 1 || cost.p < 1) return null;
  return { cost, salt: Buffer.from(match[4], 'base64'), key: Buffer.from(match[5], 'base64') };
}

/** Whether `password` is the one of `stored`; a malformed hash matches nothing. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** A stored hash of a cost other than today's: store the password again after a good sign-in. */
export function needsRehash(stored: string, cost: ScryptCost = SCRYPT_COST): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.cost.ln !== cost.ln || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
}

/**
 * A hash of nothing anyone knows, checked against when the login names no account (or one without
 * a password), so that an unknown name costs the same time as a wrong password.
 */
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}
