import 'reflect-metadata';
import { type ArgumentMetadata, type Type, ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputValidationPipe, VALIDATION_OPTIONS } from '../../common/input-validation.js';
import { MakeMoveInput, MoveBody } from './make-move.input.js';
import { ResignBody, ResignInput } from './resign.input.js';

// The pipe the app had before the quick checks: every answer of the new one must be its answer.
const classValidatorOnly = new ValidationPipe(VALIDATION_OPTIONS);
const pipe = new InputValidationPipe();

const GAME_ID = '0b7c6a58-3f55-4c1e-9a8e-6a1d2f0c9b11';
const card = fc.constantFrom('AS', 'TD', '7C', '2H', 'QS', 'KD');
const notACard = fc.constantFrom('1S', 'as', 'AX', '', 'AS ', 'ASS', 'S', '10H');
const junk = fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.boolean(), fc.string({ maxLength: 4 }), fc.constant({}), fc.constant([]));
/** Absent, null, valid or not: one field of an input. */
const field = <T,>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: valid }, { weight: 1, arbitrary: invalid });
const cards = fc.array(card, { maxLength: 13 });
const options = {
  expectedVersion: field(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.oneof(fc.constantFrom(-1, 2 ** 31, 1.5, '3', Number.NaN), junk)),
  idempotencyKey: field(fc.string({ minLength: 1, maxLength: 128, unit: 'binary' }), fc.oneof(fc.constant(''), fc.string({ minLength: 129, maxLength: 140 }), junk)),
};
const move = {
  kind: field(fc.constantFrom('contract', 'exchange', 'bid', 'discard', 'trump', 'play'), fc.oneof(fc.constantFrom('pass', 'Play'), junk)),
  contract: field(fc.constantFrom('clubs', 'diamonds', 'hearts', 'spades', 'notrumps', 'mizerka'), fc.oneof(fc.constant('mizere'), junk)),
  discards: field(cards, fc.oneof(fc.array(card, { minLength: 14, maxLength: 15 }), fc.array(notACard, { minLength: 1, maxLength: 2 }), junk)),
  bid: field(fc.constantFrom('pass', 'play', 'misere', 'double-misere'), fc.oneof(fc.constant('double_misere'), junk)),
  cards: field(cards, fc.oneof(fc.array(fc.oneof(card, junk), { minLength: 1, maxLength: 3 }), junk)),
  suit: field(fc.constantFrom('clubs', 'diamonds', 'hearts', 'spades'), fc.oneof(fc.constant('notrumps'), junk)),
  card: field(card, fc.oneof(notACard, junk)),
  ...options,
};
const gameId = { gameId: field(fc.constantFrom(GAME_ID, GAME_ID.toUpperCase()), fc.oneof(fc.constantFrom('not-an-id', `${GAME_ID}0`), junk)) };
const extra = fc.option(fc.constantFrom('seat', 'player', 'constructor', 'toString'), { nil: undefined });

/** A JSON body (REST) or graphql-js's argument object (no prototype), without its absent fields. */
function input(fields: Record<string, unknown>, unknownKey: string | undefined, bare: boolean): Record<string, unknown> {
  const value: Record<string, unknown> = bare ? Object.create(null) : {};
  for (const [key, v] of Object.entries(fields)) if (v !== undefined) value[key] = v;
  if (unknownKey) value[unknownKey] = 1;
  return value;
}

async function outcome(p: ValidationPipe, value: unknown, metadata: ArgumentMetadata) {
  try {
    const result = (await p.transform(value, metadata)) as object;
    return { accepted: result, type: result.constructor };
  } catch (error) {
    return { refused: error };
  }
}

const OPTIONS = { expectedVersion: 12, idempotencyKey: 'move-12' };
const CASES: [Type, Record<string, fc.Arbitrary<unknown>>, string | undefined, Record<string, unknown>][] = [
  [MoveBody, move, undefined, { kind: 'play', card: 'AS', ...OPTIONS }],
  [MakeMoveInput, { ...move, ...gameId }, 'input', { gameId: GAME_ID, kind: 'exchange', discards: ['2C', '3D'], ...OPTIONS }],
  [ResignBody, options, undefined, OPTIONS],
  [ResignInput, { ...options, ...gameId }, 'input', { gameId: GAME_ID }],
];

describe('the move inputs’ quick checks', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(CASES)('%o: the same instance or the same refusal as class-validator alone, for any input', async (type, fields, data) => {
    const metadata: ArgumentMetadata = { type: 'body', metatype: type, data };
    await fc.assert(
      fc.asyncProperty(fc.record(fields, { requiredKeys: [] }), extra, fc.boolean(), async (f, unknownKey, bare) => {
        const value = input(f, unknownKey, bare);
        const expected = await outcome(classValidatorOnly, input(f, unknownKey, bare), metadata);
        const actual = await outcome(pipe, value, metadata);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it.each(CASES)('%o: a valid input takes the quick way, without class-validator', async (type, _fields, data, valid) => {
    const full = vi.spyOn(ValidationPipe.prototype, 'transform');
    const metadata: ArgumentMetadata = { type: 'body', metatype: type, data };
    for (const bare of [false, true]) {
      const checked = await outcome(pipe, input(valid, undefined, bare), metadata);
      expect(checked.accepted).toBeInstanceOf(type);
      expect({ ...checked.accepted }).toEqual(valid);
    }
    expect(full).not.toHaveBeenCalled();
    // An input it cannot vouch for goes to class-validator, which refuses it.
    expect((await outcome(pipe, input({ ...valid, expectedVersion: -1 }, undefined, false), metadata)).refused).toBeDefined();
    expect(full).toHaveBeenCalledTimes(1);
  });
});
