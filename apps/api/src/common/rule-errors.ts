import type { RuleError } from '@mizerka/rules';
import { DomainError } from './errors.js';

/**
 * The rules library reports a refused move as a value; this folds it into the API's one error
 * vocabulary. The rules' messages never name a card the mover may not know, and only the mover
 * receives them, so they pass through; `rule` lets a client switch on the exact rule broken.
 */
export function ruleErrorToDomain(error: RuleError): DomainError {
  const details = { rule: error.rule };
  switch (error.code) {
    case 'NOT_YOUR_TURN':
      return new DomainError('NOT_YOUR_TURN', error.message, details);
    case 'ILLEGAL_MOVE':
    case 'WRONG_PHASE':
    case 'GAME_OVER':
      return new DomainError('ILLEGAL_MOVE', error.message, details);
    case 'BAD_MOVE':
    case 'BAD_RULES':
    case 'BAD_DECK':
      return new DomainError('BAD_INPUT', error.message, details);
  }
}
