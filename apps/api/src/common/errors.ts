// The one error vocabulary of the API. Services throw DomainError; GraphQL maps it to
// `extensions.code`, REST to `application/problem+json` with the same code.
export const ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_INPUT: 400,
  NOT_YOUR_TURN: 409,
  ILLEGAL_MOVE: 422,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  /** A GraphQL request over one of its limits (depth, aliases, tokens, cost, response size); `limit` names it. */
  QUERY_TOO_COMPLEX: 400,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra machine-readable fields (e.g. `rule`, `version`); never hidden cards. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const unauthenticated = (message = 'A valid API token is required (Authorization: Bearer …)') =>
  new DomainError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const badInput = (message: string, details: Record<string, unknown> = {}) =>
  new DomainError('BAD_INPUT', message, details);
export const conflict = (message: string, details: Record<string, unknown> = {}) =>
  new DomainError('CONFLICT', message, details);
