import { isIP } from 'node:net';

// A webhook URL is chosen by a player and called by the server: without these checks it would
// let anyone make the server reach its own network (databases, cloud metadata at
// 169.254.169.254, admin ports on localhost). Every address a name resolves to is judged before
// any connection, at creation and again at each attempt, and the connection then goes to the
// address judged, so a second DNS answer cannot swap it (DNS rebinding).

export interface UrlPolicy {
  /** Tests and local development: `http:` and loopback addresses are allowed. */
  allowHttpLoopback: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (a test passes a stub). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The URL, or an address it leads to, is one the server must not call. */
export class UrlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefused';
  }
}

/** The host name did not resolve (an attempt fails; at creation it is bad input). */
export class UrlUnresolved extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlUnresolved';
  }
}

/** The URL and the one address the request goes to. */
export interface VettedTarget {
  url: URL;
  address: ResolvedAddress;
}

/** The URL if its form is acceptable (scheme, no credentials); its addresses are judged apart. */
export function parseWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('is not an absolute URL such as https://example.com/hook');
  }
  const schemes = policy.allowHttpLoopback ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new UrlRefused(`must start with ${schemes.map((s) => `${s}//`).join(' or ')} (not ${url.protocol}//)`);
  }
  // Credentials in a URL would be sent to whoever answers, and shown in the endpoint's listing.
  if (url.username !== '' || url.password !== '') throw new UrlRefused('must not contain credentials (user:password@)');
  if (hostOf(url) === '') throw new UrlRefused('has no host');
  return url;
}

/** The host as a resolver or a socket wants it: an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The URL and the address to connect to, once the URL's form and every address its host resolves
 * to have been judged; anything else throws UrlRefused (or UrlUnresolved) before any connection.
 */
export async function vetUrl(raw: string, policy: UrlPolicy, resolve: Resolver): Promise<VettedTarget> {
  const url = parseWebhookUrl(raw, policy);
  const host = hostOf(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new UrlUnresolved(`the host ${host} does not resolve${typeof code === 'string' ? ` (${code})` : ''}`);
    }
    if (addresses.length === 0) throw new UrlUnresolved(`the host ${host} resolves to no address`);
  }
  // One bad address is enough: a resolver may hand out any of them, in any order, next time.
  for (const { address } of addresses) {
    const why = addressRefusal(address, policy.allowHttpLoopback);
    if (why !== null) {
      throw new UrlRefused(literal !== 0 ? `points to ${address}, ${why}` : `has a host (${host}) that resolves to ${address}, ${why}`);
    }
  }
  return { url, address: addresses[0]! };
}

/** Why the server must not connect to `address` ("a private address" …), or null when it may. */
export function addressRefusal(address: string, allowLoopback: boolean): string | null {
  const bare = address.split('%')[0]!; // a zone id (fe80::1%eth0) says nothing about the range
  const family = isIP(bare);
  if (family === 4) return v4Refusal(v4ToInt(bare), allowLoopback);
  if (family === 6) return v6Refusal(v6ToBigInt(bare), allowLoopback);
  return 'not an IP address';
}

const REFUSED_V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'a "this network" address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['169.254.0.0', 16, 'a link-local address (cloud metadata services live here)'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a reserved address (6to4 relay anycast)'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved address (benchmarking)'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const REFUSED_V6: [string, number, string][] = [
  ['64:ff9b:1::', 48, 'a reserved address (local-use NAT64)'],
  ['100::', 64, 'a reserved address (discard-only)'],
  ['2001::', 23, 'a reserved address (IETF protocol assignments, Teredo)'],
  ['2001:db8::', 32, 'a documentation address'],
  ['3fff::', 20, 'a documentation address'],
  ['5f00::', 16, 'a reserved address (segment routing)'],
  ['fc00::', 7, 'a private (unique local) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a reserved (site-local) address'],
  ['ff00::', 8, 'a multicast address'],
];

const V4_RANGES = REFUSED_V4.map(([base, bits, why]) => ({ base: v4ToInt(base), mask: bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0, why }));
const V6_RANGES = REFUSED_V6.map(([base, bits, why]) => ({ base: v6ToBigInt(base), mask: v6Mask(bits), why }));
const LOOPBACK_V4 = { base: v4ToInt('127.0.0.0'), mask: 0xff000000 };

function v4Refusal(ip: number, allowLoopback: boolean): string | null {
  if (((ip & LOOPBACK_V4.mask) >>> 0) === LOOPBACK_V4.base) return allowLoopback ? null : 'a loopback address';
  for (const r of V4_RANGES) if (((ip & r.mask) >>> 0) === r.base) return r.why;
  return null;
}

function v6Refusal(ip: bigint, allowLoopback: boolean): string | null {
  if (ip === 0n) return 'the unspecified address';
  if (ip === 1n) return allowLoopback ? null : 'a loopback address';
  // IPv6 forms that carry an IPv4 address reach that address: judge it.
  const embedded = embeddedV4(ip);
  if (embedded !== null) {
    const why = v4Refusal(embedded.ip, allowLoopback);
    return why === null ? null : `${why}, in ${embedded.form} form`;
  }
  for (const r of V6_RANGES) if ((ip & r.mask) === r.base) return r.why;
  // Only global unicast (2000::/3) is routable on the internet; the rest is reserved.
  if (ip >> 125n !== 1n) return 'a reserved address (not global unicast)';
  return null;
}

const LOW32 = 0xffffffffn;

/** The IPv4 address inside an IPv4-mapped, -translated, -compatible, NAT64 or 6to4 address. */
function embeddedV4(ip: bigint): { ip: number; form: string } | null {
  const top96 = ip >> 32n;
  const low = Number(ip & LOW32);
  if (top96 === 0xffffn) return { ip: low, form: 'IPv4-mapped IPv6' };
  if (top96 === 0xffff0000n) return { ip: low, form: 'IPv4-translated IPv6' };
  if (top96 === 0n) return { ip: low, form: 'IPv4-compatible IPv6' };
  if (top96 === v6ToBigInt('64:ff9b::') >> 32n) return { ip: low, form: 'NAT64 IPv6' };
  if (ip >> 112n === 0x2002n) return { ip: Number((ip >> 80n) & LOW32), form: '6to4 IPv6' };
  return null;
}

function v4ToInt(address: string): number {
  return address.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

/** A valid IPv6 address (net.isIP said so) as a 128-bit number. */
function v6ToBigInt(address: string): bigint {
  let text = address.toLowerCase();
  // A dotted IPv4 tail (::ffff:10.0.0.1) is the last two groups.
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const v4 = v4ToInt(tail);
    text = `${text.slice(0, text.length - tail.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function v6Mask(bits: number): bigint {
  return ((1n << BigInt(bits)) - 1n) << BigInt(128 - bits);
}
