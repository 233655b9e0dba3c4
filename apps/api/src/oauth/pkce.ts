import { hash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 4.1: 43 to 128 characters of A-Z a-z 0-9 - . _ ~ */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: a SHA-256 in base64url without padding, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export const validVerifier = (verifier: string) => VERIFIER.test(verifier);
export const validS256Challenge = (challenge: string) => S256_CHALLENGE.test(challenge);

/** The S256 challenge of a verifier: BASE64URL(SHA256(ASCII(verifier))) (RFC 7636 4.2). */
export function s256(verifier: string): string {
  return hash('sha256', verifier, 'base64url');
}

/** Whether `verifier` is the one `challenge` was made from, compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!validVerifier(verifier)) return false;
  const made = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return made.length === expected.length && timingSafeEqual(made, expected);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
export const MAX_REDIRECT_URI = 2000;

/**
 * Why a redirect URI may not be registered, or null when it may: an absolute https URI, or http
 * only to a loopback host (a native app's local listener, RFC 8252 7.3; any port is then allowed
 * at authorization, 7.3 asks, but we match exactly, so the app registers the port it uses); no
 * fragment (RFC 6749 3.1.2), no user info.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI) return `is longer than ${MAX_REDIRECT_URI} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash || uri.includes('#')) return 'has a fragment';
  if (url.username || url.password) return 'has user information';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must be https (or http to a loopback address: 127.0.0.1, [::1], localhost)';
}
