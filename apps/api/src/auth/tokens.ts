import { createHash, randomBytes } from 'node:crypto';

// 32 random bytes: far beyond guessing, so a fast hash stores them safely (no bcrypt needed).
export function newToken(): string {
  return `mzk_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of an `Authorization: Bearer …` header value, or null when absent or malformed. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
