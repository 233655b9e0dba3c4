import { Logger } from '@nestjs/common';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { errorsTotal } from '../metrics/metrics.js';
import { DomainError } from './errors.js';
import { tokenLimitError } from './query-too-complex.js';
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

/** Apollo's formatError: every error leaves with one of our codes in `extensions.code`, and is counted. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const shaped = hideSuggestions(shapeGraphQLError(formatted, error));
  errorsTotal.inc({ code: String(shaped.extensions?.code), surface: 'graphql' });
  return shaped;
}

function shapeGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError;
  const apolloCode = formatted.extensions?.code;
  // Apollo gives its own parse/validation/variable errors a graphql-js error as originalError.
  if (original === undefined || original === null || (original instanceof GraphQLError && !(original.originalError instanceof Error))) {
    if (typeof apolloCode === 'string' && GRAPHQL_INPUT_CODES.has(apolloCode)) {
      // The parser's token limit is one of the query limits, not a typo in the query.
      const tooComplex = apolloCode === 'GRAPHQL_PARSE_FAILED' ? tokenLimitError(formatted.message) : null;
      if (tooComplex) return { message: tooComplex.message, locations: formatted.locations, extensions: { code: tooComplex.code, status: tooComplex.status, ...tooComplex.details } };
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'BAD_INPUT' } };
    }
    // Apollo's own refusals of a request (an unknown persisted-query version, a hash that does
    // not match its query) carry no code, only a 4xx HTTP status: still the client's fault.
    const http = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
    if (typeof http === 'number' && http >= 400 && http < 500) {
      return { message: formatted.message, extensions: { code: 'BAD_INPUT' } };
    }
  }
  // A parse that failed on no syntax error: the parser ran out of stack on a document nested
  // thousands deep. The document's fault too, whatever the depth limits let through.
  if (apolloCode === 'GRAPHQL_PARSE_FAILED' && !(original instanceof DomainError)) {
    return { message: 'The GraphQL document is nested too deeply to be read', extensions: { code: 'BAD_INPUT' } };
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

/**
 * graphql-js's "Did you mean …?" in every form (a field, an argument, `the enum value "strong"`,
 * `to use an inline fragment on …`), in validation and in variable errors alike: it would spell
 * out the schema to a client that has introspection turned off. graphql-armor's mask covers only
 * the first form and only validation on HTTP; this runs on every error of both transports.
 */
const SUGGESTION = /Did you mean [^?]*\?/g;
export const SUGGESTION_HIDDEN = '[Suggestion hidden]';

function hideSuggestions(error: GraphQLFormattedError): GraphQLFormattedError {
  const message = error.message.replace(SUGGESTION, SUGGESTION_HIDDEN);
  return message === error.message ? error : { ...error, message };
}
