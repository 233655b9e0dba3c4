import 'reflect-metadata';
import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import { AppModule } from './app.module.js';
import { ProblemFilter } from './common/problem.filter.js';
import { createPino, PinoNestLogger } from './common/logger.js';
import type { AppConfig } from './config/app-config.js';

export const REST_PREFIX = 'api/v1';

/** Builds the whole application (not yet listening): main.ts and the integration tests share it. */
export async function createApp(config: AppConfig, databaseUrl: string, logger: Logger = createPino(config)) {
  const app = await NestFactory.create(AppModule.forRoot(config, databaseUrl), {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
  });
  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && given.length <= 128 ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url?.startsWith('/health') ?? false },
    }),
  );
  app.setGlobalPrefix(REST_PREFIX, { exclude: ['health', 'health/ready'] });
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false }),
  );
  app.useGlobalFilters(new ProblemFilter());
  setUpOpenApi(app);
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
