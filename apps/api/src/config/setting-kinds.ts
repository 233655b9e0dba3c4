import { isIP } from 'node:net';
import { z } from 'zod';
import { readIdentityIssuers, type IdentityIssuer } from './identity-issuers.js';

// The kinds of value a setting takes, each a zod schema from the variable's text to its value.
// A refusal says what was expected; the loader puts the variable's name before it and the text
// it got after it ("PORT: expected a whole number from 0 to 65535, got "70000"").

/** One kind of setting: how its text is read, how its values are described, its old spellings. */
export interface SettingKind<T> {
  schema: z.ZodType<T, string>;
  /** The accepted values, for docs/configuration.md. */
  values: string;
  /** An old spelling of a value, and the one that replaces it (`on` → `true`); else undefined. */
  respell?: (raw: string) => string | undefined;
}

function kind<T>(expected: string, read: (raw: string) => T | undefined, values = expected): SettingKind<T> {
  const schema = z.string().transform((raw, ctx) => {
    const value = read(raw);
    if (value !== undefined) return value;
    ctx.issues.push({ code: 'custom', message: `expected ${expected}`, input: raw });
    return z.NEVER;
  });
  return { schema, values };
}

const within = (value: number, min: number, max: number) => (value >= min && value <= max ? value : undefined);

export function whole(min: number, max: number): SettingKind<number> {
  return kind(`a whole number from ${min} to ${max}`, (raw) => (/^\d+$/.test(raw) ? within(Number(raw), min, max) : undefined), `${min} to ${max}`);
}

const SECONDS = /^\d+(\.\d{1,3})?$/;

/** Seconds as a whole number, the value in seconds. */
export function seconds(min: number, max: number): SettingKind<number> {
  return kind(`a whole number of seconds from ${min} to ${max}`, (raw) => (/^\d+$/.test(raw) ? within(Number(raw), min, max) : undefined), `${min} to ${max} s`);
}

/** Seconds, to the millisecond (`0.05`), the value in milliseconds: every duration is written in seconds. */
export function secondsAsMs(min: number, max: number): SettingKind<number> {
  const range = min === 0 ? `≤ ${max}` : `from ${min} to ${max}`;
  return kind(
    `a number of seconds ${range} (at most 3 decimals)`,
    (raw) => (SECONDS.test(raw) && within(Number(raw), min, max) !== undefined ? Math.round(Number(raw) * 1000) : undefined),
    `${min} to ${max} s, to the ms (\`0.05\`)`,
  );
}

const FLAG_RESPELLING: Record<string, string> = { on: 'true', off: 'false' };

/** `true` or `false`; `on` and `off`, the old spelling, are still read (with a warning at start). */
export function flag(): SettingKind<boolean> {
  return {
    ...kind('true or false', (raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined), '`true`, `false`'),
    respell: (raw) => FLAG_RESPELLING[raw],
  };
}

export function oneOf<const T extends string>(allowed: readonly T[]): SettingKind<T> {
  return kind(`one of ${allowed.join(', ')}`, (raw) => allowed.find((a) => a === raw), allowed.map((a) => `\`${a}\``).join(' '));
}

export function text(): SettingKind<string> {
  return kind('some text', (raw) => raw, 'text');
}

export function pattern(test: RegExp, expected: string): SettingKind<string> {
  return kind(expected, (raw) => (test.test(raw) ? raw : undefined));
}

export function url(protocols: string[]): SettingKind<string> {
  const schemes = protocols.map((p) => `${p}//`).join(' or ');
  return kind(
    `a URL starting with ${schemes}`,
    (raw) => {
      try {
        return protocols.includes(new URL(raw).protocol) ? raw : undefined;
      } catch {
        return undefined;
      }
    },
    `\`${protocols[0]}//…\``,
  );
}

export function secret(minLength: number): SettingKind<string> {
  return kind(`at least ${minLength} printable characters without spaces`, (raw) => (raw.length >= minLength && /^[\x21-\x7e]+$/.test(raw) ? raw : undefined));
}

/** Seconds between retries, comma-separated, or `none`. */
export function secondsList(maxItems: number, min: number, max: number): SettingKind<number[]> {
  return kind(
    `up to ${maxItems} comma-separated whole numbers of seconds from ${min} to ${max}, or none`,
    (raw) => {
      if (raw === 'none') return [];
      const parts = raw.split(',').map((p) => p.trim());
      const valid = parts.length <= maxItems && parts.every((p) => /^\d{1,6}$/.test(p) && within(Number(p), min, max) !== undefined);
      return valid ? parts.map(Number) : undefined;
    },
    `up to ${maxItems} seconds (${min} to ${max}), comma-separated, or \`none\``,
  );
}

const ORIGIN = /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:(\d{1,5}|\*))?$/;

export function origins(): SettingKind<string[]> {
  return kind(
    'a comma-separated list of origins such as https://app.example.com or http://localhost:*, or * or none',
    (raw) => {
      if (raw === 'none') return [];
      const list = raw.split(',').map((o) => o.trim()).filter((o) => o !== '');
      return list.every((o) => o === '*' || ORIGIN.test(o)) ? list : undefined;
    },
    'origins, comma-separated (`https://play.example.com`, `http://localhost:*`), `*` or `none`',
  );
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Express `trust proxy`: off, a number of hops, or the proxies' addresses or subnets. */
export function trustProxy(): SettingKind<false | number | string[]> {
  const proxy = (entry: string) => {
    if (PROXY_NAMES.includes(entry)) return true;
    const [address, bits, ...more] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || more.length > 0) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  };
  return kind<false | number | string[]>(
    'off, a number of proxy hops from 1 to 10, or a comma-separated list of proxy addresses or subnets',
    (raw) => {
      if (raw === 'off') return false;
      if (/^\d+$/.test(raw)) return within(Number(raw), 1, 10);
      const list = raw.split(',').map((a) => a.trim()).filter((a) => a !== '');
      return list.length > 0 && list.every(proxy) ? list : undefined;
    },
    '`off`, hops (`1` to `10`), or addresses and subnets, comma-separated (`10.0.0.0/8,loopback`)',
  );
}

/** A JSON list of trusted identity providers (identity-issuers.ts); a refusal names the field at fault. */
export function identityIssuers(): SettingKind<IdentityIssuer[]> {
  const schema = z.string().transform((raw, ctx) => {
    const read = readIdentityIssuers(raw);
    if ('issuers' in read) return read.issuers;
    ctx.issues.push({ code: 'custom', message: read.problems, input: raw });
    return z.NEVER;
  });
  return { schema, values: 'JSON: a list of issuers (docs/api.md, "Signing in with your own identity provider"), `[]` for none' };
}

/** Origins written out in full (no `*`): where a browser page may be, as WebAuthn compares them. */
export function exactOrigins(): SettingKind<string[]> {
  return kind(
    'a comma-separated list of origins such as https://play.example.com (no * and no path)',
    (raw) => {
      const list = raw.split(',').map((o) => o.trim()).filter((o) => o !== '');
      return list.length > 0 && list.every((o) => ORIGIN.test(o) && !o.endsWith(':*')) ? list : undefined;
    },
    'origins, comma-separated (`https://play.example.com`)',
  );
}
