import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestOf } from '../auth/request-context.js';

const header = (context: ExecutionContext, name: string): string | null => {
  const value = requestOf(context).request?.headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The page's origin a browser sends (`Origin`), or null. */
export const RequestOrigin = createParamDecorator((_: unknown, context: ExecutionContext) => header(context, 'origin'));

/** The browser or program as it names itself (`User-Agent`), or null: shown in the session list. */
export const UserAgent = createParamDecorator((_: unknown, context: ExecutionContext) => header(context, 'user-agent'));
