import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { type BeforeApplicationShutdown, type DynamicModule, Module, type OnApplicationBootstrap, type OnModuleDestroy, type Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { type GraphQLWsSubscriptionsConfig, GraphQLModule, GraphQLSchemaHost } from '@nestjs/graphql';
import type { Express } from 'express';
import type { ExecutionResult } from 'graphql';
import type { Server } from 'node:http';
import type { ServerOptions } from 'graphql-ws';
import { AccountsModule } from './accounts/accounts.module.js';
import { AuthModule } from './auth/auth.module.js';
import { ChatModule } from './chat/chat.module.js';
import { ClocksModule } from './clocks/clocks.module.js';
import { BotsModule } from './bots/bots.module.js';
import { AuthService } from './auth/auth.service.js';
import { EventStreams } from './auth/event-streams.js';
import { LiveConnections } from './auth/live-connections.js';
import type { GraphQLContext, RequestLike } from './auth/request-context.js';
import { readDateTimeInputStrictly } from './common/date-time.js';
import { formatGraphQLError } from './common/graphql-errors.js';
import { graphqlGuards, guardSubscription } from './common/query-limits.js';
import { subscriptionsOverHttpRefused } from './common/graphql-input.js';
import type { AppConfig } from './config/app-config.js';
import { configModule } from './config/config.module.js';
import { GamesModule } from './games/index.js';
import { HealthModule } from './health/health.module.js';
import { HistoryModule } from './history/history.module.js';
import { InboxModule } from './inbox/inbox.module.js';
import { expressAddress, limitWebSocketMessages, liveSocketHooks, type WsExtra } from './live-sockets.js';
import { LobbiesModule } from './lobbies/lobbies.module.js';
import { MovesModule } from './moves/moves.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { InstanceBusModule } from './instance-bus/instance-bus.module.js';
import { OutboxModule } from './outbox/outbox.module.js';
import { PasskeysModule } from './passkeys/passkeys.module.js';
import { PlayerEventsModule } from './player-events/player-events.module.js';
import { PlayersModule } from './players/players.module.js';
import { PrismaModule } from './prisma/prisma.module.js';
import { PushModule } from './push/push.module.js';
import { ProfilesModule } from './profiles/profiles.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RatingsModule } from './ratings/ratings.module.js';
import { RemindersModule } from './reminders/reminders.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { CompactionModule } from './compaction/compaction.module.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { rateLimitPlugin } from './rate-limit/rate-limit.plugin.js';
import { ScoringModule } from './scoring/scoring.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { TournamentsModule } from './tournaments/tournaments.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { VacationsModule } from './vacations/vacations.module.js';

/** The feature modules; main.ts and the tests build the same application from here. */
export const FEATURE_MODULES = [
  PlayersModule,
  SessionsModule,
  PasskeysModule,
  AccountsModule,
  HealthModule,
  LobbiesModule,
  GamesModule,
  MovesModule,
  ScoringModule,
  PlayerEventsModule,
  ClocksModule,
  RemindersModule,
  BotsModule,
  InboxModule,
  WebhooksModule,
  VacationsModule,
  NotificationsModule,
  RatingsModule,
  TournamentsModule,
  HistoryModule,
  ProfilesModule,
  OAuthModule,
  ChatModule,
  RetentionModule,
  CompactionModule,
  PushModule,
];

/** graphql-ws server options; Nest passes them through, though its type knows only some of them. */
function graphqlWsOptions(
  auth: AuthService,
  live: LiveConnections,
  limiter: RateLimiter,
  http: HttpAdapterHost,
  guard: ReturnType<typeof guardSubscription>,
): Partial<ServerOptions<Record<string, unknown> | undefined, WsExtra>> & { path: string } {
  const hooks = liveSocketHooks(auth, live, limiter, (request) => expressAddress(http.httpAdapter.getInstance<Express>(), request));
  return {
    path: '/graphql',
    // The caps on subscriptions (live-sockets.ts) first; then, as Apollo's parse and validation
    // do not run on a socket, the same query limits, applied here.
    // Every operation on a socket (a move too) pays into its player's rate-limit budget like an
    // HTTP request does.
    onSubscribe: async (ctx, _id, payload) => hooks.admit(ctx) ?? (await hooks.charge(ctx, payload)) ?? guard(payload),
    // A subscription authenticates once, with connectionParams.authorization; the socket counts
    // against its player's caps and closes when its token is revoked.
    onConnect: hooks.onConnect,
    onComplete: hooks.onComplete,
    // Subscriptions bypass Apollo's formatError: give their errors the same codes.
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatGraphQLError(error.toJSON(), error)),
    onNext: (_ctx, _id, _payload, _args, result: ExecutionResult) =>
      result.errors ? { ...result, errors: result.errors.map((error) => formatGraphQLError(error.toJSON(), error)) } : undefined,
  };
}

/**
 * Providers handed to createApp (a test's stub resolver, say), seen by every module: a class that
 * takes one injects it with @Optional() and otherwise uses its own default.
 */
@Module({})
class SeamsModule {}

@Module({})
export class AppModule implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly http: HttpAdapterHost,
  ) {}

  /**
   * The root module is destroyed first: open event streams end before Apollo's drain starts
   * waiting for in-flight HTTP requests (it would wait 10 s for each stream).
   */
  onModuleDestroy(): void {
    this.moduleRef.get(EventStreams, { strict: false }).endAll();
  }

  /**
   * Before the HTTP server closes: idle keep-alive connections go at once, and a client that
   * stops reading its answer cannot hold the shutdown for more than a second.
   */
  beforeApplicationShutdown(): void {
    const server = this.http.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 1_000).unref();
  }

  /** The WebSocket server exists once GraphQLModule has started: cap its message size. */
  onApplicationBootstrap(): void {
    limitWebSocketMessages(this.moduleRef, this.config.get('live', { infer: true }).maxMessageBytes);
  }

  static forRoot(config: AppConfig, databaseUrl: string, seams: Provider[] = []): DynamicModule {
    const guards = graphqlGuards(config.graphqlLimits);
    return {
      module: AppModule,
      imports: [
        configModule(config),
        { module: SeamsModule, global: true, providers: seams, exports: seams },
        PrismaModule.forRoot(databaseUrl),
        InstanceBusModule,
        OutboxModule,
        AuthModule,
        RateLimitModule,
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [RateLimitModule],
          inject: [AuthService, LiveConnections, RateLimiter, HttpAdapterHost, GraphQLSchemaHost],
          useFactory: (
            auth: AuthService,
            live: LiveConnections,
            limiter: RateLimiter,
            http: HttpAdapterHost,
            schemaHost: GraphQLSchemaHost,
          ): ApolloDriverConfig => ({
            // The SDL is built in memory; `npm run schema:write` commits it as apps/api/schema.graphql.
            autoSchemaFile: true,
            sortSchema: true,
            path: '/graphql',
            playground: false,
            graphiql: config.graphiql,
            introspection: config.introspection,
            formatError: formatGraphQLError,
            // DateTime inputs read by the one date parser, which refuses impossible calendar dates.
            transformSchema: readDateTimeInputStrictly,
            // Depth, aliases, directives, tokens and cost (graphql-armor); one operation per request.
            validationRules: guards.validationRules,
            parseOptions: guards.parseOptions,
            allowBatchedHttpRequests: false,
            // No HTTP caching of game state, and no Apollo Studio: these plugins would wrap every
            // field resolver of every response for nothing.
            plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginInlineTraceDisabled(), subscriptionsOverHttpRefused, rateLimitPlugin(), ...guards.plugins],
            context: ({ req, extra }: { req?: RequestLike; extra?: WsExtra }): GraphQLContext =>
              extra ? { player: extra.player, signal: extra.live?.signal } : { req },
            subscriptions: { 'graphql-ws': graphqlWsOptions(auth, live, limiter, http, guardSubscription(() => schemaHost.schema, guards)) as GraphQLWsSubscriptionsConfig },
          }),
        }),
        ...FEATURE_MODULES,
      ],
    };
  }
}
