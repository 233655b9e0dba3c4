import { type CanActivate, type ExecutionContext, Injectable, type Type } from '@nestjs/common';
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
  private readonly marks = new WeakMap<Type, WeakMap<Handler, Marks>>();

  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { ownBearer, isPublic, needed } = this.marksOf(context.getClass(), context.getHandler());
    if (ownBearer) return true;
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
      if (authorization) request.player = await this.auth.authenticateRequest(request);
      return true;
    }
    request.player = await this.auth.authenticateRequest(request);
    checkScope(request.player.scopes, needed);
    return true;
  }

  /** A handler's marks never change: read once per class and handler, not on every call. */
  private marksOf(target: Type, handler: Handler): Marks {
    let byHandler = this.marks.get(target);
    if (!byHandler) this.marks.set(target, (byHandler = new WeakMap()));
    let marks = byHandler.get(handler);
    if (!marks) {
      const targets = [handler, target];
      marks = {
        ownBearer: this.reflector.getAllAndOverride<boolean>(OWN_BEARER, targets) === true,
        isPublic: this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true,
        needed: this.reflector.getAllAndOverride<TokenScope | undefined>(REQUIRED_SCOPE, targets) ?? 'read',
      };
      byHandler.set(handler, marks);
    }
    return marks;
  }
}

interface Marks {
  ownBearer: boolean;
  isPublic: boolean;
  needed: TokenScope;
}

/** A route's or a resolver's method, as ExecutionContext.getHandler() gives it. */
type Handler = ReturnType<ExecutionContext['getHandler']>;
