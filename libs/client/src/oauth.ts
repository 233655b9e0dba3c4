// OAuth 2 authorization code with PKCE (RFC 6749, RFC 7636) for an app of another site: build the
// address to send the player's browser to, then trade the code it comes back with. Web Crypto
// only, so it runs in browsers and in Node >= 20 alike.
import { MizerkaError } from './errors.js';
import type { SessionTokens } from './auth.js';

export type OAuthScope = 'read' | 'play' | 'webhooks';

export interface PkcePair {
  /** Keep it (sessionStorage) until the browser comes back; send it with the code. */
  verifier: string;
  /** BASE64URL(SHA-256(verifier)): goes in the authorize address. */
  challenge: string;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A random 64-character verifier and its S256 challenge. */
export async function createPkcePair(): Promise<PkcePair> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

/** A random `state` to tie the answer to the request (check it when the browser comes back). */
export function createState(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

export interface AuthorizeParams {
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  challenge: string;
  state: string;
  /** Default: read. An app is never given admin. */
  scopes?: OAuthScope[];
}

/** Where to send the player's browser: the server asks the player, then redirects to redirectUri with `code` and `state`. */
export function authorizeUrl(params: AuthorizeParams): string {
  const url = new URL('/oauth/authorize', params.baseUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
    scope: (params.scopes ?? ['read']).join(' '),
    state: params.state,
  }).toString();
  return url.toString();
}

/** What the redirect brought back: the code, or the player's refusal as a MizerkaError (FORBIDDEN). */
export function readRedirect(redirectedTo: string, expectedState: string): string {
  const params = new URL(redirectedTo).searchParams;
  if (params.get('state') !== expectedState) throw new MizerkaError('BAD_INPUT', 'The OAuth answer carries another state: not an answer to this request', { field: 'state' });
  const error = params.get('error');
  if (error) throw new MizerkaError('FORBIDDEN', params.get('error_description') ?? error, { oauthError: error });
  const code = params.get('code');
  if (!code) throw new MizerkaError('BAD_INPUT', 'The OAuth answer carries no code', { field: 'code' });
  return code;
}

export interface OAuthTokens extends SessionTokens {
  scopes: OAuthScope[];
}

async function tokenRequest(baseUrl: string, body: Record<string, string>, fetchImpl: typeof fetch): Promise<OAuthTokens> {
  let response: Response;
  try {
    response = await fetchImpl(new URL('/oauth/token', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
  } catch (error) {
    throw new MizerkaError('NETWORK', `The server cannot be reached: ${String(error)}`);
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    // RFC 6749 5.2: invalid_grant (a used, expired or foreign code or refresh token), invalid_client…
    const code = response.status === 401 || answer.error === 'invalid_grant' ? 'UNAUTHENTICATED' : 'BAD_INPUT';
    throw new MizerkaError(code, String(answer.error_description ?? answer.error ?? `HTTP ${response.status}`), { oauthError: answer.error }, response.status);
  }
  return {
    accessToken: String(answer.access_token),
    refreshToken: String(answer.refresh_token),
    accessTokenExpiresAt: Date.now() + Number(answer.expires_in) * 1000,
    scopes: String(answer.scope ?? '').split(' ').filter(Boolean) as OAuthScope[],
  };
}

/** Trades the code (once, within 60 s) with the verifier for the grant's first pair of tokens. */
export function exchangeCode(params: { baseUrl: string; clientId: string; redirectUri: string; code: string; verifier: string; fetch?: typeof fetch }): Promise<OAuthTokens> {
  return tokenRequest(
    params.baseUrl,
    { grant_type: 'authorization_code', code: params.code, redirect_uri: params.redirectUri, client_id: params.clientId, code_verifier: params.verifier },
    params.fetch ?? fetch,
  );
}

/** The grant's next pair; the refresh token given is used up. */
export function refreshOAuth(params: { baseUrl: string; clientId: string; refreshToken: string; fetch?: typeof fetch }): Promise<OAuthTokens> {
  return tokenRequest(params.baseUrl, { grant_type: 'refresh_token', refresh_token: params.refreshToken, client_id: params.clientId }, params.fetch ?? fetch);
}
