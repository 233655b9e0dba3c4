import type { ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from './authenticated-player.js';

/** What both transports carry per request: headers in, the authenticated player out. */
export interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  /** Express's req.ip (TRUST_PROXY). */
  ip?: string;
  player?: AuthenticatedPlayer;
}

export interface GraphQLContext {
  req?: RequestLike;
  /** Set for subscriptions over graphql-ws: authenticated once in onConnect. */
  player?: AuthenticatedPlayer;
  /** graphql-ws: aborted when the socket closes or is closed (its token revoked, a cap, idle). */
  signal?: AbortSignal;
}

export function requestOf(context: ExecutionContext): { request: RequestLike | undefined; gql: GraphQLContext | undefined } {
  if (context.getType<string>() === 'graphql') {
    const gql = GqlExecutionContext.create(context).getContext<GraphQLContext>();
    return { request: gql.req, gql };
  }
  return { request: context.switchToHttp().getRequest<RequestLike>(), gql: undefined };
}
