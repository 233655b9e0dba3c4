import { hash, randomBytes } from 'node:crypto';

// 32 random bytes: far beyond guessing, so a fast hash stores them safely (no bcrypt needed).
export function newToken(): string {
  return `mzk_${randomBytes(32).toString('base64url')}`;
}

/** SHA-256 in hex; every request hashes its token (the cache is keyed by the hash), so the one-shot form. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The token of an `Authorization: Bearer …` header value, or null when absent or malformed. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
