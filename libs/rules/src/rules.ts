import type { Card } from './cards.js';
import { CONTRACTS, FAMILY_TABLE, PRESET_TABLE, type Contract, type FamilyInfo, type FamilyName, type Preset, type PresetInfo } from './presets.js';
import { fail, ok, ruleError, type Result, type RuleError, type Seat } from './result.js';

export { CONTRACTS, type Contract, type FamilyInfo, type FamilyName, type Preset, type PresetInfo };

export const MIZERKA = 5;

export type Bid = 'pass' | 'play' | 'misere' | 'double-misere';
/** Bids in rank order: a non-pass bid must rank above every earlier bid. */
export const BIDS: readonly Bid[] = ['pass', 'play', 'misere', 'double-misere'];
export const PASS = 0;
export const PLAY = 1;
export const MISERE = 2;
export const DOUBLE_MISERE = 3;

export interface RuleOptions {
  mizerkaQuotas?: 'reversed' | 'same';
  target?: number;
  doubleMisere?: boolean;
}

export interface Rules {
  preset: Preset;
  /** Options as given (normalised, no unknown keys). */
  options: RuleOptions;
  family: FamilyName;
  players: number;
  /** Contract family; [] for bidding. */
  contracts: readonly Contract[];
  mizerkaQuotas: 'reversed' | 'same';
  target: number;
  doubleMisere: boolean;
  /** The family's cards, ascending. */
  deck: readonly Card[];
  /** Deals in a game (contract family); null for bidding, which ends by target. */
  deals: number | null;
  /** Cards per hand after dealing = tricks per deal. */
  handSize: number;
  /** The lowest rank of the deck (0 = two). */
  minRank: number;
}

/** Each preset with its family's part filled in, by name, in PRESET_TABLE's order. */
const PRESET_INFO: ReadonlyMap<string, PresetInfo> = new Map(
  (PRESET_TABLE as readonly (typeof PRESET_TABLE)[number][]).map((line) => {
    const family = FAMILY_TABLE[line.family];
    const info: PresetInfo = {
      ...line,
      deck: family.deck,
      handSize: family.handSize(line.players),
      deals: family.deals(line.players, line.contracts),
    };
    return [line.name, Object.freeze(info)];
  }),
);

/** Every preset's name, in the order lists show them. */
export const PRESETS: readonly Preset[] = [...PRESET_INFO.keys()] as Preset[];

/** The families, in the order lists show them (contract first). */
export const FAMILIES: readonly FamilyInfo[] = Object.values(FAMILY_TABLE);

/** A preset's metadata; null for a name the rules do not know. */
export function presetInfo(preset: string): PresetInfo | null {
  return PRESET_INFO.get(preset) ?? null;
}

/** The presets of a family, in PRESETS order. */
export function presetsOf(family: FamilyName): PresetInfo[] {
  return [...PRESET_INFO.values()].filter((p) => p.family === family);
}

/** The table sizes some preset (of `family`, when given) is played at, ascending. */
export function playerCounts(family?: FamilyName): number[] {
  const counts = new Set([...PRESET_INFO.values()].filter((p) => family === undefined || p.family === family).map((p) => p.players));
  return [...counts].sort((a, b) => a - b);
}

const DEFAULT_TARGET = 300;
/**
 * The range of the bidding option `target`. A game ends once a total reaches it, and a deal moves
 * a total by tens at most; 10 000 is a long evening already. The bound also keeps every total
 * well inside a 32-bit integer (GraphQL's Int, the database's integer columns).
 */
export const TARGET_MIN = 1;
export const TARGET_MAX = 10_000;

function badRules(message: string): { ok: false; error: RuleError } {
  return fail(ruleError('BAD_RULES', 'bad-rules', message));
}

/**
 * Unknown preset, unknown option, option of the other family or a bad value → 'BAD_RULES'.
 * `options` may be undefined or null (no options).
 */
export function makeRules(preset: string, options?: unknown): Result<Rules, RuleError> {
  const table = typeof preset === 'string' ? presetInfo(preset) : null;
  if (table === null) return badRules(`unknown preset ${JSON.stringify(preset)}; known: ${PRESETS.join(', ')}`);
  const p = preset as Preset;
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    return badRules('options must be an object');
  }
  const given = (options ?? {}) as Record<string, unknown>;
  const normal: RuleOptions = {};
  for (const key of Object.keys(given)) {
    const value = given[key];
    if (key === 'mizerkaQuotas') {
      if (table.family !== 'contract') return badRules(`option mizerkaQuotas belongs to the contract family, not to ${p}`);
      if (value !== 'reversed' && value !== 'same') return badRules('mizerkaQuotas must be "reversed" or "same"');
      normal.mizerkaQuotas = value;
    } else if (key === 'target') {
      if (table.family !== 'bidding') return badRules(`option target belongs to the bidding family, not to ${p}`);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < TARGET_MIN || value > TARGET_MAX) {
        return badRules(`target must be a whole number from ${TARGET_MIN} to ${TARGET_MAX}`);
      }
      normal.target = value;
    } else if (key === 'doubleMisere') {
      if (table.family !== 'bidding') return badRules(`option doubleMisere belongs to the bidding family, not to ${p}`);
      if (typeof value !== 'boolean') return badRules('doubleMisere must be true or false');
      normal.doubleMisere = value;
    } else {
      return badRules(`unknown option ${JSON.stringify(key)}`);
    }
  }
  return ok({
    preset: p,
    options: normal,
    family: table.family,
    players: table.players,
    contracts: table.contracts,
    mizerkaQuotas: normal.mizerkaQuotas ?? 'reversed',
    target: normal.target ?? DEFAULT_TARGET,
    doubleMisere: normal.doubleMisere ?? false,
    deck: table.deck,
    deals: table.deals,
    handSize: table.handSize,
    minRank: FAMILY_TABLE[table.family].minRank,
  });
}

/** The dealer of deal `dealIndex`: the deal passes clockwise, to the dealer's left. */
export function dealerOf(rules: Rules, firstDealer: Seat, dealIndex: number): Seat {
  return (firstDealer + dealIndex) % rules.players;
}
