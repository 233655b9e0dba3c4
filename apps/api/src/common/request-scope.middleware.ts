import { randomUUID } from 'node:crypto';
import { runInRequest } from './request-id.js';

/**
 * Runs the rest of the request inside its id's scope, so every log line written on its behalf
 * (services, errors, Nest) carries `reqId`. Mounted after the body is read:
 * a scope entered before body parsing is lost in the request stream's events.
 */
export function requestScope(req: { id?: unknown }, _res: unknown, next: () => void): void {
  runInRequest(typeof req.id === 'string' ? req.id : randomUUID(), next);
}
