import type { Server } from 'node:http';
import 'reflect-metadata';
import type { INestApplication, Provider } from '@nestjs/common';
import { InputValidationPipe } from './common/input-validation.js';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { AppModule } from './app.module.js';
import { OAUTH_ROUTES } from './oauth/oauth.controller.js';
import { bodyParsers, InputGuardPipe } from './common/input-limits.js';
import { notFoundEverywhere } from './common/not-found.js';
import { ProblemFilter } from './common/problem.filter.js';
import { boundResponses } from './common/query-limits.js';
import { createPino, PinoNestLogger } from './common/logger.js';
import { requestIdFrom } from './common/request-id.js';
import { requestScope } from './common/request-scope.middleware.js';
import { applyWebSafety } from './common/web-safety.js';
import { serveWebClient } from './common/web-client.js';
import type { AppConfig } from './config/app-config.js';
import { rateLimitMiddleware } from './rate-limit/rate-limit.middleware.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';

export const REST_PREFIX = 'api/v1';

/** How long an idle keep-alive connection stays open. */
const KEEP_ALIVE_MS = 30_000;

/**
 * Builds the whole application (not yet listening): main.ts and the integration tests share it.
 * `seams` are providers every module may inject in place of a default (AppModule's SeamsModule).
 */
export async function createApp(config: AppConfig, databaseUrl: string, logger: Logger = createPino(config), seams: Provider[] = []) {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl, seams), {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
    bodyParser: false, // ours, with the limits on input: bodyParsers() below
  });
  // Express hashes every response body for an ETag; API answers are never revalidated by one.
  app.set('etag', false);
  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = requestIdFrom(req.headers['x-request-id']);
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url?.startsWith('/health') ?? false },
    }),
  );
  applyWebSafety(app, config);
  // The web client's files, under helmet's headers and before the rate limit (a page load is not an API call).
  serveWebClient(app);
  app.setGlobalPrefix(REST_PREFIX, { exclude: ['health', 'health/ready', 'metrics', ...OAUTH_ROUTES] });
  for (const parser of bodyParsers()) app.use(parser);
  // After the body is read (a scope entered before is lost in the body's stream events), before
  // any route or /graphql: the request's id for every log line, then its rate limit.
  app.use(requestScope);
  app.use(rateLimitMiddleware(app.get(RateLimiter)));
  app.use('/graphql', boundResponses(config.graphqlLimits.maxResponseBytes));
  app.useGlobalPipes(
    new InputGuardPipe('raw'),
    new InputValidationPipe(),
    new InputGuardPipe('typed'),
  );
  notFoundEverywhere(app);
  app.useGlobalFilters(new ProblemFilter());
  if (config.apiDocs) setUpOpenApi(app);
  // Node closes an idle keep-alive connection after 5 s, which races a client sending its next
  // request on it (a reset the client cannot tell from a lost request). Idle connections live
  // longer than a player's pause or a proxy's pool here; headers must still come within 35 s.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
  return app;
}

function setUpOpenApi(app: INestApplication) {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Mizerka server')
      .setDescription(
        'REST API of the Mizerka game server. The same operations are available over GraphQL at /graphql. ' +
          'Errors are application/problem+json documents with a stable `code`.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token from POST /api/v1/players' })
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs/json', yamlDocumentUrl: 'api/docs/yaml' });
}
