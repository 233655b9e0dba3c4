import { FAMILIES as RULE_FAMILIES, playerCounts, presetInfo, PRESETS, presetsOf } from '@mizerka/rules';
import { badInput } from '../common/errors.js';
import type { FamilyValue } from './models/enums.js';

// Families, presets and table sizes as the rules describe them (libs/rules/src/presets.ts): requests
// are checked, and descriptions and messages written, from that one list.

/** "a, b or c". */
function orList(items: readonly (string | number)[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The families, as requests name them, in the rules' order. */
export const FAMILIES: readonly FamilyValue[] = RULE_FAMILIES.map((f) => f.name);
/** The table sizes some preset is played at, ascending: the rating keys are a family and one of these. */
export const PLAYER_COUNTS: readonly number[] = playerCounts();

/** For descriptions and messages: "contract or bidding", '"contract" or "bidding"', "3 or 4", "classic, … or bidding-4". */
export const FAMILY_WORDS = orList(FAMILIES);
export const FAMILY_QUOTED = orList(FAMILIES.map((f) => `"${f}"`));
export const PLAYER_COUNT_WORDS = orList(PLAYER_COUNTS);
export const PRESET_WORDS = orList(PRESETS);

/** The family of a preset (classic, short… → contract; bidding… → bidding); null for one the rules do not know. */
export function familyOf(preset: string): FamilyValue | null {
  return presetInfo(preset)?.family ?? null;
}

/** Each family's presets, in the rules' order. */
export const PRESETS_OF_FAMILY: Readonly<Record<FamilyValue, readonly string[]>> = FAMILIES.reduce(
  (all, family) => ({ ...all, [family]: presetsOf(family).map((p) => p.name) }),
  {} as Record<FamilyValue, readonly string[]>,
);

/** A family from a request, or BAD_INPUT naming the field. */
export function parseFamily(family: string, field = 'family'): FamilyValue {
  if (!(FAMILIES as readonly string[]).includes(family)) throw badInput(`${field} must be ${FAMILY_QUOTED}`, { field });
  return family as FamilyValue;
}

/** A table size from a request, or BAD_INPUT naming the field. */
export function parsePlayerCount(players: number, field = 'players'): number {
  if (!PLAYER_COUNTS.includes(players)) throw badInput(`${field} must be ${PLAYER_COUNT_WORDS}`, { field });
  return players;
}
