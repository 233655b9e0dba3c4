import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { type GraphQLWsSubscriptionsConfig, GraphQLModule } from '@nestjs/graphql';
import { ThrottlerModule } from '@nestjs/throttler';
import type { ExecutionResult } from 'graphql';
import type { ServerOptions } from 'graphql-ws';
import { AuthModule } from './auth/auth.module.js';
import { AuthService } from './auth/auth.service.js';
import type { AuthenticatedPlayer } from './auth/authenticated-player.js';
import type { GraphQLContext, RequestLike } from './auth/request-context.js';
import { formatGraphQLError } from './common/graphql-errors.js';
import { ApiThrottlerGuard } from './common/throttler.guard.js';
import type { AppConfig } from './config/app-config.js';
import { configModule } from './config/config.module.js';
import { GamesModule } from './games/index.js';
import { HealthModule } from './health/health.module.js';
import { LobbiesModule } from './lobbies/lobbies.module.js';
import { MovesModule } from './moves/moves.module.js';
import { OutboxModule } from './outbox/outbox.module.js';
import { PlayerEventsModule } from './player-events/player-events.module.js';
import { PlayersModule } from './players/players.module.js';
import { PrismaModule } from './prisma/prisma.module.js';
import { ScoringModule } from './scoring/scoring.module.js';

/** The feature modules; main.ts and the tests build the same application from here. */
export const FEATURE_MODULES = [
  PlayersModule,
  HealthModule,
  LobbiesModule,
  GamesModule,
  MovesModule,
  ScoringModule,
  PlayerEventsModule,
];

type WsExtra = { player?: AuthenticatedPlayer };

/** graphql-ws server options; Nest passes them through, though its type knows only some of them. */
function graphqlWsOptions(auth: AuthService): Partial<ServerOptions<Record<string, unknown> | undefined, WsExtra>> & { path: string } {
  return {
    path: '/graphql',
    // A subscription authenticates once, with connectionParams.authorization.
    onConnect: async (ctx) => {
      const params = ctx.connectionParams ?? {};
      try {
        ctx.extra.player = await auth.authenticate(params.authorization ?? params.Authorization);
        return true;
      } catch {
        return false;
      }
    },
    // Subscriptions bypass Apollo's formatError: give their errors the same codes.
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatGraphQLError(error.toJSON(), error)),
    onNext: (_ctx, _id, _payload, _args, result: ExecutionResult) =>
      result.errors ? { ...result, errors: result.errors.map((error) => formatGraphQLError(error.toJSON(), error)) } : undefined,
  };
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        configModule(config),
        PrismaModule.forRoot(databaseUrl),
        OutboxModule,
        AuthModule,
        ThrottlerModule.forRoot({ throttlers: [{ ttl: 60_000, limit: config.rateLimitPerMinute }] }),
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          inject: [AuthService],
          useFactory: (auth: AuthService): ApolloDriverConfig => ({
            // The SDL is built in memory; `npm run schema:write` commits it as apps/api/schema.graphql.
            autoSchemaFile: true,
            sortSchema: true,
            path: '/graphql',
            playground: false,
            graphiql: config.nodeEnv !== 'production',
            introspection: true,
            formatError: formatGraphQLError,
            // No HTTP caching of game state, and no Apollo Studio: these plugins would wrap every
            // field resolver of every response for nothing.
            plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginInlineTraceDisabled()],
            context: ({ req, extra }: { req?: RequestLike; extra?: WsExtra }): GraphQLContext =>
              extra ? { player: extra.player } : { req },
            subscriptions: { 'graphql-ws': graphqlWsOptions(auth) as GraphQLWsSubscriptionsConfig },
          }),
        }),
        ...FEATURE_MODULES,
      ],
      providers: [{ provide: APP_GUARD, useClass: ApiThrottlerGuard }],
    };
  }
}
