// Moves a state must accept (samples of legalMoves) and moves it must refuse, with the error codes
// and rule ids docs/rules.md and the README allow for each.
import { cardName } from '../src/index.js';
import type { Bid, Card, GameState, LegalMoves, Move, Rules, Seat } from '../src/index.js';
import type { BadMove } from './checks.js';
import { BID_RANK, GameModel } from './model.js';
import type { Rng } from './rng.js';

const CONTRACT_KINDS = ['contract', 'exchange', 'play'] as const;
const BIDDING_KINDS = ['bid', 'discard', 'trump', 'play'] as const;
const ALL_CONTRACTS = ['clubs', 'diamonds', 'hearts', 'spades', 'notrumps', 'mizerka'] as const;

/** Legal moves to try: every choice for contract/bid/trump/play, a few subsets for exchange/discard. */
export function legalSamples(legal: LegalMoves, rng: Rng, subsets = 4): Move[] {
  const seat = legal.seat;
  switch (legal.kind) {
    case 'contract':
      return legal.contracts.map((contract) => ({ kind: 'contract', seat, contract }));
    case 'bid':
      return legal.bids.map((bid) => ({ kind: 'bid', seat, bid }));
    case 'trump':
      return legal.suits.map((suit) => ({ kind: 'trump', seat, suit }));
    case 'play':
      return legal.cards.map((card) => ({ kind: 'play', seat, card }));
    case 'exchange': {
      const out: Move[] = [
        { kind: 'exchange', seat, discards: [] },
        { kind: 'exchange', seat, discards: rng.sample(legal.cards, legal.maxDiscards) },
      ];
      for (let i = 0; i < subsets; i++) out.push({ kind: 'exchange', seat, discards: rng.sample(legal.cards, rng.int(legal.maxDiscards + 1)) });
      return out;
    }
    case 'discard': {
      const out: Move[] = [];
      for (let i = 0; i < subsets; i++) out.push({ kind: 'discard', seat, cards: rng.sample(legal.cards, 2) });
      return out;
    }
  }
}

function sampleMove(kind: Move['kind'], seat: Seat, hand: Card[], rules: Rules): unknown {
  switch (kind) {
    case 'contract':
      return { kind, seat, contract: rules.contracts[0] ?? 'hearts' };
    case 'exchange':
      return { kind, seat, discards: [] };
    case 'bid':
      return { kind, seat, bid: 'pass' };
    case 'discard':
      return { kind, seat, cards: hand.slice(0, 2) };
    case 'trump':
      return { kind, seat, suit: 'hearts' };
    case 'play':
      return { kind, seat, card: hand[0] ?? 51 };
  }
}

/**
 * Moves the engine must refuse in the model's current state, given the engine's legalMoves
 * (`legal`, the seat to move). `m` must be in the same state.
 */
export function badMoves(m: GameModel, legal: LegalMoves, pickLegal: Move, rng: Rng): BadMove[] {
  const rules = m.rules;
  const d = m.deal!;
  const seat = legal.seat;
  const hand = [...d.hands[seat]];
  const handSet = new Set(hand);
  const notInHand = rules.deck.filter((c) => !handSet.has(c));
  const out: BadMove[] = [];
  const ILLEGAL_OR_BAD = ['ILLEGAL_MOVE', 'BAD_MOVE'] as const;

  // Another seat sends the mover's move.
  for (let other = 0; other < rules.players; other++) {
    if (other !== seat) out.push({ why: `seat ${other} moves when seat ${seat} is to move`, move: { ...pickLegal, seat: other }, codes: ['NOT_YOUR_TURN'] });
  }
  out.push({ why: 'seat out of range', move: { ...pickLegal, seat: rules.players }, codes: ['BAD_MOVE', 'NOT_YOUR_TURN'] });

  // The mover sends a move of another kind.
  const family = rules.family === 'contract' ? CONTRACT_KINDS : BIDDING_KINDS;
  const other = rules.family === 'contract' ? BIDDING_KINDS : CONTRACT_KINDS;
  for (const kind of family) {
    if (kind !== legal.kind) out.push({ why: `${kind} move in phase ${legal.kind}`, move: sampleMove(kind, seat, hand, rules), codes: ['WRONG_PHASE'] });
  }
  for (const kind of other) {
    if (!(family as readonly string[]).includes(kind)) {
      out.push({ why: `${kind} move (other family) in phase ${legal.kind}`, move: sampleMove(kind, seat, hand, rules), codes: ['WRONG_PHASE', 'BAD_MOVE', 'ILLEGAL_MOVE'] });
    }
  }

  switch (legal.kind) {
    case 'contract': {
      const chosen = m.chosen[seat];
      if (chosen.length > 0) {
        out.push({ why: 'contract already chosen', move: { kind: 'contract', seat, contract: rng.pick(chosen) }, codes: ['ILLEGAL_MOVE'], rules: ['contract-already-chosen'] });
      }
      const foreign = ALL_CONTRACTS.filter((c) => !rules.contracts.includes(c));
      if (foreign.length > 0) out.push({ why: 'contract not in the rule set', move: { kind: 'contract', seat, contract: rng.pick(foreign) }, codes: [...ILLEGAL_OR_BAD] });
      out.push({ why: 'unknown contract', move: { kind: 'contract', seat, contract: 'trumps' }, codes: ['BAD_MOVE', 'ILLEGAL_MOVE'] });
      break;
    }
    case 'exchange': {
      const max = legal.maxDiscards;
      if (hand.length > max) {
        out.push({ why: `exchange ${max + 1} > maxDiscards ${max}`, move: { kind: 'exchange', seat, discards: rng.sample(hand, max + 1) }, codes: ['ILLEGAL_MOVE'], rules: ['exchange-too-many'] });
      }
      if (max >= 2) {
        const c = rng.pick(hand);
        out.push({ why: 'exchange with a duplicate card', move: { kind: 'exchange', seat, discards: [c, c] }, codes: [...ILLEGAL_OR_BAD], rules: ['duplicate-card'] });
      }
      if (max >= 1) {
        out.push({ why: 'exchange a card not in hand', move: { kind: 'exchange', seat, discards: [rng.pick(notInHand)] }, codes: ['ILLEGAL_MOVE'], rules: ['card-not-in-hand'] });
      }
      break;
    }
    case 'bid': {
      const order = d.active;
      const best = Math.max(0, ...order.map((s) => (d.bids[s] === null ? 0 : BID_RANK[d.bids[s]!])));
      for (const b of ['play', 'misere', 'double-misere'] as Bid[]) {
        if (b === 'double-misere' && !rules.doubleMisere) {
          out.push({ why: 'double-misere without the option', move: { kind: 'bid', seat, bid: b }, codes: ['ILLEGAL_MOVE'], rules: ['double-misere-disabled'] });
        } else if (BID_RANK[b] <= best) {
          out.push({ why: `bid ${b} not above the best bid so far`, move: { kind: 'bid', seat, bid: b }, codes: ['ILLEGAL_MOVE'], rules: ['bid-too-low'] });
        }
      }
      out.push({ why: 'unknown bid', move: { kind: 'bid', seat, bid: 'raise' }, codes: ['BAD_MOVE', 'ILLEGAL_MOVE'] });
      break;
    }
    case 'discard': {
      out.push({ why: 'discard one card', move: { kind: 'discard', seat, cards: rng.sample(hand, 1) }, codes: [...ILLEGAL_OR_BAD], rules: ['discard-two'] });
      out.push({ why: 'discard three cards', move: { kind: 'discard', seat, cards: rng.sample(hand, 3) }, codes: [...ILLEGAL_OR_BAD], rules: ['discard-two'] });
      const c = rng.pick(hand);
      out.push({ why: 'discard the same card twice', move: { kind: 'discard', seat, cards: [c, c] }, codes: [...ILLEGAL_OR_BAD], rules: ['duplicate-card', 'discard-two'] });
      out.push({ why: 'discard a card not in hand', move: { kind: 'discard', seat, cards: [rng.pick(hand), rng.pick(notInHand)] }, codes: ['ILLEGAL_MOVE'], rules: ['card-not-in-hand'] });
      break;
    }
    case 'trump':
      out.push({ why: 'trump notrumps', move: { kind: 'trump', seat, suit: 'notrumps' }, codes: [...ILLEGAL_OR_BAD] });
      break;
    case 'play': {
      const legalSet = new Set(legal.cards);
      const unfollowing = hand.filter((c) => !legalSet.has(c));
      if (unfollowing.length > 0) {
        out.push({ why: 'not following suit', move: { kind: 'play', seat, card: rng.pick(unfollowing) }, codes: ['ILLEGAL_MOVE'], rules: ['follow-suit'] });
      }
      out.push({ why: 'card not in hand', move: { kind: 'play', seat, card: rng.pick(notInHand) }, codes: ['ILLEGAL_MOVE'], rules: ['card-not-in-hand'] });
      if (rules.family === 'bidding') {
        const small = [0, 1, 2, 3, 4].map((r) => r + 13 * rng.int(4)); // 2..6: not in the 32-card deck
        out.push({ why: 'card outside the 32-card deck', move: { kind: 'play', seat, card: rng.pick(small) }, codes: [...ILLEGAL_OR_BAD] });
      }
      for (const card of [52, -1, 2.5]) out.push({ why: `card ${card}`, move: { kind: 'play', seat, card }, codes: [...ILLEGAL_OR_BAD] });
      break;
    }
  }
  return out;
}

/** Card names the mover may know, plus those it named in the move itself. */
export function knownToMover(m: GameModel, move: unknown): Set<string> {
  const mv = move as { seat?: unknown; card?: unknown; cards?: unknown; discards?: unknown };
  const seat = typeof mv.seat === 'number' && mv.seat >= 0 && mv.seat < m.rules.players ? mv.seat : null;
  const named: Card[] = [];
  for (const x of [mv.card, ...(Array.isArray(mv.cards) ? mv.cards : []), ...(Array.isArray(mv.discards) ? mv.discards : [])]) {
    if (typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < 52) named.push(x);
  }
  return new Set([...m.known(seat), ...named].map(cardName));
}

export type { GameState };
