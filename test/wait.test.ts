import { describe, expect, it } from 'vitest';
import { quietFor, waitFor } from './wait.js';

describe('waitFor', () => {
  it('answers the first value that is not undefined, null or false, checking again until then', async () => {
    let calls = 0;
    const values = [undefined, null, false, 0, 'later'];
    expect(await waitFor(() => values[calls++], 'a value', { every: 1 })).toBe(0);
    expect(calls).toBe(4);
    expect(await waitFor(async () => 'now', 'a value')).toBe('now');
  });

  it('fails after its time-out, naming what it waited for', async () => {
    const started = Date.now();
    await expect(waitFor(() => false, 'the moon', { timeout: 50, every: 5 })).rejects.toThrow('timed out after 50 ms waiting for the moon');
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('fails at once when the check throws', async () => {
    let calls = 0;
    await expect(
      waitFor(() => {
        calls++;
        throw new Error('broken');
      }, 'anything'),
    ).rejects.toThrow('broken');
    expect(calls).toBe(1);
  });
});

describe('quietFor', () => {
  it('lets the time pass', async () => {
    const started = performance.now();
    await quietFor(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
