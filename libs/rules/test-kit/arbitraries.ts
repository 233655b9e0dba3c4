// fast-check arbitraries for rules, seeds, decks and whole games.
import fc from 'fast-check';
import { PRESETS, makeRules } from '../src/index.js';
import type { Card, Preset, RuleOptions, Rules, Seat } from '../src/index.js';
import { playRandomGame } from './driver.js';
import type { PlayedGame } from './driver.js';
import { makeRng } from './rng.js';

export const CONTRACT_PRESETS: readonly Preset[] = ['classic', 'classic-4', 'short', 'short-4'];
export const BIDDING_PRESETS: readonly Preset[] = ['bidding', 'bidding-4'];
export const ALL_PRESETS: readonly Preset[] = [...CONTRACT_PRESETS, ...BIDDING_PRESETS];

export const familyOf = (preset: Preset): 'contract' | 'bidding' =>
  BIDDING_PRESETS.includes(preset) ? 'bidding' : 'contract';

/** makeRules that must succeed (test inputs are meant to be valid). */
export function mustRules(preset: string, options: RuleOptions = {}): Rules {
  const r = makeRules(preset, options);
  if (!r.ok) throw new Error(`test-kit: makeRules(${preset}, ${JSON.stringify(options)}) failed: ${JSON.stringify(r.error)}`);
  return r.value;
}

export interface RulesArbOptions {
  presets?: readonly Preset[];
  /** Bidding target range; small targets end games quickly. Default 30..120. */
  target?: { min: number; max: number };
  /** When false, bidding games always get a target option (default false = always set). */
  targetOptional?: boolean;
}

export const arbPreset = (presets: readonly Preset[] = PRESETS): fc.Arbitrary<Preset> => fc.constantFrom(...presets);

/** Options valid for the preset's family; keys may be absent (defaults apply). */
export function arbOptions(preset: Preset, o: RulesArbOptions = {}): fc.Arbitrary<RuleOptions> {
  if (familyOf(preset) === 'contract') {
    return fc.record({ mizerkaQuotas: fc.constantFrom<'reversed' | 'same'>('reversed', 'same') }, { requiredKeys: [] });
  }
  const target = fc.integer(o.target ?? { min: 30, max: 120 });
  return fc.record(
    { target, doubleMisere: fc.boolean() },
    { requiredKeys: o.targetOptional ? [] : ['target'] },
  );
}

export function arbRules(o: RulesArbOptions = {}): fc.Arbitrary<Rules> {
  return arbPreset(o.presets ?? ALL_PRESETS).chain((preset) =>
    arbOptions(preset, o).map((options) => mustRules(preset, options)));
}

/** A deal seed for shuffledDeck: 32 hex digits. */
export const arbSeed: fc.Arbitrary<string> = fc
  .array(fc.integer({ min: 0, max: 15 }), { minLength: 32, maxLength: 32 })
  .map((ds) => ds.map((d) => d.toString(16)).join(''));

/** A permutation of rules.deck (a deck in dealing order). */
export const arbDeck = (rules: Rules): fc.Arbitrary<Card[]> =>
  fc.shuffledSubarray([...rules.deck], { minLength: rules.deck.length, maxLength: rules.deck.length });

export const arbSeat = (rules: Rules): fc.Arbitrary<Seat> => fc.integer({ min: 0, max: rules.players - 1 });

export interface GameSetup {
  rules: Rules;
  firstDealer: Seat;
  /** Seed of the move-choosing generator (see makeRng). */
  rngSeed: number;
}

export const arbGameSetup = (o: RulesArbOptions = {}): fc.Arbitrary<GameSetup> =>
  arbRules(o).chain((rules) =>
    fc.record({ rules: fc.constant(rules), firstDealer: arbSeat(rules), rngSeed: fc.integer() }));

export interface PlayedGameArbOptions extends RulesArbOptions {
  /** Deals to play at most (default: contract 2, bidding 20). */
  maxDeals?: number;
  /** When set, games also stop at a random move 1..maxMoves (records of unfinished deals). */
  maxMoves?: number;
}

/** A game played with uniformly random legal moves, with its mizerka-record/1 record. */
export function arbPlayedGame(o: PlayedGameArbOptions = {}): fc.Arbitrary<PlayedGame> {
  return arbGameSetup(o).chain((setup) =>
    (o.maxMoves === undefined ? fc.constant(undefined) : fc.option(fc.integer({ min: 1, max: o.maxMoves }), { nil: undefined }))
      .map((stop) => playRandomGame(setup.rules, makeRng(setup.rngSeed), {
        firstDealer: setup.firstDealer,
        maxDeals: o.maxDeals ?? (setup.rules.family === 'contract' ? 2 : 20),
        maxMoves: stop,
        keepSteps: false,
      })));
}
