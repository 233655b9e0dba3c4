import { HttpException } from '@nestjs/common';
import { DomainError, type ErrorCode } from './errors.js';

const HTTP_CODES: Record<number, ErrorCode> = {
  400: 'BAD_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'BAD_INPUT',
  415: 'BAD_INPUT',
  422: 'BAD_INPUT',
  429: 'RATE_LIMITED',
};

/**
 * Folds whatever was thrown into the vocabulary. Unknown errors become INTERNAL with a fixed
 * message: their text may carry data (SQL, state) that a client must not see.
 */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = HTTP_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_INPUT');
    if (code === 'INTERNAL') return new DomainError('INTERNAL', 'Internal server error');
    const body = error.getResponse();
    const messages =
      typeof body === 'object' && body !== null && 'message' in body ? (body as { message: unknown }).message : error.message;
    const list = Array.isArray(messages) ? messages.map(String) : [String(messages)];
    return new DomainError(code, list.join('; '), list.length > 1 ? { problems: list } : {});
  }
  return new DomainError('INTERNAL', 'Internal server error');
}
