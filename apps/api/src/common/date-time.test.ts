import { describe, expect, it } from 'vitest';
import { parseDateTime } from './date-time.js';

describe('parseDateTime', () => {
  it('reads RFC 3339 date-times and bare dates as the instant they name', () => {
    expect(parseDateTime('2026-03-01T12:00:00Z')?.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(parseDateTime('2026-03-01t12:00:00.5z')?.toISOString()).toBe('2026-03-01T12:00:00.500Z');
    expect(parseDateTime('2026-03-01T12:00:00+02:00')?.toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(parseDateTime('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(parseDateTime('2028-02-29T00:00:00Z')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(parseDateTime('2000-02-29')?.toISOString()).toBe('2000-02-29T00:00:00.000Z');
  });

  it('refuses a day that is not on the calendar instead of rolling it over', () => {
    for (const text of ['2026-02-30T00:00:00Z', '2026-04-31T00:00:00Z', '2026-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '2026-01-00']) {
      expect(parseDateTime(text), text).toBeNull();
    }
  });

  it('refuses times and offsets out of range, and whatever else new Date() would read', () => {
    for (const text of ['2026-03-01T24:00:00Z', '2026-03-01T12:60:00Z', '2026-03-01T12:00:60Z', '2026-03-01T12:00:00+24:00',
      '2026-03-01T12:00:00', 'March 1, 2026', '1772366400000', '', ' 2026-03-01', '2026-3-1', '+002026-03-01T00:00:00Z']) {
      expect(parseDateTime(text), text).toBeNull();
    }
  });
});
