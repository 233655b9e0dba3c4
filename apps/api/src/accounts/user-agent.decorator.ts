import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestOf } from '../auth/request-context.js';

/** The caller's User-Agent header, as a new session records it (null when absent). */
export const UserAgent = createParamDecorator((_: unknown, context: ExecutionContext): string | null => {
  const header = requestOf(context).request?.headers['user-agent'];
  return typeof header === 'string' ? header : null;
});
