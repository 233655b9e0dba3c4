import { makeRules, PRESETS } from '@mizerka/rules';
import { badInput } from '../common/errors.js';
import { FamilyEnum, type FamilyValue } from './models/enums.js';

/** The two families, as requests name them. */
export const FAMILIES: readonly FamilyValue[] = Object.values(FamilyEnum);

/** The family of a preset (classic, short… → contract; bidding… → bidding); null for one the rules do not know. */
export function familyOf(preset: string): FamilyValue | null {
  const rules = makeRules(preset);
  return rules.ok ? rules.value.family : null;
}

/** Each family's presets, in the rules' order. */
export const PRESETS_OF_FAMILY: Readonly<Record<FamilyValue, readonly string[]>> = {
  contract: PRESETS.filter((preset) => familyOf(preset) === 'contract'),
  bidding: PRESETS.filter((preset) => familyOf(preset) === 'bidding'),
};

/** A family from a request, or BAD_INPUT naming the field. */
export function parseFamily(family: string, field = 'family'): FamilyValue {
  if (!(FAMILIES as readonly string[]).includes(family)) throw badInput(`${field} must be "contract" or "bidding"`, { field });
  return family as FamilyValue;
}

/** A table size from a request, or BAD_INPUT naming the field. */
export function parsePlayerCount(players: number, field = 'players'): number {
  if (players !== 3 && players !== 4) throw badInput(`${field} must be 3 or 4`, { field });
  return players;
}
