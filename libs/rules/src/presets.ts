import type { Card } from './cards.js';

/**
 * Every variant described once: the families and their presets with what the rules, the server
 * (lobbies, ratings, requests) and the web client need to know of them. A new preset is one line of
 * PRESET_TABLE; nothing else lists presets.
 */

export type FamilyName = 'contract' | 'bidding';
/** Every contract, in the order used for indexes; the first four name their trump suit. */
export type Contract = 'clubs' | 'diamonds' | 'hearts' | 'spades' | 'notrumps' | 'mizerka';
export const CONTRACTS: readonly Contract[] = ['clubs', 'diamonds', 'hearts', 'spades', 'notrumps', 'mizerka'];

/** What a family brings to each of its presets. */
export interface FamilyInfo {
  readonly name: FamilyName;
  readonly label: string;
  /** The family's cards, ascending: ranks from minRank (0 = two) to ace. */
  readonly deck: readonly Card[];
  readonly minRank: number;
  /** Cards per hand after dealing (= tricks per deal) at a table of `players`. */
  handSize(players: number): number;
  /** Deals in a game; null when the game ends by a target instead. */
  deals(players: number, contracts: readonly Contract[]): number | null;
}

/** A preset as every reader sees it. */
export interface PresetInfo {
  readonly name: string;
  readonly label: string;
  readonly family: FamilyName;
  readonly players: number;
  /** Contract family: the contracts each seat chooses once, in CONTRACTS order; [] for bidding. */
  readonly contracts: readonly Contract[];
  readonly deck: readonly Card[];
  readonly handSize: number;
  readonly deals: number | null;
}

function deckFrom(minRank: number): readonly Card[] {
  return Object.freeze(Array.from({ length: 52 }, (_, c) => c).filter((c) => c % 13 >= minRank));
}

export const FAMILY_TABLE: Readonly<Record<FamilyName, FamilyInfo>> = {
  contract: {
    name: 'contract',
    label: 'contract (52 cards, each contract once)',
    deck: deckFrom(0),
    minRank: 0,
    handSize: (players) => (players === 3 ? 13 : 10),
    deals: (players, contracts) => players * contracts.length,
  },
  bidding: {
    name: 'bidding',
    label: 'bidding (32 cards)',
    deck: deckFrom(5), // 7 8 9 T J Q K A
    minRank: 5,
    handSize: () => 10,
    deals: () => null,
  },
};

const ALL: readonly Contract[] = Object.freeze([...CONTRACTS]);
const SHORT: readonly Contract[] = Object.freeze(['hearts', 'notrumps', 'mizerka'] as Contract[]);

/** A line of PRESET_TABLE: what is particular to the preset; the rest comes from its family. */
export interface PresetLine {
  readonly name: string;
  readonly label: string;
  readonly family: FamilyName;
  readonly players: number;
  readonly contracts: readonly Contract[];
}

/** The presets, in the order every list shows them (docs/rules.md, "Presets"). */
export const PRESET_TABLE = [
  { name: 'classic', label: 'Classic', family: 'contract', players: 3, contracts: ALL },
  { name: 'classic-4', label: 'Classic, four players', family: 'contract', players: 4, contracts: ALL },
  { name: 'short', label: 'Short', family: 'contract', players: 3, contracts: SHORT },
  { name: 'short-4', label: 'Short, four players', family: 'contract', players: 4, contracts: SHORT },
  { name: 'bidding', label: 'Bidding', family: 'bidding', players: 3, contracts: [] },
  { name: 'bidding-4', label: 'Bidding, four players', family: 'bidding', players: 4, contracts: [] },
] as const satisfies readonly PresetLine[];

export type Preset = (typeof PRESET_TABLE)[number]['name'];
