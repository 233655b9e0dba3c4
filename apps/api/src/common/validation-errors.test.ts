import { ValidationError } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { validationFailed } from './validation-errors.js';

function error(property: string, constraints: Record<string, string> | undefined, children: ValidationError[] = []): ValidationError {
  return Object.assign(new ValidationError(), { property, constraints, children });
}

describe('validationFailed', () => {
  it('names the first field that failed, with a dotted path into nested input, and keeps every message', () => {
    const refused = validationFailed([
      error('input', undefined, [error('timeControl', undefined, [error('moveSeconds', { min: 'moveSeconds must be at least 60' })])]),
      error('first', { max: 'first must be 1 to 100' }),
    ]);
    expect(refused.code).toBe('BAD_INPUT');
    expect(refused.message).toBe('input.timeControl.moveSeconds must be at least 60; first must be 1 to 100');
    expect(refused.details).toEqual({
      field: 'input.timeControl.moveSeconds',
      problems: ['input.timeControl.moveSeconds must be at least 60', 'first must be 1 to 100'],
    });
  });

  it('names the one field of a single refusal, without a list', () => {
    const refused = validationFailed([error('visibility', { whitelistValidation: 'property visibility should not exist' })]);
    expect(refused.details).toEqual({ field: 'visibility' });
  });
});
