// The yearly allowance's arithmetic: pure, so its rules are plain to read and test.

export const DAY_MS = 86_400_000;

/** The days a vacation from `start` to `end` counts: each started day (24 hours) once, at least one. */
export function daysCounted(start: Date, end: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - start.getTime()) / DAY_MS));
}

/** The calendar year (UTC) `at` falls in, as [from, to): a vacation counts in the year it began. */
export function yearOf(at: Date): { year: number; from: Date; to: Date } {
  const year = at.getUTCFullYear();
  return { year, from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) };
}

/** The latest end a vacation begun at `start` may have with `daysLeft` days of allowance left. */
export function latestUntil(start: Date, daysLeft: number): Date {
  return new Date(start.getTime() + Math.max(0, daysLeft) * DAY_MS);
}
