// The server's one error vocabulary (apps/api/src/common/errors.ts), as a client switches on it.

/** Every code the server answers with: GraphQL `extensions.code`, REST problem `code`. */
export const SERVER_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'BAD_INPUT',
  'NOT_YOUR_TURN',
  'ILLEGAL_MOVE',
  'CONFLICT',
  'RATE_LIMITED',
  'QUERY_TOO_COMPLEX',
  'INTERNAL',
] as const;

export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** A server code, or NETWORK: no answer came (the request may or may not have been done). */
export type ErrorCode = ServerErrorCode | 'NETWORK';

/**
 * An error the API answered (or NETWORK). `details` holds the machine-readable fields the server
 * adds: `field` (BAD_INPUT), `rule` (ILLEGAL_MOVE), `version` (CONFLICT), `retryAfter` (RATE_LIMITED).
 */
export class MizerkaError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** The HTTP status, when one came. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'MizerkaError';
  }

  /** BAD_INPUT: the input field at fault. */
  get field(): string | undefined {
    return typeof this.details.field === 'string' ? this.details.field : undefined;
  }

  /** ILLEGAL_MOVE: the rule the move broke. */
  get rule(): string | undefined {
    return typeof this.details.rule === 'string' ? this.details.rule : undefined;
  }

  /** CONFLICT on a move: the game's current version. */
  get version(): number | undefined {
    return typeof this.details.version === 'number' ? this.details.version : undefined;
  }

  /** RATE_LIMITED: seconds to wait. */
  get retryAfter(): number | undefined {
    const value = Number(this.details.retryAfter);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  }
}

/** Whether `error` is a MizerkaError, of one of `codes` when given. */
export function isMizerkaError(error: unknown, ...codes: ErrorCode[]): error is MizerkaError {
  return error instanceof MizerkaError && (codes.length === 0 || codes.includes(error.code));
}

const KNOWN = new Set<string>(SERVER_ERROR_CODES);

/** A server code as the union has it; an unknown one (a newer server) is INTERNAL, kept in details.serverCode. */
export function errorFrom(code: unknown, message: string, details: Record<string, unknown>, status?: number): MizerkaError {
  if (typeof code === 'string' && KNOWN.has(code)) return new MizerkaError(code as ServerErrorCode, message, details, status);
  return new MizerkaError('INTERNAL', message, { ...details, serverCode: code }, status);
}

/** An RFC 9457 problem document (REST) as a MizerkaError. */
export function errorFromProblem(status: number, body: unknown): MizerkaError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const { code, detail, title, type: _type, status: _status, ...details } = problem;
  const message = typeof detail === 'string' ? detail : typeof title === 'string' ? title : `HTTP ${status}`;
  const fallback = status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : status === 404 ? 'NOT_FOUND' : status === 429 ? 'RATE_LIMITED' : status < 500 ? 'BAD_INPUT' : 'INTERNAL';
  return errorFrom(code ?? fallback, message, details, status);
}
