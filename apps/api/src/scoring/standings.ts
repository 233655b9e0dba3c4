/** Places by total, highest first; equal totals share a place and the next place is skipped (1, 1, 3). */
export function placesOf(totals: readonly number[]): number[] {
  return totals.map((total) => 1 + totals.filter((other) => other > total).length);
}
