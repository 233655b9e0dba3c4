import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { INT_MAX, INT_MIN, InputGuardPipe, jsonDepthOver, MAX_JSON_DEPTH } from './input-limits.js';

const raw = new InputGuardPipe('raw');
const typed = new InputGuardPipe('typed');

function refusal(run: () => unknown): { code: string; message: string; details: Record<string, unknown> } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
}

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('jsonDepthOver', () => {
  it('counts objects and lists, without recursion', () => {
    expect(jsonDepthOver(1, 0)).toBe(false);
    expect(jsonDepthOver({}, 0)).toBe(true);
    expect(jsonDepthOver(nested(32), 32)).toBe(false);
    expect(jsonDepthOver(nested(33), 32)).toBe(true);
    expect(jsonDepthOver(nested(100_000), 32)).toBe(true);
  });
});

describe('InputGuardPipe', () => {
  it('names the field of a NUL character, a key such as __proto__, or a number beyond 32 bits', () => {
    const body = { type: 'body', data: 'input' } as const;
    expect(refusal(() => raw.transform({ name: 'a\u0000' }, body))).toMatchObject({ code: 'BAD_INPUT', details: { field: 'input.name' } });
    expect(refusal(() => raw.transform({ cards: ['AS', '\u0000'] }, body))).toMatchObject({ details: { field: 'input.cards[1]' } });
    expect(refusal(() => raw.transform(JSON.parse('{"options":{"__proto__":{}}}'), body))).toMatchObject({
      details: { field: 'input.options.__proto__' },
    });
    expect(refusal(() => raw.transform({ seat: INT_MAX + 1 }, body))).toMatchObject({ details: { field: 'input.seat' } });
    expect(refusal(() => raw.transform({ seat: INT_MIN - 1 }, body))).toMatchObject({ details: { field: 'input.seat' } });
    expect(refusal(() => raw.transform('a\u0000', { type: 'query', data: 'preset' }))).toMatchObject({ details: { field: 'preset' } });
    expect(refusal(() => raw.transform({ players: ['me', '\ud800', 'x'] }, { type: 'body', data: 'record' }))).toMatchObject({
      code: 'BAD_INPUT',
      details: { field: 'record.players[1]' },
    });
    expect(refusal(() => raw.transform('x\udfff', { type: 'param', data: 'id' }))).toMatchObject({ details: { field: 'id' } });
    expect(refusal(() => raw.transform({ ['\udc00']: 1 }, { type: 'body' }))).toMatchObject({ code: 'BAD_INPUT' });
    // A surrogate pair (an emoji) is well-formed.
    expect(raw.transform({ name: 'ala 🂡' }, { type: 'body' })).toEqual({ name: 'ala 🂡' });
    expect(refusal(() => raw.transform(nested(MAX_JSON_DEPTH + 1), { type: 'body' }))).toMatchObject({
      details: { limit: 'depth', max: MAX_JSON_DEPTH },
    });
  });

  it('checks numbers converted from query strings after validation, and passes what fits', () => {
    expect(refusal(() => typed.transform({ after: 1e20 }, { type: 'query' }))).toMatchObject({ details: { field: 'after' } });
    expect(refusal(() => typed.transform({ after: Infinity }, { type: 'query' }))).toMatchObject({ details: { field: 'after' } });
    const fine = { name: 'ala', seat: INT_MAX, low: INT_MIN, cards: ['AS'], options: { target: 300 } };
    expect(raw.transform(fine, { type: 'body' })).toBe(fine);
    expect(typed.transform(fine, { type: 'body' })).toBe(fine);
    // the player a decorator hands over, the GraphQL context: not client input
    expect(raw.transform({ name: '\u0000' }, { type: 'custom' })).toEqual({ name: '\u0000' });
  });
});
