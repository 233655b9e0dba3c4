import { describe, expect, it } from 'vitest';
import { DomainError } from '../common/errors.js';
import { checkTimeControl, clockAfter, startClock, type TimeControl } from './time-control.js';

const control: TimeControl = { moveSeconds: 60, bankSeconds: 100, onTimeout: 'autoMove', maxTimeouts: 3 };
const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, s));

describe('the move clock', () => {
  it('gives the first seat its turn and its whole bank', () => {
    const clock = startClock(control, 3, 1, at(0));
    expect(clock.deadline).toEqual(at(160));
    expect(clock.bankMs).toEqual([100_000, 100_000, 100_000]);
  });

  it('draws only the overrun of a slow move from the bank, and starts the next turn at the move', () => {
    const started = startClock(control, 3, 0, at(0));
    const after = clockAfter(started, 0, false, 1, at(90));
    expect(after.bankMs).toEqual([70_000, 100_000, 100_000]);
    expect(after.turnStartedAt).toEqual(at(90));
    expect(after.deadline).toEqual(at(90 + 60 + 100));
    const quick = clockAfter(after, 1, false, 2, at(100));
    expect(quick.bankMs).toEqual([70_000, 100_000, 100_000]);
  });

  it('counts time-outs in a row and clears them with a move of the seat’s own', () => {
    let clock = startClock(control, 3, 0, at(0));
    clock = clockAfter(clock, 0, true, 0, at(160));
    expect(clock.timeouts).toEqual([1, 0, 0]);
    expect(clock.bankMs[0]).toBe(0);
    clock = clockAfter(clock, 0, true, 0, at(220));
    expect(clock.timeouts).toEqual([2, 0, 0]);
    clock = clockAfter(clock, 0, false, null, at(230));
    expect(clock.timeouts).toEqual([0, 0, 0]);
    expect(clock.deadline).toBeNull();
  });

  it('refuses a time control out of range, naming the field', () => {
    const refused = (input: Parameters<typeof checkTimeControl>[0], min = 60) => {
      try {
        checkTimeControl(input, min);
      } catch (error) {
        return error instanceof DomainError ? error.details : error;
      }
      return null;
    };
    expect(refused({ moveSeconds: 59 })).toMatchObject({ field: 'timeControl.moveSeconds' });
    expect(refused({ moveSeconds: 14 * 86400 + 1 })).toMatchObject({ field: 'timeControl.moveSeconds' });
    expect(refused({ moveSeconds: 60, bankSeconds: -1 })).toMatchObject({ field: 'timeControl.bankSeconds' });
    expect(refused({ moveSeconds: 60, maxTimeouts: 0 })).toMatchObject({ field: 'timeControl.maxTimeouts' });
    expect(checkTimeControl({ moveSeconds: 1 }, 1)).toEqual({ moveSeconds: 1, bankSeconds: 0, onTimeout: 'autoMove', maxTimeouts: 3 });
  });
});
