import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestOf } from '../auth/request-context.js';
import { clientAddress } from '../common/client-address.js';

/** The caller's address as its budgets know it (Express's req.ip under TRUST_PROXY, an IPv6 by its /64). */
export const ClientAddress = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  clientAddress(requestOf(context).request?.ip),
);
