import { Logger } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import type { Context, SubscribePayload } from 'graphql-ws';
import type { IncomingMessage } from 'node:http';
import type { Express, Request } from 'express';
import type { WebSocket, WebSocketServer } from 'ws';
import { clientAddress } from './common/client-address.js';
import type { AuthService } from './auth/auth.service.js';
import type { AuthenticatedPlayer } from './auth/authenticated-player.js';
import { CLOSE, type LiveConnection, type LiveConnections } from './auth/live-connections.js';
import { DomainError } from './common/errors.js';
import { graphqlCost } from './rate-limit/graphql-cost.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';

const logger = new Logger('LiveSockets');

/** What graphql-ws keeps per socket: ws's socket, and what onConnect found. */
export interface WsExtra {
  socket?: WebSocket;
  /** The HTTP upgrade request. */
  request?: IncomingMessage;
  /** Where the socket comes from (clientAddress), found in onConnect. */
  address?: string;
  player?: AuthenticatedPlayer;
  live?: LiveConnection;
}

type WsContext = Context<Record<string, unknown> | undefined, WsExtra>;

/**
 * The graphql-ws hooks of the live-socket rules (LiveConnections): authenticate and register a
 * socket (RATE_LIMITED beyond WS_MAX_SOCKETS_PER_PLAYER or WS_MAX_SOCKETS_PER_IP, close code
 * 4429), count its subscriptions against the caps, end its streams the moment it closes.
 * `addressOf` reads a client's address from its upgrade request (expressAddress).
 */
export function liveSocketHooks(
  auth: AuthService,
  live: LiveConnections,
  limiter: RateLimiter,
  addressOf: (request: IncomingMessage) => string | undefined,
) {
  return {
    /** A subscription authenticates once, with connectionParams.authorization. */
    onConnect: async (ctx: WsContext): Promise<boolean> => {
      const params = ctx.connectionParams ?? {};
      let player: AuthenticatedPlayer;
      try {
        player = await auth.authenticate(params.authorization ?? params.Authorization);
      } catch {
        return false; // graphql-ws closes with 4403 Forbidden
      }
      const socket = ctx.extra.socket;
      const address = clientAddress(ctx.extra.request ? addressOf(ctx.extra.request) : undefined);
      try {
        // No await between the check above and the registration: a revoke cannot slip between.
        ctx.extra.live = live.open(player, address, {
          close: (code, reason) => socket?.close(code, reason),
          subscriptions: () => Object.keys(ctx.subscriptions).length,
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const code = error.code === 'RATE_LIMITED' ? CLOSE.tooMany : CLOSE.unauthorized;
        socket?.close(code, `${error.code}: ${error.message}`.slice(0, 123));
        return false;
      }
      ctx.extra.player = player;
      ctx.extra.address = address;
      const connection = ctx.extra.live;
      // Either side closing ends the socket's streams now, whatever graphql-ws does after.
      socket?.once('close', () => live.closed(connection));
      if (socket && socket.readyState !== socket.OPEN) live.closed(connection);
      return true;
    },
    /** Before anything else of a subscribe message: null to go on, errors to refuse it. */
    admit: (ctx: WsContext): readonly GraphQLError[] | null => {
      if (!ctx.extra.live) return null;
      try {
        live.admit(ctx.extra.live);
        return null;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return [new GraphQLError(error.message, { originalError: error })];
      }
    },
    /** Charges an operation to its player's budget and its address's (one per root field, as over HTTP); errors when either is spent. */
    charge: async (ctx: WsContext, payload: SubscribePayload): Promise<readonly GraphQLError[] | null> => {
      const player = ctx.extra.player;
      if (!player) return null;
      const decision = await limiter.takeForPlayer(player.id, ctx.extra.address ?? clientAddress(undefined), graphqlCost(payload));
      if (decision.allowed) return null;
      const error = new DomainError(
        'RATE_LIMITED',
        `Too many requests${decision.budget === 'address' ? ' from this address (RATE_LIMIT_PER_IP_PER_MINUTE)' : ''}: ${decision.limit} a minute (a GraphQL operation counts one per root field); try again in ${decision.reset} s`,
        { retryAfter: decision.reset },
      );
      return [new GraphQLError(error.message, { originalError: error })];
    },
    onComplete: (ctx: WsContext): void => {
      if (ctx.extra.live) live.settled(ctx.extra.live);
    },
  };
}

/**
 * Caps the size of a WebSocket message (`ws` accepts 100 MiB by default): a larger one closes the
 * socket with 1009. Nest builds the WebSocketServer without a way to pass it, so this sets it on
 * the server the Apollo driver made, and fails the start-up loudly if that is no longer found.
 */
export function limitWebSocketMessages(moduleRef: ModuleRef, maxBytes: number): void {
  const adapter = moduleRef.get(GraphQLModule, { strict: false }).graphQlAdapter as unknown as {
    _subscriptionService?: { wss?: WebSocketServer };
  };
  const wss = adapter._subscriptionService?.wss;
  if (!wss?.options) {
    throw new Error('The graphql-ws WebSocket server was not found (has @nestjs/apollo changed?); cannot apply WS_MAX_MESSAGE_BYTES');
  }
  wss.options.maxPayload = maxBytes;
  // ws closes the socket itself on a bad frame (1009 for a message too large) and then emits
  // 'error', which graphql-ws prints to stderr with console.error: one line of our own log instead.
  wss.on('connection', (socket: WebSocket) => {
    socket.removeAllListeners('error');
    socket.on('error', (error: Error & { code?: string }) => logger.warn(`WebSocket closed on a bad frame: ${error.code ?? error.message}`));
  });
}

/**
 * A raw request's client address as Express's `req.ip` gives it, under the same `trust proxy`
 * (TRUST_PROXY): Express's own getter, run on the upgrade request's headers and socket.
 */
export function expressAddress(app: Express, request: IncomingMessage): string | undefined {
  const asExpress = Object.create(app.request, {
    headers: { value: request.headers },
    socket: { value: request.socket },
  }) as Request;
  return asExpress.ip;
}
