import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthService } from './auth.service.js';
import { IS_PUBLIC } from './public.decorator.js';
import { requestOf } from './request-context.js';

/** Global guard: every REST route and GraphQL field needs a bearer token unless marked @Public. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    const { request, gql } = requestOf(context);
    if (gql?.player) return true; // a subscription, authenticated in onConnect
    if (!request) return isPublic === true;
    const authorization = request.headers.authorization;
    if (isPublic) {
      // A public operation still knows its caller when a token is given (e.g. a spectator's view).
      if (authorization) request.player = await this.auth.authenticate(authorization);
      return true;
    }
    request.player = await this.auth.authenticate(authorization);
    return true;
  }
}
