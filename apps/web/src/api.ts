// The web client's way to the API: @mizerka/client, the SDK every third-party client uses (one
// client of the API, not two), on this page's own origin. Screens keep their own typed documents
// (src/gql, from src/operations.graphql) and call `request` and `subscribe` with the credential
// they hold; the SDK sends them, refreshes a session's token, waits out rate limits, resends a
// move whose answer was lost with the same key, and keeps the live subscriptions through drops.
import { MizerkaClient, MizerkaError, newIdempotencyKey, personalToken, type Credentials, type Document, type SocketState } from '@mizerka/client';
import i18n from './i18n';

/** An error as the API names it (`code`, and `details` such as `retryAfter`), or NETWORK when no answer came. */
export { MizerkaError as ApiError, newIdempotencyKey };

export type LinkState = SocketState;

/** Correspondence games last days: the live socket keeps trying, at most every 10 s. */
const OPTIONS = { baseUrl: '', reconnect: { minMs: 500, maxMs: 10_000 } } as const;

/** Signing in, signing up, a password reset: requests without a credential. */
const anonymous = new MizerkaClient(OPTIONS);

let current: { credential: string; client: MizerkaClient; personal: boolean; unwire: () => void } | null = null;

let tokenRefused: ((token: string) => void) | null = null;

/** Called with a personal token the API refused (revoked or expired): the session forgets it, if it still holds it. */
export function onTokenRefused(listener: (token: string) => void) {
  tokenRefused = listener;
}

const stateListeners = new Set<(state: LinkState) => void>();
const reconnectListeners = new Set<() => void>();
let linkState: LinkState = 'idle';

function setLinkState(state: LinkState) {
  linkState = state;
  for (const listener of stateListeners) listener(state);
}

/**
 * Who requests and subscriptions are for from now on: `credential` is what screens hold (a personal
 * token, or a session's name that outlives its refreshed tokens) and `credentials` what the SDK asks
 * for the token of the moment (a session's, see session.tsx); null: signed out. The previous
 * player's socket is closed.
 */
export function signInAs(credential: string | null, credentials?: Credentials) {
  if (current?.credential === credential) return;
  current?.unwire();
  void current?.client.close();
  current = null;
  setLinkState('idle');
  if (credential === null) return;
  const client = new MizerkaClient({ ...OPTIONS, credentials: credentials ?? personalToken(credential) });
  const stopState = client.onSocketState(setLinkState);
  const stopReconnected = client.onReconnected(() => {
    for (const listener of reconnectListeners) listener();
  });
  current = { credential, client, personal: !credentials, unwire: () => (stopState(), stopReconnected()) };
}

/** The SDK client for `credential`: the signed-in player's, or (a screen's last request after a sign-out) one of its own. */
function clientFor(credential: string | null): MizerkaClient {
  if (credential === null) return anonymous;
  if (current?.credential === credential) return current.client;
  if (credential.startsWith('session:')) throw new MizerkaError('UNAUTHENTICATED', 'Signed out.');
  return new MizerkaClient({ ...OPTIONS, token: credential });
}

/**
 * One GraphQL operation; resolves to its data or throws an ApiError. `credential` is a personal
 * token, a session's credential (see signInAs), or null (anonymous). `idempotent`: the variables
 * carry an idempotency key (a move), so an answer lost on the way is asked again.
 */
export async function request<R, V>(document: Document<R, V>, variables: V, credential: string | null, options: { idempotent?: boolean } = {}): Promise<R> {
  try {
    return await clientFor(credential).request(document, variables, { anonymous: credential === null, idempotent: options.idempotent });
  } catch (error) {
    const personal = credential !== null && !credential.startsWith('session:');
    if (personal && error instanceof MizerkaError && error.code === 'UNAUTHENTICATED') tokenRefused?.(credential);
    throw error;
  }
}

/**
 * A live subscription; returns its unsubscribe. The SDK subscribes again after a dropped socket,
 * with the variables `resume` makes of the last data (e.g. after its id), else the same ones.
 */
export function subscribe<R, V extends Record<string, unknown>>(
  document: Document<R, V>,
  variables: V,
  credential: string,
  handlers: { next: (data: R) => void; error?: (error: MizerkaError) => void; complete?: () => void; resume?: (data: R, variables: V) => V },
): () => void {
  const stop = new AbortController();
  void (async () => {
    try {
      for await (const data of clientFor(credential).subscribe(document, variables, { signal: stop.signal, resume: handlers.resume })) {
        if (stop.signal.aborted) return;
        handlers.next(data);
      }
      if (!stop.signal.aborted) handlers.complete?.();
    } catch (error) {
      if (!stop.signal.aborted) handlers.error?.(error instanceof MizerkaError ? error : new MizerkaError('NETWORK', 'The live connection closed.'));
    }
  })();
  return () => stop.abort();
}

export function onLinkState(listener: (state: LinkState) => void): () => void {
  stateListeners.add(listener);
  listener(linkState);
  return () => void stateListeners.delete(listener);
}

/** Called after the socket comes back from a drop: views refetch what they may have missed. */
export function onReconnected(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => void reconnectListeners.delete(listener);
}

/**
 * The words a player reads for an error the API returned, in the interface's language (the
 * `errors` namespace): by its code, with the server's own detail (which is English) where it helps.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof MizerkaError)) return error instanceof Error ? error.message : String(error);
  switch (error.code) {
    case 'NOT_YOUR_TURN':
    case 'CONFLICT':
    case 'UNAUTHENTICATED':
    case 'NETWORK':
      return i18n.t(`errors:${error.code}`);
    case 'RATE_LIMITED': {
      const wait = error.retryAfter;
      return wait ? i18n.t('errors:RATE_LIMITED_seconds', { seconds: wait }) : i18n.t('errors:RATE_LIMITED');
    }
    case 'ILLEGAL_MOVE':
      return i18n.t('errors:ILLEGAL_MOVE', { rule: error.rule ?? error.message });
    default:
      return i18n.t('errors:other', { message: error.message, code: error.code });
  }
}

/**
 * The words for an error a form's own input caused (a wrong password, a name taken): by its code,
 * with the server's message, and for BAD_INPUT the field the server names.
 */
export function describeFormError(error: unknown): string {
  if (!(error instanceof MizerkaError)) return describeError(error);
  if (error.code === 'BAD_INPUT' && error.field) return i18n.t('errors:form.BAD_INPUT_field', { message: error.message, field: error.field });
  if (['UNAUTHENTICATED', 'BAD_INPUT', 'CONFLICT', 'FORBIDDEN', 'NOT_FOUND'].includes(error.code)) return i18n.t(`errors:form.${error.code}`, { message: error.message });
  return describeError(error);
}
