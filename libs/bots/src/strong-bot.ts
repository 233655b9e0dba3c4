import type { Card, Move, Xoshiro128 } from '@mizerka/rules';
import { basicMove } from './basic-bot.js';
import type { BotInput, BotOptions } from './bot.js';
import { dealValue, deadlineOf, determinize, goalsOf, pastDeadline } from './deal-sampling.js';
import { cardOf, know, type Knowledge } from './knowledge.js';
import { rngFor, seatToMove } from './seat.js';
import { sampledBid, sampledDiscards, sampledTrump } from './strong-bidding.js';
import { sampledContract, sampledExchange } from './strong-contract.js';
import { tableOf, type Table } from './table.js';

/**
 * Samples per card decision by default: the p99 of a move stays well under a second on one core
 * (npm run bench:bots prints the figures).
 */
export const STRONG_SAMPLES = 300;

/**
 * Search under imperfect information for the card play: deal the unseen cards consistently with
 * what the seat has seen (determinize), play each candidate card and the rest of the deal by the
 * basic policy, and take the card with the best average score. The same samples serve every
 * candidate, so their differences are not noise from the dealing. The bidding family's bid,
 * discard and trump are sampled the same way (strong-bidding.ts), and the contract family's
 * contract and exchange (strong-contract.ts).
 */
export function strongMove(input: BotInput, options: BotOptions): Move {
  const { legal, seat } = seatToMove(input);
  if (legal.kind === 'contract') {
    if (legal.contracts.length === 1) return { kind: 'contract', seat, contract: legal.contracts[0] };
    const six = (input.view.hand ?? []).map(cardOf);
    const samples = Math.max(4, Math.ceil((options.samples ?? STRONG_SAMPLES) / 2));
    return { kind: 'contract', seat, contract: sampledContract(input.view.players, six, legal.contracts, rngFor(options.seed), samples, deadlineOf(options.budgetMs)) };
  }
  if (legal.kind === 'play' && legal.cards.length === 1) return { kind: 'play', seat, card: cardOf(legal.cards[0]) };
  const k = know(input, seat);
  const base = tableOf(k, goalsOf(k));
  const rng = rngFor(options.seed);
  const samples = options.samples ?? STRONG_SAMPLES;
  const deadline = deadlineOf(options.budgetMs);
  switch (legal.kind) {
    case 'bid': {
      const made = input.view.bids.filter((b) => b !== null);
      const forcedIfPass = made.length === 2 && made.every((b) => b === 'pass');
      return { kind: 'bid', seat, bid: sampledBid(k, base, legal.bids, forcedIfPass, rng, samples, deadline) };
    }
    case 'discard': {
      // Some thirty choices: fewer samples each keep it near a card decision's cost.
      const cards = sampledDiscards(k, base, input.view.bid ?? 'play', rng, Math.max(8, Math.ceil(samples / 5)), deadline);
      return { kind: 'discard', seat, cards };
    }
    case 'trump':
      return { kind: 'trump', seat, suit: sampledTrump(k, base, rng, samples, deadline) };
    case 'exchange': {
      const { contract, chooser, talonSize, exchanged } = input.view;
      if (contract === null || chooser === null) return basicMove(input, options);
      const later: number[] = [];
      for (let p = (seat + 1) % k.n; p !== seat; p = (p + 1) % k.n) if (exchanged[p] === null) later.push(p);
      const exchange = { contract, chooser, talonSize, later, maxDiscards: legal.maxDiscards };
      // Up to fourteen choices, each a whole deal: half the samples keep it near a card decision's cost.
      const discards = sampledExchange(k, base, exchange, rng, Math.max(4, Math.ceil(samples / 2)), deadline);
      return { kind: 'exchange', seat, discards };
    }
    case 'play': {
      const candidates = distinctCards(k, legal.cards.map(cardOf));
      if (candidates.length === 1) return { kind: 'play', seat, card: candidates[0] };
      const totals = searchCards(k, base, candidates, rng, samples, deadline);
      let best = 0;
      for (let i = 1; i < candidates.length; i++) if (totals[i] > totals[best]) best = i;
      return { kind: 'play', seat, card: candidates[best] };
    }
  }
}

function searchCards(k: Knowledge, base: Table, candidates: Card[], rng: Xoshiro128, samples: number, deadline: number): Float64Array {
  const totals = new Float64Array(candidates.length);
  const sample = base.clone();
  const work = base.clone();
  for (let s = 0; s < samples; s++) {
    if (pastDeadline(s, deadline)) break;
    sample.copyFrom(base);
    determinize(k, rng, sample);
    for (let i = 0; i < candidates.length; i++) {
      work.copyFrom(sample);
      work.play(candidates[i]);
      work.playOut();
      totals[i] += dealValue(k, work, k.seat);
    }
  }
  return totals;
}

/**
 * One card per run of touching cards: with everything between them out of play, the 9 and 10 of
 * a suit do the same work, so searching both would only halve the samples of each.
 */
function distinctCards(k: Knowledge, cards: Card[]): Card[] {
  const sorted = [...cards].sort((a, b) => a - b);
  const out: Card[] = [];
  for (const card of sorted) {
    const prev = out.length > 0 ? out[out.length - 1] : -1;
    const suit = (card / 13) | 0;
    if (prev >= 0 && ((prev / 13) | 0) === suit && touching(k, suit, prev % 13, card % 13)) continue;
    out.push(card);
  }
  return out;
}

function touching(k: Knowledge, suit: number, from: number, to: number): boolean {
  for (let r = from + 1; r < to; r++) {
    const bit = 1 << r;
    if ((k.deckMask & bit) !== 0 && (k.hand[suit] & bit) === 0 && (k.out[suit] & bit) === 0) return false;
  }
  return true;
}
