import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { errorsTotal } from '../metrics/metrics.js';
import type { DomainError } from './errors.js';
import { toDomainError } from './to-domain-error.js';

/** REST errors as RFC 9457 problem documents; GraphQL errors are shaped in graphql-errors.ts. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const error = toDomainError(exception);
    if (error.code === 'INTERNAL') this.logger.error(exception);
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    sendProblem(response, error);
  }
}

/** Answers with `error` as a problem document (also for middleware that runs before Nest's routes). */
export function sendProblem(response: Response, error: DomainError): void {
  errorsTotal.inc({ code: error.code, surface: 'rest' });
  // Whatever refused with a wait (a rate limit, the registrations' hourly cap) says it as HTTP does too.
  if (typeof error.details.retryAfter === 'number') response.setHeader('Retry-After', String(error.details.retryAfter));
  response
    .status(error.status)
    .type('application/problem+json')
    .json({
      type: `https://mizerka.dev/problems/${error.code.toLowerCase().replaceAll('_', '-')}`,
      title: error.code,
      status: error.status,
      detail: error.message,
      code: error.code,
      ...error.details,
    });
}
