import { DomainError } from './errors.js';

/** The limits as named in errors (`extensions.limit`) and in docs/api.md. */
export type QueryLimitName = 'depth' | 'aliases' | 'directives' | 'tokens' | 'cost' | 'responseBytes';

const WHAT: Record<QueryLimitName, string> = {
  depth: 'depth',
  aliases: 'number of aliases',
  directives: 'number of directives',
  tokens: 'number of tokens',
  cost: 'cost',
  responseBytes: 'response size in bytes',
};

/** QUERY_TOO_COMPLEX naming the limit, its value and (when known) what the request came to. */
export function queryTooComplex(limit: QueryLimitName, max: number, found?: number): DomainError {
  const over = found === undefined ? 'is over' : `${found} is over`;
  return new DomainError('QUERY_TOO_COMPLEX', `The query is too complex: its ${WHAT[limit]} ${over} the limit of ${max} (${limit})`, {
    limit,
    max,
    ...(found === undefined ? {} : { found }),
  });
}

// graphql-js's own token limit (the parse option armor's token counter also builds on): Apollo
// reports it as a parse error, graphql-ws as a thrown GraphQLError. (graphql 16 writes "more that".)
const TOKEN_LIMIT = /^Syntax Error: Document contains more th(?:at|an) (\d+) tokens/;

/** QUERY_TOO_COMPLEX for graphql-js's "too many tokens" parse error, else null. */
export function tokenLimitError(message: string): DomainError | null {
  const match = TOKEN_LIMIT.exec(message);
  return match ? queryTooComplex('tokens', Number(match[1])) : null;
}
