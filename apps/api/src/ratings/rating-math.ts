import { ordinal, rate, rating } from 'openskill';

/** A player's skill in one family and player count: OpenSkill's mu and sigma. */
export interface Skill {
  mu: number;
  sigma: number;
}

/** A newcomer's skill (OpenSkill's defaults: mu 25, sigma 25/3). */
export function newSkill(): Skill {
  const { mu, sigma } = rating();
  return { mu, sigma };
}

/** What leaderboards sort by: mu - 3 sigma, so a newcomer's uncertain skill ranks low until it settles. */
export function skillOrdinal(skill: Skill): number {
  return ordinal(skill);
}

/**
 * One game's new skills: a free-for-all of single-player teams under the Plackett-Luce model.
 * `places` are 1-based standings as the game gave them (equal places are ties; a forfeiting
 * seat is already last there). Pure, so the server and the seeding script rate alike.
 */
export function rateTable(before: readonly Skill[], places: readonly number[]): Skill[] {
  if (before.length !== places.length || before.length < 2) throw new RangeError('one skill and one place per seat, two seats at least');
  // Plackett-Luce is openskill's default model.
  const after = rate(
    before.map((s) => [rating({ mu: s.mu, sigma: s.sigma })]),
    { rank: [...places] },
  );
  return after.map(([s]) => ({ mu: s.mu, sigma: s.sigma }));
}
