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

  it('writes a message that names its own parent with the path once, and says a repeated message once', () => {
    const refused = validationFailed([
      error('timeControl', undefined, [error('moveSeconds', { isInt: 'timeControl.moveSeconds must be a whole number' })]),
      error('first', { min: 'first must be 1 to 100', max: 'first must be 1 to 100', isInt: 'first must be a whole number' }),
      error('filter', undefined, [error('players', { length: 'players: each name is 1 to 32 characters long' })]),
    ]);
    expect(refused.details.problems).toEqual([
      'timeControl.moveSeconds must be a whole number',
      'first must be 1 to 100',
      'first must be a whole number',
      'filter.players: each name is 1 to 32 characters long',
    ]);
    expect(validationFailed([error('first', { min: 'first must be 1 to 100', max: 'first must be 1 to 100' })])).toMatchObject({
      message: 'first must be 1 to 100',
      details: { field: 'first' },
    });
  });
});
