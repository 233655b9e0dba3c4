/** Errors are values: every rule function returns one of these instead of throwing. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** 0 .. players-1, clockwise. */
export type Seat = number;

export type RuleErrorCode =
  | 'BAD_RULES'
  | 'BAD_DECK'
  | 'BAD_MOVE'
  | 'WRONG_PHASE'
  | 'NOT_YOUR_TURN'
  | 'ILLEGAL_MOVE'
  | 'GAME_OVER';

export interface RuleError {
  code: RuleErrorCode;
  /** kebab-case id of the rule broken, e.g. 'follow-suit'. */
  rule: string;
  /** For people; never names a card the mover may not know. */
  message: string;
}

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}

export function ruleError(code: RuleErrorCode, rule: string, message: string): RuleError {
  return { code, rule, message };
}
