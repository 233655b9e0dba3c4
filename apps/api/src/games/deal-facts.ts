import type { GameEvent } from '@mizerka/rules';
import type { Prisma } from '../generated/prisma/client.js';

/** The columns of a deal that are public from its start (the seed is not among them). */
export const DEAL_FACTS = {
  index: true,
  dealer: true,
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
