import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { unauthenticated } from '../common/errors.js';
import type { AuthenticatedPlayer } from './authenticated-player.js';
import { requestOf } from './request-context.js';

function playerOf(context: ExecutionContext): AuthenticatedPlayer | undefined {
  const { request, gql } = requestOf(context);
  return gql?.player ?? request?.player;
}

/** The authenticated caller; the guard has already rejected requests without one. */
export const CurrentPlayer = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedPlayer => {
  const player = playerOf(context);
  if (!player) throw unauthenticated();
  return player;
});

/** The caller when a token was given, else undefined (public operations such as spectating). */
export const OptionalPlayer = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedPlayer | undefined => playerOf(context),
);
