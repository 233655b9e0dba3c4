import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What every log line written while serving a request knows about it. */
export interface RequestScope {
  reqId: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/** A client's x-request-id when short and well-formed, else a fresh one: a header is not a place for log injection. */
export function requestIdFrom(header: unknown): string {
  return typeof header === 'string' && WELL_FORMED.test(header) ? header : randomUUID();
}

/** Runs `fn` (and everything it starts) as part of the request `reqId`. */
export function runInRequest<T>(reqId: string, fn: () => T): T {
  return scope.run({ reqId }, fn);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.reqId;
}
