import { type ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ThrottlerGuard } from '@nestjs/throttler';

/** The throttler for both transports: GraphQL requests are found in the GraphQL context. */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  protected override getRequestResponse(context: ExecutionContext) {
    if (context.getType<string>() === 'graphql') {
      const gql = GqlExecutionContext.create(context).getContext<{ req?: object; res?: object }>();
      // Subscriptions over WebSocket have no HTTP request; they are limited at connection time.
      return { req: gql.req ?? { ip: 'ws', headers: {} }, res: gql.res ?? { header: () => undefined } };
    }
    return super.getRequestResponse(context);
  }
}
