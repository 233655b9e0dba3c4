import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthService } from './auth.service.js';
import { IS_PUBLIC, OWN_BEARER } from './public.decorator.js';
import { requestOf } from './request-context.js';
import { checkScope, REQUIRED_SCOPE, type TokenScope } from './scopes.js';

/**
 * Global guard: every REST route and GraphQL field needs a bearer token unless marked @Public,
 * and the token's scopes must grant the operation's (@RequireScope; `read` when unmarked):
 * FORBIDDEN naming the scope otherwise.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(OWN_BEARER, targets)) return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets);
    const needed = this.reflector.getAllAndOverride<TokenScope | undefined>(REQUIRED_SCOPE, targets) ?? 'read';
    const { request, gql } = requestOf(context);
    if (gql?.player) {
      // graphql-ws: authenticated in onConnect
      if (!isPublic) checkScope(gql.player.scopes, needed);
      return true;
    }
    if (!request) return isPublic === true;
    const authorization = request.headers.authorization;
    if (isPublic) {
      // A public operation still knows its caller when a token is given (e.g. a spectator's view).
      if (authorization) request.player = await this.auth.authenticate(authorization);
      return true;
    }
    request.player = await this.auth.authenticate(authorization);
    checkScope(request.player.scopes, needed);
    return true;
  }
}
