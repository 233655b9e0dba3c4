import { describe, expect, it } from 'vitest';
import type { Move } from '@mizerka/rules';
import { conflict, DomainError } from '../common/errors.js';
import { moveForSeat } from './bot-move.js';
import type { SeatlessMove } from './move-input.js';

// Moving for a seat with fallbacks, shared by the clocks' autoMove and the server bots.
const pass: Move = { kind: 'bid', seat: 1, bid: 'pass' } as Move;
const card: Move = { kind: 'play', seat: 1, card: 'AS' } as unknown as Move;
const refusal = new DomainError('ILLEGAL_MOVE', 'not now');

describe('moveForSeat', () => {
  it('submits the first candidate without its seat, and stops there', async () => {
    const sent: SeatlessMove[] = [];
    const moved = await moveForSeat([pass, card], async (m) => sent.push(m), () => expect.fail('nothing was refused'));
    expect(moved).toBe(true);
    expect(sent).toEqual([{ kind: 'bid', bid: 'pass' }]);
  });

  it('tells each refusal and falls back to the next candidate, passing over missing ones', async () => {
    const sent: SeatlessMove[] = [];
    const refused: string[] = [];
    const submit = async (m: SeatlessMove) => {
      sent.push(m);
      if (m.kind === 'bid') throw refusal;
    };
    expect(await moveForSeat([null, pass, card], submit, (e) => refused.push(e.message))).toBe(true);
    expect(sent.map((m) => m.kind)).toEqual(['bid', 'play']);
    expect(refused).toEqual(['not now']);
  });

  it('answers false when every candidate is refused (the caller forfeits), and throws any other error', async () => {
    expect(await moveForSeat([pass, null], async () => Promise.reject(refusal), () => undefined)).toBe(false);
    expect(await moveForSeat([], async () => undefined, () => undefined)).toBe(false);
    await expect(moveForSeat([pass, card], async () => Promise.reject(conflict('taken first')), () => undefined)).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
