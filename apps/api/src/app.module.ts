import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Context } from 'graphql-ws';
import { AuthModule } from './auth/auth.module.js';
import { AuthService } from './auth/auth.service.js';
import type { AuthenticatedPlayer } from './auth/authenticated-player.js';
import type { GraphQLContext, RequestLike } from './auth/request-context.js';
import { formatGraphQLError } from './common/graphql-errors.js';
import { ApiThrottlerGuard } from './common/throttler.guard.js';
import type { AppConfig } from './config/app-config.js';
import { configModule } from './config/config.module.js';
import { GamesModule } from './games/games.module.js';
import { HealthModule } from './health/health.module.js';
import { LobbiesModule } from './lobbies/lobbies.module.js';
import { MovesModule } from './moves/moves.module.js';
import { PlayersModule } from './players/players.module.js';
import { PrismaModule } from './prisma/prisma.module.js';
import { ScoringModule } from './scoring/scoring.module.js';

/** The feature modules; main.ts and the tests build the same application from here. */
export const FEATURE_MODULES = [PlayersModule, HealthModule, LobbiesModule, GamesModule, MovesModule, ScoringModule];

type WsExtra = { player?: AuthenticatedPlayer };

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        configModule(config),
        PrismaModule.forRoot(databaseUrl),
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
            context: ({ req, extra }: { req?: RequestLike; extra?: WsExtra }): GraphQLContext =>
              extra ? { player: extra.player } : { req },
            subscriptions: {
              'graphql-ws': {
                path: '/graphql',
                // A subscription authenticates once, with connectionParams.authorization.
                onConnect: async (ctx: Context<Record<string, unknown> | undefined, unknown>) => {
                  const params = ctx.connectionParams ?? {};
                  try {
                    (ctx.extra as WsExtra).player = await auth.authenticate(params.authorization ?? params.Authorization);
                    return true;
                  } catch {
                    return false;
                  }
                },
              },
            },
          }),
        }),
        ...FEATURE_MODULES,
      ],
      providers: [{ provide: APP_GUARD, useClass: ApiThrottlerGuard }],
    };
  }
}
