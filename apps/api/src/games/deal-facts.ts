import type { GameEvent } from '@mizerka/rules';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * The columns of a deal that are public from its start, and its seed: never shown from here (the
 * game's readers show it once revealed), read for dealSeedHash when compaction dropped the hash.
 */
export const DEAL_FACTS = {
  index: true,
  dealer: true,
  seed: true,
  seedHash: true,
  contract: true,
  declarer: true,
  bid: true,
  trump: true,
  tricks: true,
  scores: true,
  finishedAt: true,
} satisfies Prisma.DealSelect;

/** What a step's events make known of its deal; a key is present only when the step fixed it. */
export interface DealFactsFixed {
  contract?: string;
  declarer?: number;
  bid?: string;
  trump?: string;
  /** The deal was scored: tricks and scores per seat. */
  scored?: { tricks: (number | null)[]; scores: number[] };
}

/**
 * The one rule for a deal's facts, for a game played here and an imported one alike: each is
 * written as it becomes known (a contract when it is chosen, a declarer and bid when the bidding
 * ends, a trump when it is named, the result when the deal is scored), so that a game that ends
 * mid-deal keeps what was known. Null when the events fix nothing (most moves: a card played).
 */
export function dealFactsOf(events: readonly GameEvent[]): DealFactsFixed | null {
  const facts: DealFactsFixed = {};
  let fixed = false;
  for (const e of events) {
    if (e.type === 'contractChosen') facts.contract = e.contract;
    else if (e.type === 'declarer') [facts.declarer, facts.bid] = [e.seat, e.bid];
    else if (e.type === 'trumpNamed') facts.trump = e.suit;
    else if (e.type === 'dealScored') facts.scored = { tricks: e.tricks, scores: e.scores };
    else continue;
    fixed = true;
  }
  return fixed ? facts : null;
}

/** A deal's result columns (deals.contract … deals.scores), as a deal row holds them. */
export interface DealResultColumns {
  contract: string | null;
  declarer: number | null;
  bid: string | null;
  trump: string | null;
  tricks: (number | null)[] | null;
  scores: number[] | null;
}

/** The columns a step's facts set: only those it fixed; `finished` when the deal was scored. */
export type DealColumns = Partial<DealResultColumns> & { finished?: true };

/** A deal row's result before anything is known of it. */
export const NO_DEAL_RESULT: DealResultColumns = { contract: null, declarer: null, bid: null, trump: null, tricks: null, scores: null };

/** The one mapping of a deal's facts to its row's columns (a move's update and a whole game's rows alike). */
export function dealColumnsOf(facts: DealFactsFixed): DealColumns {
  const columns: DealColumns = {};
  if (facts.contract !== undefined) columns.contract = facts.contract;
  if (facts.declarer !== undefined) [columns.declarer, columns.bid] = [facts.declarer, facts.bid ?? null];
  if (facts.trump !== undefined) columns.trump = facts.trump;
  if (facts.scored) [columns.tricks, columns.scores, columns.finished] = [facts.scored.tricks, facts.scored.scores, true];
  return columns;
}
