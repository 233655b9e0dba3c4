import { Logger } from '@nestjs/common';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError } from './errors.js';
import { toDomainError } from './to-domain-error.js';

const logger = new Logger('Errors');

// Errors GraphQL itself raises before a resolver runs (parse, validation, bad variables).
const GRAPHQL_INPUT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
]);

/** Apollo's formatError: every error leaves with one of our codes in `extensions.code`. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError;
  const apolloCode = formatted.extensions?.code;
  // Apollo gives its own parse/validation/variable errors a graphql-js error as originalError.
  if (original === undefined || original === null || (original instanceof GraphQLError && !(original.originalError instanceof Error))) {
    if (typeof apolloCode === 'string' && GRAPHQL_INPUT_CODES.has(apolloCode)) {
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'BAD_INPUT' } };
    }
  }
  const domain = toDomainError(original ?? error);
  if (domain.code === 'INTERNAL' && !(original instanceof DomainError)) logger.error(original ?? error);
  return {
    message: domain.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: domain.code, status: domain.status, ...domain.details },
  };
}
