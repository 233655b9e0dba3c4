import type { Card } from './cards.js';
import { fail, ok, ruleError, type Result, type RuleError, type Seat } from './result.js';

export type Preset = 'classic' | 'classic-4' | 'short' | 'short-4' | 'bidding' | 'bidding-4';
export const PRESETS: readonly Preset[] = ['classic', 'classic-4', 'short', 'short-4', 'bidding', 'bidding-4'];

export type Contract = 'clubs' | 'diamonds' | 'hearts' | 'spades' | 'notrumps' | 'mizerka';
/** Every contract, in the order used for indexes; the first four name their trump suit. */
export const CONTRACTS: readonly Contract[] = ['clubs', 'diamonds', 'hearts', 'spades', 'notrumps', 'mizerka'];
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
  family: 'contract' | 'bidding';
  players: 3 | 4;
  /** Contract family; [] for bidding. */
  contracts: readonly Contract[];
  mizerkaQuotas: 'reversed' | 'same';
  target: number;
  doubleMisere: boolean;
  /** The family's cards, ascending. */
  deck: readonly Card[];
  /** Deals in a game (contract family); null for bidding, which ends by target. */
  deals: number | null;
}

const FULL_DECK: readonly Card[] = Object.freeze(Array.from({ length: 52 }, (_, c) => c));
/** 7 8 9 T J Q K A of each suit: ranks 5..12. */
const SHORT_DECK: readonly Card[] = Object.freeze(FULL_DECK.filter((c) => c % 13 >= 5));
const SHORT_CONTRACTS: readonly Contract[] = Object.freeze(['hearts', 'notrumps', 'mizerka'] as Contract[]);
const ALL_CONTRACTS: readonly Contract[] = Object.freeze([...CONTRACTS]);

const PRESET_TABLE: Record<Preset, { family: 'contract' | 'bidding'; players: 3 | 4; contracts: readonly Contract[] }> = {
  classic: { family: 'contract', players: 3, contracts: ALL_CONTRACTS },
  'classic-4': { family: 'contract', players: 4, contracts: ALL_CONTRACTS },
  short: { family: 'contract', players: 3, contracts: SHORT_CONTRACTS },
  'short-4': { family: 'contract', players: 4, contracts: SHORT_CONTRACTS },
  bidding: { family: 'bidding', players: 3, contracts: [] },
  'bidding-4': { family: 'bidding', players: 4, contracts: [] },
};

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
  if (typeof preset !== 'string' || !Object.hasOwn(PRESET_TABLE, preset)) {
    return badRules(`unknown preset ${JSON.stringify(preset)}; known: ${PRESETS.join(', ')}`);
  }
  const p = preset as Preset;
  const table = PRESET_TABLE[p];
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
  const contract = table.family === 'contract';
  return ok({
    preset: p,
    options: normal,
    family: table.family,
    players: table.players,
    contracts: table.contracts,
    mizerkaQuotas: normal.mizerkaQuotas ?? 'reversed',
    target: normal.target ?? DEFAULT_TARGET,
    doubleMisere: normal.doubleMisere ?? false,
    deck: contract ? FULL_DECK : SHORT_DECK,
    deals: contract ? table.players * table.contracts.length : null,
  });
}

/** The dealer of deal `dealIndex`: the deal passes clockwise, to the dealer's left. */
export function dealerOf(rules: Rules, firstDealer: Seat, dealIndex: number): Seat {
  return (firstDealer + dealIndex) % rules.players;
}
